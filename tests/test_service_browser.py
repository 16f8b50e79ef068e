"""The browser table of ``rook serve``, driven end to end in headless Chromium
(Debian's ``chromium`` and ``chromium-driver``, which ``.ci/run`` installs)."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from _server import Server
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


def _driver() -> webdriver.Chrome:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    assert chromium and driver, "the browser test needs Debian's chromium and chromium-driver (.ci/run installs them)"
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        opts.add_argument(arg)
    return webdriver.Chrome(service=Service(driver), options=opts)


@pytest.fixture(scope="module")
def browser_and_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    server = Server(tmp_path_factory.mktemp("browser") / "games.sqlite")
    browser = _driver()
    yield browser, server
    browser.quit()
    server.stop()


def _play(browser: webdriver.Chrome, game: str, clicks: int) -> list[str]:
    """Start ``game`` at seat 0 against bots and click the first legal action ``clicks`` times."""
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    browser.find_element(By.ID, "start").click()
    # The page redraws when a bot moves, so an element found a moment ago may
    # be gone: the waits look again, and a click on a stale button is retried.
    wait = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
    done = []
    for _ in range(clicks):
        before, action = wait.until(_click_first_action)
        if action is None:
            break
        done.append(action)
        wait.until(lambda b, before=before: b.find_element(By.ID, "board").get_attribute("data-move") != before
                   or b.find_element(By.ID, "error").text)
        assert browser.find_element(By.ID, "error").text == ""
    return done


def _click_first_action(browser: webdriver.Chrome) -> tuple[str, str | None] | bool:
    """Click the first legal-action button and return (move number before, action);
    the action is None when the game is over. False (wait again) when the page
    redrew meanwhile."""
    try:
        buttons = browser.find_elements(By.CSS_SELECTOR, "#legal button")
        if not buttons:
            return ("", None) if "Game over" in browser.find_element(By.ID, "status").text else False
        before = browser.find_element(By.ID, "board").get_attribute("data-move") or ""
        action = buttons[0].get_attribute("data-action") or ""
        buttons[0].click()
        return before, action
    except StaleElementReferenceException:
        return False


def test_a_person_plays_a_trick_game_in_the_browser(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    browser, server = browser_and_server
    browser.get(server.url + "/")
    assert "rook_core" in browser.title
    done = _play(browser, "tournament", 6)
    assert len(done) == 6
    assert browser.find_element(By.ID, "hand").find_elements(By.CLASS_NAME, "card")
    assert "phase" in browser.find_element(By.ID, "info").text


def test_a_person_plays_toonerville_in_the_browser(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    browser, server = browser_and_server
    browser.get(server.url + "/")
    Select(browser.find_element(By.ID, "players")).select_by_visible_text("3")
    browser.find_element(By.ID, "seed").send_keys("1")          # a chosen deal (the default is a secret one)
    done = _play(browser, "toonerville", 4)
    assert any(a in ("draw", "take") for a in done)        # seat 0 started a turn of its own
    assert "Round 1" in browser.find_element(By.ID, "info").text
    assert len(browser.find_element(By.ID, "hand").find_elements(By.CLASS_NAME, "card")) >= 12


def test_a_reload_goes_on_with_the_game_and_each_new_game_is_a_fresh_secret_deal(
        browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """Issue 16.3 and 16.8: the seat token outlives a reload; the default deal is secret and new."""
    browser, server = browser_and_server
    browser.get(server.url + "/")
    assert len(_play(browser, "tournament", 3)) == 3
    wait = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
    before = browser.find_element(By.ID, "board").get_attribute("data-move")
    browser.refresh()
    wait.until(lambda b: b.find_element(By.ID, "board").get_attribute("data-move") == before)
    assert browser.find_element(By.ID, "hand").find_elements(By.CLASS_NAME, "card")
    assert len(_play(browser, "tournament", 2)) == 2       # a new game from the same page, after the reload
    db = sqlite3.connect(server.db)
    specs = [json.loads(s) for (s,) in db.execute("SELECT spec FROM games WHERE spec LIKE '%tournament%'")]
    db.close()
    assert len(specs) >= 3 and not any(s["seed_chosen"] for s in specs)
    assert len({s["seed"] for s in specs}) == len(specs), "two default games got the same deal"


def test_a_lost_seat_token_is_taken_back_with_the_owner_token(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """Issue 16.8: the page frees its seat with the owner token and joins it again."""
    browser, server = browser_and_server
    browser.get(server.url + "/")
    assert len(_play(browser, "tournament", 2)) == 2
    before = browser.find_element(By.ID, "board").get_attribute("data-move")
    browser.execute_script("const s = JSON.parse(localStorage.getItem('rook_core.seat'));"
                           "s.token = 'lost'; localStorage.setItem('rook_core.seat', JSON.stringify(s));")
    browser.refresh()
    wait = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
    wait.until(lambda b: b.find_element(By.ID, "board").get_attribute("data-move") == before)
    saved = browser.execute_script("return JSON.parse(localStorage.getItem('rook_core.seat'));")
    assert saved["token"] != "lost"
    assert len(_play(browser, "tournament", 1)) == 1


def test_after_a_hand_the_table_shows_its_review(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """Issue 17 section 4: when a hand of a trick game is over, the page shows its
    double-dummy review: the summary and, for each seat, the costly cards and the
    points they gave away, as the service's review route gives them."""
    browser, server = browser_and_server
    browser.get(server.url + "/")
    browser.find_element(By.ID, "seed").send_keys("3")
    assert len(_play(browser, "tournament", 1)) == 1
    for _ in range(20):             # until the first hand is over and its review is shown
        if browser.find_element(By.ID, "review").is_displayed():
            break
        _keep_playing(browser, 3)
    WebDriverWait(browser, 30).until(lambda b: b.find_element(By.ID, "review").is_displayed()
                                     and b.find_element(By.ID, "review-summary").text)
    n = int(browser.find_element(By.ID, "review-title").text.split()[1].rstrip(","))
    summary = browser.find_element(By.ID, "review-summary").text
    saved = browser.execute_script("return JSON.parse(localStorage.getItem('rook_core.seat'));")
    with server.client() as c:
        r = c.get(f"/games/{saved['game']}/hands/{n}/review", headers={"Authorization": "Bearer " + saved["token"]})
    if r.status_code == 400:                  # a thrown-in hand says so
        assert "thrown in" in summary
        return
    review = r.json()
    assert f"declared {review['bid']}" in summary and f"took {review['points'][0]} and {review['points'][1]}" in summary
    rows = browser.find_elements(By.CSS_SELECTOR, "#review-seats tr[data-seat]")
    shown = {row.get_attribute("data-seat"): [td.text for td in row.find_elements(By.TAG_NAME, "td")][2:]
             for row in rows}
    assert shown == {s: [str(m["cards"]), str(m["cost"])] for s, m in review["mistakes"].items()}
    costly = [c for c in review["cards"] if c["cost"] > 0]
    items = browser.find_elements(By.CSS_SELECTOR, "#review-cards li")
    assert len(items) == max(1, len(costly))
    for li, c in zip(items, costly):
        assert f"Trick {c['trick']}: seat {c['seat']} played" in li.text and c["card"] in li.text


