"""Make the pictures of the README and the docs: the browser table of
``rook serve`` in headless Chromium, and the report of a simulation.

    .venv/bin/python tools/gen_pictures.py          # writes docs/images/*.png

It starts its own server on a free loopback port with a throw-away database,
plays a few actions of a ``tournament`` game at seat 0 (the first legal one
each time, as the browser test does), and takes a screenshot; then it runs
``rook simulate --report`` on a fixed seed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
ROOK = str(Path(sys.executable).parent / "rook")


def browser_table(out: Path, clicks: int = 3) -> None:
    """A screenshot of the browser table after ``clicks`` of seat 0's first legal actions."""
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([ROOK, "serve", "--port", "0", "--db", f"{tmp}/games.sqlite"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split()[4]
            opts = webdriver.ChromeOptions()
            opts.binary_location = shutil.which("chromium") or "chromium"
            for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                        "--window-size=1000,600", "--hide-scrollbars"):
                opts.add_argument(arg)
            browser = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=opts)
            try:
                browser.get(url)
                Select(browser.find_element(By.ID, "game")).select_by_value("tournament")
                browser.find_element(By.ID, "start").click()
                wait = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
                for _ in range(clicks):
                    button = wait.until(lambda b: (b.find_elements(By.CSS_SELECTOR, "#legal button") or [False])[0])
                    button.click()
                    time.sleep(0.6)
                time.sleep(1.0)
                browser.execute_script("window.scrollTo(0, 0)")
                browser.save_screenshot(str(out))
            finally:
                browser.quit()
        finally:
            server.terminate()
            server.wait(10)


def simulation_report(out: Path) -> None:
    """The three plots of ``rook simulate --report`` for 4,000 hands of heuristic bots."""
    subprocess.run([ROOK, "simulate", "--preset", "tournament", "--agents", "heuristic,heuristic,heuristic,heuristic",
                    "--hands", "4000", "--seed", "7", "--report", str(out)], check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    browser_table(IMAGES / "browser-table.png")
    simulation_report(IMAGES / "simulation-report.png")
    for p in sorted(IMAGES.glob("*.png")):
        print(f"{p.relative_to(ROOT)}: {p.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
