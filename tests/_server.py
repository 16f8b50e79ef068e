"""A real ``rook serve`` process on loopback, for the service tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``rook serve --db DB [ARGS]`` in a subprocess; :meth:`kill` ends it with SIGKILL."""

    # The suite's clients all share one address (loopback): no rate per client
    # unless a test asks for one.
    def __init__(self, db: Path, port: int | None = None,
                 args: tuple[str, ...] = ("--requests-per-second", "0", "--games-per-minute", "0")) -> None:
        self.db = db
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, "-m", "rook_core", "serve", "--port", str(self.port),
                                      "--db", str(db), *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.time() + 60
        while True:
            try:
                if httpx.get(self.url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise RuntimeError(f"rook serve did not start: {out}")
            time.sleep(0.1)

    def client(self, **kw: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60, **kw)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
