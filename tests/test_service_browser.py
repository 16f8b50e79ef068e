"""The browser table of ``rook serve``, driven end to end in headless Chromium
(Debian's ``chromium`` and ``chromium-driver``, which ``.ci/run`` installs)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time

import pytest
from _server import Server, bearer
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
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


def _open(browser: webdriver.Chrome, server: Server, game: str, until, seed: int = 5,  # type: ignore[no-untyped-def]
          pick=lambda view: view["legal"][0]) -> tuple[dict, str]:
    """Create ``game`` (seat 0 a person, bots elsewhere), play seat 0 through the API with
    ``pick`` until ``until(view)``, then open that game on the page; return the view and the token."""
    with server.client() as c:
        g = c.post("/games", json={"game": game, "seed": seed, "seats": ["human"] + ["bot:heuristic"] * 3}).json()
        token = c.post(f"/games/{g['game_id']}/seats/0/join").json()["token"]
        for _ in range(200):
            view = c.get(f"/games/{g['game_id']}/view", headers=bearer(token)).json()
            if until(view):
                break
            assert view["legal"], "the game ended before the position asked for"
            c.post(f"/games/{g['game_id']}/actions", headers=bearer(token),
                   json={"action": pick(view), "move": view["move"]}).raise_for_status()
    browser.get(server.url + "/")
    browser.execute_script("localStorage.setItem('rook_core.seat', JSON.stringify(arguments[0]));",
                           {"game": g["game_id"], "token": token, "owner": g["owner_token"]})
    browser.refresh()
    WebDriverWait(browser, 30).until(lambda b: b.find_element(By.ID, "board").get_attribute("data-move")
                                     == str(view["move"]))
    return view, token


def _seat_actions(server: Server, game_id: str, seat: int, since: int) -> list[str]:
    db = sqlite3.connect(server.db)
    try:
        return [a for (a,) in db.execute("SELECT action FROM actions WHERE game_id = ? AND seat = ? AND n >= ? "
                                         "ORDER BY n", (game_id, seat, since))]
    finally:
        db.close()


def test_a_double_click_plays_one_card(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """The second click of a double click lands on the button the answer put in the same place:
    it must not play a second card."""
    browser, server = browser_and_server
    view, _ = _open(browser, server, "tournament",
                    lambda v: v["observation"]["phase"] == "play" and v["observation"]["tricks"] and v["legal"])
    button = browser.find_elements(By.CSS_SELECTOR, "#legal button")[0]
    ActionChains(browser).move_to_element(button).click().pause(0.3).click().perform()
    WebDriverWait(browser, 30).until(lambda b: int(b.find_element(By.ID, "board").get_attribute("data-move"))
                                     > view["move"])
    time.sleep(1)
    assert _seat_actions(server, view["game_id"], 0, view["move"]) == [view["legal"][0]]


def test_a_keyboard_player_goes_on_from_the_action_buttons(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """After a move made with the keyboard, the focus is on the new actions, not back at the page's top."""
    browser, server = browser_and_server
    view, _ = _open(browser, server, "tournament", lambda v: bool(v["legal"]))
    browser.find_elements(By.CSS_SELECTOR, "#legal button")[0].send_keys(Keys.ENTER)
    for _ in range(2):
        wait = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
        wait.until(lambda b, m=view["move"]: int(b.find_element(By.ID, "board").get_attribute("data-move")) > m
                   and b.find_elements(By.CSS_SELECTOR, "#legal button"))
        focused = browser.switch_to.active_element
        assert focused.tag_name == "button" and focused.find_element(By.XPATH, "..").get_attribute("id") == "legal"
        view["move"] = int(browser.find_element(By.ID, "board").get_attribute("data-move"))
        ActionChains(browser).send_keys(Keys.ENTER).perform()      # to the focused button
    WebDriverWait(browser, 30).until(lambda b: len(_seat_actions(server, view["game_id"], 0, 0)) >= 3)


