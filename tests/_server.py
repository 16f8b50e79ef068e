"""A real ``rook serve`` process on loopback, for the service tests."""

from __future__ import annotations

import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

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
        # Port 0 (no port given): the server binds a free port and says which.  A port found
        # free beforehand (free_port) could be taken by another socket before the server bound it.
        self.proc = subprocess.Popen([sys.executable, "-m", "rook_core", "serve", "--port", str(port or 0),
                                      "--db", str(db), *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self._said = b""
        self.port = self._listening()
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 60
        while True:
            try:
                if httpx.get(self.url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                self._not_started()
            time.sleep(0.1)

    def _listening(self) -> int:
        """The port of the server's "listening on" line, once it prints it (within a minute)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + 60
        while not (m := re.search(rb"listening on http://\S+:(\d+)/", self._said)):
            left = deadline - time.monotonic()
            chunk = os.read(fd, 65536) if left > 0 and select.select([fd], [], [], left)[0] else b""
            if not chunk:                                   # it ended, or said nothing for a minute
                self._not_started()
            self._said += chunk
        return int(m.group(1))

    def _not_started(self) -> NoReturn:
        if self.proc.poll() is None:
            self.kill()
        out = self._said + (self.proc.stdout.read() if self.proc.stdout else b"")
        raise RuntimeError(f"rook serve did not start: {out.decode(errors='replace')}")

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