def _keep_playing(browser: webdriver.Chrome, clicks: int) -> None:
    """Click the first legal action up to ``clicks`` times in the game on the page."""
    wait = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
    for _ in range(clicks):
        before, action = wait.until(_click_first_action)
        if action is None:
            return
        wait.until(lambda b, before=before: b.find_element(By.ID, "board").get_attribute("data-move") != before
                   or b.find_element(By.ID, "error").text)
        assert browser.find_element(By.ID, "error").text == ""


def test_the_table_names_the_seats_and_shows_the_bidding_the_previous_trick_and_the_score(
        browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """Issue 18: who is who, the calls so far, the trick before, each team's points and the game score,
    each as the seat's own view (GET /games/ID/view) says."""
    browser, server = browser_and_server
    browser.get(server.url + "/")
    browser.find_element(By.ID, "seed").send_keys("5")
    assert len(_play(browser, "tournament", 1)) == 1
    for _ in range(30):                       # until a trick of the play is over
        if browser.find_elements(By.CSS_SELECTOR, "#table [data-what=previous]"):
            break
        _keep_playing(browser, 1)
    wait = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
    wait.until(lambda b: "heuristic bot" in b.find_element(By.CSS_SELECTOR, "#table [data-what=seats]").text)
    saved = browser.execute_script("return JSON.parse(localStorage.getItem('rook_core.seat'));")
    with server.client() as c:
        view = c.get(f"/games/{saved['game']}/view", headers={"Authorization": "Bearer " + saved["token"]}).json()
    o = view["observation"]
    wait.until(lambda b: b.find_element(By.ID, "board").get_attribute("data-move") == str(view["move"]))

    def text(what: str) -> str:
        return browser.find_element(By.CSS_SELECTOR, f"#table [data-what='{what}']").text

    assert text("seats") == "seats: seat 0: you · seat 1: heuristic bot · seat 2: heuristic bot · seat 3: heuristic bot"
    assert text("bidding") == "bidding: " + ", ".join(f"seat {s} {'pass' if b is None else b}" for s, b in o["bids"])
    last = o["tricks"][-1]
    assert text("previous").startswith(f"previous trick: seat {last['winner']} took it:")
    assert [c[1] for c in last["cards"]] == [e.text for e in browser.find_elements(
        By.CSS_SELECTOR, "#table [data-what=previous] .card")]
    assert [str(c[0]) for c in last["cards"]] == [e.get_attribute("data-seat") for e in browser.find_elements(
        By.CSS_SELECTOR, "#table [data-what=previous] .played")]
    assert [f"seat {s} {c}" for s, c in o["trick"]] == [e.text.strip() for e in browser.find_elements(
        By.CSS_SELECTOR, "#table [data-what=trick] .played")]
    assert text("this hand") == (f"this hand: team 0 {o['points'][0]} points ({o['tricks_won'][0]} tricks), "
                                 f"team 1 {o['points'][1]} points ({o['tricks_won'][1]} tricks)")
    assert text("score") == f"score: team 0 {o['totals'][0]}, team 1 {o['totals'][1]}; playing to {o['target']}"


def test_T34_the_end_of_a_game_reads_as_a_sentence(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """A game that ends (here by its hand limit, T-34's max_hands) says how, not a JSON dump."""
    browser, server = browser_and_server
    with server.client() as c:
        g = c.post("/games", json={"game": "tournament", "seed": 4, "max_hands": 1,
                                   "seats": ["human"] + ["bot:heuristic"] * 3}).json()
        token = c.post(f"/games/{g['game_id']}/seats/0/join").json()["token"]
    browser.get(server.url + "/")
    browser.execute_script("localStorage.setItem('rook_core.seat', JSON.stringify(arguments[0]));",
                           {"game": g["game_id"], "token": token, "owner": g["owner_token"]})
    browser.refresh()
    WebDriverWait(browser, 30).until(lambda b: b.find_element(By.ID, "board").is_displayed())
    _keep_playing(browser, 40)
    status = WebDriverWait(browser, 30).until(
        lambda b: b.find_element(By.ID, "status").text if "Game over" in b.find_element(By.ID, "status").text
        else False)
    assert "{" not in status and ("no winner" in status or "wins" in status), status