def test_a_refused_move_shows_the_game_as_it_is_now(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """A move the server refuses as stale (409) says so, and the page shows the game's
    present position at once, not the old buttons until the next poll."""
    browser, server = browser_and_server
    view, token = _open(browser, server, "tournament", lambda v: bool(v["legal"]))
    browser.execute_script("clearInterval(timer);")          # no poll: only the refusal may redraw
    with server.client() as c:                               # the seat moves elsewhere (another tab)
        now = c.post(f"/games/{view['game_id']}/actions", headers=bearer(token),
                     json={"action": view["legal"][0], "move": view["move"]}).json()
    browser.find_elements(By.CSS_SELECTOR, "#legal button")[-1].click()
    WebDriverWait(browser, 30).until(lambda b: b.find_element(By.ID, "board").get_attribute("data-move")
                                     == str(now["move"]))
    error = browser.find_element(By.ID, "error").text
    assert "refused" in error and "stale move" in error
    assert [b.get_attribute("data-action") for b in browser.find_elements(By.CSS_SELECTOR, "#legal button")] \
        == now["legal"]


def test_the_table_shows_the_nest_the_discards_and_the_passed_cards(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """house-180's nest lies face up once the bidding is over (H-5); the declarer sees the nest
    it took and its discards; in partnership-57's pass phase the page asks for a card to pass and
    shows those passed; while the bidding goes on the high bid is not called the contract."""
    browser, server = browser_and_server

    def cards(what: str) -> list[str]:
        return [e.text for e in browser.find_elements(By.CSS_SELECTOR, f"#table [data-what='{what}'] .card")]

    def pick(v: dict) -> str:
        return "pass" if "pass" in v["legal"] else v["legal"][0]

    view, _ = _open(browser, server, "house-180", lambda v: v["observation"].get("nest")
                    and v["observation"]["declarer"] != 0, seed=7, pick=pick)
    assert cards("nest") == view["observation"]["nest"]

    view, _ = _open(browser, server, "tournament", lambda v: v["observation"]["phase"] == "bid"
                    and v["observation"]["high_bid"] and v["legal"], pick=pick)
    assert not browser.find_elements(By.CSS_SELECTOR, "#table [data-what=contract]")
    assert f"with {view['observation']['high_bid']}" in browser.find_element(
        By.CSS_SELECTOR, "#table [data-what='high bid']").text

    def bid_high(v: dict) -> str:
        return [a for a in v["legal"] if a.startswith("bid")][-1] if v["observation"]["phase"] == "bid" \
            else v["legal"][0]

    view, _ = _open(browser, server, "tournament", lambda v: v["observation"]["phase"] == "nest"
                    and len(v["observation"]["discarded"]) == 2, seed=11, pick=bid_high)
    o = view["observation"]
    assert cards("nest") == o["nest"] and cards("your discards") == o["discarded"]
    assert "3 more cards" in browser.find_element(By.ID, "status").text

    view, _ = _open(browser, server, "partnership-57", lambda v: v["observation"]["phase"] == "pass"
                    and v["observation"].get("passed"), seed=11, pick=bid_high)
    assert cards("you passed") == view["observation"]["passed"]
    assert "pass a card to seat 3" in browser.find_element(By.ID, "status").text


def test_a_long_seed_is_sent_as_typed(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """A seed past 2**53 reaches the server digit for digit, not rounded to a nearby deal."""
    browser, server = browser_and_server
    browser.get(server.url + "/")
    browser.find_element(By.ID, "seed").send_keys("12345678901234567891")
    assert len(_play(browser, "tournament", 1)) == 1
    saved = browser.execute_script("return JSON.parse(localStorage.getItem('rook_core.seat'));")
    db = sqlite3.connect(server.db)
    (spec,) = db.execute("SELECT spec FROM games WHERE id = ?", (saved["game"],)).fetchone()
    db.close()
    assert json.loads(spec)["seed"] == 12345678901234567891


def test_a_reload_while_the_server_cannot_answer_keeps_the_game(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """A reload whose requests fail (the network, a restart, a busy server) neither forgets the game
    nor frees its seat: the page says the server cannot be reached and goes on once it can."""
    browser, server = browser_and_server
    view, token = _open(browser, server, "tournament", lambda v: bool(v["legal"]))
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/view*"]})
    try:
        browser.refresh()
        WebDriverWait(browser, 30).until(lambda b: "cannot be reached" in b.find_element(By.ID, "error").text)
        time.sleep(2)
        saved = browser.execute_script("return JSON.parse(localStorage.getItem('rook_core.seat'));")
        assert saved and saved["game"] == view["game_id"] and saved["token"] == token
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    WebDriverWait(browser, 30).until(lambda b: b.find_element(By.ID, "board").get_attribute("data-move")
                                     == str(view["move"]) and b.find_element(By.ID, "error").text == "")
    with server.client() as c:                    # the seat was never freed: its token still works
        assert c.get(f"/games/{view['game_id']}/view", headers=bearer(token)).status_code == 200


def test_the_table_goes_on_after_the_server_restarts(browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """While the server is down the page says it cannot reach it, in words; once the server is
    back on the same file, the message goes and the game goes on where it was."""
    browser, server = browser_and_server
    view, _ = _open(browser, server, "tournament", lambda v: bool(v["legal"]))
    server.stop()
    try:
        WebDriverWait(browser, 30).until(lambda b: "cannot be reached" in b.find_element(By.ID, "error").text)
    finally:
        server.proc = Server(server.db, port=server.port).proc        # the same server, started again
    WebDriverWait(browser, 30).until(lambda b: b.find_element(By.ID, "error").text == "")
    assert browser.find_element(By.ID, "board").get_attribute("data-move") == str(view["move"])
    _keep_playing(browser, 1)
    assert int(browser.find_element(By.ID, "board").get_attribute("data-move")) > view["move"]



def test_a_move_typed_as_its_text_is_played_and_a_bad_one_is_refused_by_name(
        browser_and_server) -> None:  # type: ignore[no-untyped-def]
    """The field under the buttons sends any move as its text: what a Toonerville
    lay-down needs when the buttons list only some of the ways to lay."""
    browser, server = browser_and_server
    browser.get(server.url + "/")
    Select(browser.find_element(By.ID, "players")).select_by_visible_text("3")
    browser.find_element(By.ID, "seed").send_keys("1")
    Select(browser.find_element(By.ID, "game")).select_by_value("toonerville")
    browser.find_element(By.ID, "start").click()
    wait = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#legal button"))
    field = browser.find_element(By.ID, "typed-action")
    field.send_keys("fly", Keys.ENTER)
    wait.until(lambda b: "fly was refused" in b.find_element(By.ID, "error").text)
    assert field.get_attribute("value") == "fly"                 # kept, to be corrected
    before = browser.find_element(By.ID, "board").get_attribute("data-move")
    action = browser.find_element(By.CSS_SELECTOR, "#legal button").get_attribute("data-action")
    field.clear()
    field.send_keys(action, Keys.ENTER)
    wait.until(lambda b: b.find_element(By.ID, "board").get_attribute("data-move") != before)
    assert browser.find_element(By.ID, "error").text == "" and field.get_attribute("value") == ""
