"""The explorer in a real browser (Debian's Chromium driven by Selenium): a round clicked
through on a reduced deck with the displayed probabilities checked against
load_strategy's, a whole best-of-3 match played against the AI, an MCCFR run loaded, a
three-player run browsed and a round played in one of its seats; no console errors. Screenshots go to a temporary folder, so a test run leaves the work
tree as it was; `make screenshots` writes them to docs/explorer.png and docs/play.png
(ROBINWOOD_SCREENSHOTS names the folder).

Chromium and its driver come from Debian (`make test` installs them when they are
missing, through `make browser-deps`); without them these tests fail saying so."""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import socket
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
import uvicorn

import game_def
from analysis.values import StrategyValues
from explorer import create_app
from solver import load_strategy

from explorer_runs import exact_run, longer_run, mccfr_run, table3_run  # noqa: F401

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1360,1000")
LAYOUT = ["Sheriff", "Companion", "Robin", "Peasant", "Deputy", "Traitor"]


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory) -> Path:
    """Where the screenshots go: $ROBINWOOD_SCREENSHOTS (`make screenshots` sets it to
    docs/), else a temporary folder."""
    folder = os.environ.get("ROBINWOOD_SCREENSHOTS")
    if not folder:
        return tmp_path_factory.mktemp("screenshots")
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _require_chromium():
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(f"the browser test needs Debian's Chromium and its driver "
                    f"({', '.join(missing)} missing): `make test` installs them as root; "
                    f"otherwise run `sudo apt-get install -y chromium chromium-driver`",
                    pytrace=False)


@contextlib.contextmanager
def serving(run_dir):
    """The explorer on a free local port, in this process (uvicorn in a thread)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(run_dir)
    # compile the kernels a first request needs before the browser waits for it
    from explorer.session import browse_view, random_layout
    run = app.state.run
    layout = random_layout(run.variant, __import__("random").Random(0))
    browse_view(run, layout, ["peek 0"])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started:
        if time.time() > deadline:
            raise RuntimeError("the explorer did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def browser():
    _require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="robinwood-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait(driver, css, timeout=60):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(
        ec.presence_of_element_located((By.CSS_SELECTOR, css)))


def wait_for(driver, condition, timeout=60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def no_console_errors(driver):
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def shown_probability(p: float) -> str:
    """The front end's formatting (app.js fmtProb)."""
    if p >= 0.001 or p == 0:
        return f"{100 * p:.1f}%"
    mantissa, exponent = f"{p:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def shown_value(x: float) -> str:
    """app.js signed(): +0.123, −0.123, and 0.000 for what rounds to zero."""
    if abs(x) < 0.0005:
        return "0.000"
    return ("+" if x >= 0 else "−") + f"{abs(x):.3f}"


def screenshot(driver, path):
    """A screenshot without focus rings or hover effects (the same picture every run)."""
    driver.execute_script("document.activeElement && document.activeElement.blur();")
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(driver).move_to_element_with_offset(
        driver.find_element("tag name", "body"), 0, 0).perform()
    driver.save_screenshot(str(path))


def renders_so_far(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.playRenders || 0"))


def browse_state(driver) -> dict:
    href = driver.find_element("id", "b-link").get_attribute("href")
    return json.loads(urllib.parse.unquote(href.split("#browse=", 1)[1]))


def test_a_round_clicked_through_shows_load_strategys_probabilities(browser, exact_run,
                                                                    screenshots):  # noqa: F811
    from selenium.webdriver.common.by import By

    policy = load_strategy(exact_run)
    values = StrategyValues.from_run(exact_run)
    link = json.dumps({"layout": LAYOUT, "seed": 3, "actions": []})
    with serving(exact_run) as url:
        browser.get(url + "#browse=" + urllib.parse.quote(link))
        wait(browser, "#b-actions tr.act")
        checked = 0
        for step in range(40):
            state_json = browse_state(browser)
            assert state_json["layout"] == LAYOUT
            state = game_def.play(policy.game, *state_json["actions"])
            if state.is_terminal():
                break
            want = policy.action_probabilities(state)
            exact = values.situation(state.history())
            rows = browser.find_elements(By.CSS_SELECTOR, "#b-actions tr.act")
            assert len(rows) == len(want)
            for row in rows:
                a = game_def.apply_action_string(state.clone(), row.get_attribute("data-action"))
                assert float(row.get_attribute("data-prob")) == pytest.approx(want[a], abs=1e-12)
                assert row.find_element(By.CSS_SELECTOR, ".prob").text == shown_probability(want[a])
                assert row.find_element(By.CSS_SELECTOR, ".ev").text == \
                    shown_value(exact.action_values[a])
            checked += 1
            if step == 1:
                screenshot(browser, screenshots / "explorer.png")
            # click the action the strategy likes best (the round goes on as it plays)
            best = max(rows, key=lambda r: float(r.get_attribute("data-prob")))
            before = len(state_json["actions"])
            best.click()
            wait_for(browser, lambda d: len(browse_state(d)["actions"]) > before)
        assert checked >= 3 and state.is_terminal()
        wait(browser, "#b-decision .result")
        # back and forward walk the same states
        browser.find_element(By.ID, "b-back").click()
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#b-actions tr.act"))
        browser.find_element(By.ID, "b-forward").click()
        wait(browser, "#b-decision .result")
        # the link to this state keeps it (and its history); a link to another opens it
        browser.find_element(By.ID, "b-link").click()
        assert browser.find_element(By.ID, "b-back").is_enabled()
        other = json.dumps({"layout": LAYOUT, "seed": 3, "actions": ["peek 1"]})
        browser.get(url + "#browse=" + urllib.parse.quote(other))
        wait_for(browser, lambda d: browse_state(d)["actions"] == ["peek 1", "deal Companion"])
        no_console_errors(browser)
        # a bad request is a message on the page, not a broken page
        browser.execute_script("B.layout = ['Robin']; document.querySelector('#b-start').click();")
        toast = wait(browser, "#toast:not(.hidden)")
        assert "character names" in toast.text
        logged = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert len(logged) == 1 and "/api/browse" in logged[0] and "400" in logged[0], logged


def test_a_whole_match_against_the_ai(browser, longer_run, screenshots):  # noqa: F811
    from selenium.webdriver.common.by import By

    with serving(longer_run) as url:
        browser.get(url + "?seed=30")  # the same match (and screenshot) every run
        wait(browser, "#b-actions tr.act")
        browser.find_element(By.CSS_SELECTOR, "[data-tab=play]").click()
        browser.find_element(By.CSS_SELECTOR, "input[name=p-mode][value=match]").click()
        browser.find_element(By.ID, "p-start").click()
        rounds, moves = 0, 0
        for _ in range(400):
            wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#p-moves button, #p-result"))
            buttons = browser.find_elements(By.CSS_SELECTOR, "#p-moves button")
            if buttons:
                # a hidden card's identity never reaches the page while the round is on
                for card in browser.find_elements(By.CSS_SELECTOR, "#p-board .card.down"):
                    assert card.get_attribute("data-hidden") == ""
                renders = renders_so_far(browser)
                buttons[moves % len(buttons)].click()
                moves += 1
                wait_for(browser, lambda d: renders_so_far(d) > renders)
                continue
            rounds += 1
            review = browser.find_element(By.ID, "p-review")
            assert review.is_displayed() and "Review" in review.text
            if browser.find_elements(By.ID, "p-match-result"):
                break
            renders = renders_so_far(browser)
            browser.find_element(By.ID, "p-next").click()
            wait_for(browser, lambda d: renders_so_far(d) > renders)
        result = browser.find_element(By.ID, "p-match-result").text
        assert result in ("You won the match", "The AI won the match", "The match is drawn")
        you = int(browser.find_element(By.ID, "p-wins-you").text)
        ai = int(browser.find_element(By.ID, "p-wins-ai").text)
        assert max(you, ai) == 2 or rounds == 20
        assert rounds >= 2 and moves >= rounds
        # the whole page: the revealed board, the result and the review
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(1360, min(max(height + 160, 1000), 2400))
        screenshot(browser, screenshots / "play.png")
        browser.set_window_size(1360, 1000)
        no_console_errors(browser)


def test_an_mccfr_run_loads_with_its_probabilities(browser, mccfr_run):  # noqa: F811
    from selenium.webdriver.common.by import By

    policy = load_strategy(mccfr_run)
    link = json.dumps({"layout": ["Robin", "Peasant", "Sheriff", "Traitor"], "actions": ["peek 0"]})
    with serving(mccfr_run) as url:
        browser.get(url + "#browse=" + urllib.parse.quote(link))
        wait(browser, "#b-actions tr.act")
        assert "Monte Carlo CFR" in browser.find_element(By.ID, "run-info").text
        state = game_def.play(policy.game, *browse_state(browser)["actions"])
        want = policy.action_probabilities(state)
        rows = browser.find_elements(By.CSS_SELECTOR, "#b-actions tr.act")
        for row in rows:
            a = game_def.apply_action_string(state.clone(), row.get_attribute("data-action"))
            assert float(row.get_attribute("data-prob")) == pytest.approx(want[a], abs=1e-12)
            assert row.find_element(By.CSS_SELECTOR, ".prob").text == shown_probability(want[a])
            assert not row.find_elements(By.CSS_SELECTOR, ".ev")
        # the trainer's visit count of the entry this decision reads
        from solver.players.agents import load_table_agent
        from solver.players.lookup import TableLookup

        visits = TableLookup(load_table_agent(mccfr_run), mccfr_run).visit_count(state)
        text = browser.find_element(By.ID, "b-decision").text
        assert visits > 0 and f"{visits:,}" in text and "n/a" not in text
        assert math.isclose(sum(want.values()), 1.0)
        no_console_errors(browser)


def test_a_round_against_the_searching_ai(browser, mccfr_run, exact_run):  # noqa: F811
    from selenium.webdriver.common.by import By

    with serving(exact_run) as url:   # an exact strategy is played as solved
        browser.get(url)
        wait(browser, "#b-actions tr.act")
        assert not browser.find_element(By.ID, "p-search").is_enabled()
    with serving(mccfr_run) as url:
        browser.get(url + "?seed=3")
        wait(browser, "#b-actions tr.act")
        browser.find_element(By.CSS_SELECTOR, "[data-tab=play]").click()
        box = browser.find_element(By.ID, "p-search")
        assert box.is_enabled()
        box.click()
        browser.find_element(By.ID, "p-start").click()
        for moves in range(200):
            wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR,
                                                        "#p-moves button, #p-result"))
            buttons = browser.find_elements(By.CSS_SELECTOR, "#p-moves button")
            if not buttons:
                break
            renders = renders_so_far(browser)
            buttons[moves % len(buttons)].click()
            wait_for(browser, lambda d: renders_so_far(d) > renders)
        assert browser.find_element(By.ID, "p-review").is_displayed()
        assert browser.find_element(By.ID, "p-searching").text == "the AI searches"
        no_console_errors(browser)


def test_a_decision_locked_in_browse_is_re_solved_and_shown(browser, exact_run):  # noqa: F811
    """Browse: open 'Lock this decision', keep quiet with the peeked Sheriff, re-solve;
    the answer names the lock and shows the re-solved strategy playing it here."""
    from selenium.webdriver.common.by import By

    link = json.dumps({"layout": LAYOUT, "seed": 3, "actions": ["peek 0"]})
    with serving(exact_run) as url:
        browser.get(url + "#browse=" + urllib.parse.quote(link))
        wait(browser, "#b-lock summary").click()
        for box in browser.find_elements(By.CSS_SELECTOR, "#b-lock input.lock-prob"):
            box.clear()
            box.send_keys("1" if box.get_attribute("data-action") == "silent" else "0")
        browser.find_element(By.ID, "b-lock-go").click()
        done = wait(browser, "#b-lock-result .lock-done", timeout=180)
        assert "Locked: announce peeked=Sheriff seat=0 strikes=0 turn=1: silent=1" in done.text
        assert "silent 100.0%" in done.text
        no_console_errors(browser)


def test_a_three_player_run_is_browsed_and_a_round_played_in_one_seat(browser, table3_run,
                                                                      screenshots):  # noqa: F811
    """Three seats on the board, the strategy's probabilities, EVs off with their
    reason; then a round played as seat 1 against two AIs to its end and its result."""
    from selenium.webdriver.common.by import By

    policy = load_strategy(table3_run)
    link = json.dumps({"layout": ["Robin", "Sheriff", "Peasant", "Traitor"], "seed": 1,
                       "actions": ["peek 0", "announce Robin"]})
    with serving(table3_run) as url:
        browser.get(url + "?seed=4#browse=" + urllib.parse.quote(link))
        wait(browser, "#b-actions tr.act")
        seats = browser.find_elements(By.CSS_SELECTOR, "#b-board .seat")
        assert [x.get_attribute("data-seat") for x in seats] == ["0", "1", "2"]
        assert "to-act" in seats[1].get_attribute("class")   # seat 1 answers the claim
        state = game_def.play(policy.game, *browse_state(browser)["actions"])
        want = policy.action_probabilities(state)
        for row in browser.find_elements(By.CSS_SELECTOR, "#b-actions tr.act"):
            a = game_def.apply_action_string(state.clone(), row.get_attribute("data-action"))
            assert row.find_element(By.CSS_SELECTOR, ".prob").text == shown_probability(want[a])
            assert not row.find_elements(By.CSS_SELECTOR, ".ev")
        assert "two-player only" in browser.find_element(By.ID, "b-two-player-only").text
        viewers = browser.find_elements(By.CSS_SELECTOR, "#b-viewer option")
        assert [o.get_attribute("value") for o in viewers] == ["all", "mover", "0", "1", "2"]
        screenshot(browser, screenshots / "explorer-3p.png")
        # Play: seat 1 of 3; the search box is off, saying why
        browser.find_element(By.CSS_SELECTOR, "[data-tab=play]").click()
        radios = browser.find_elements(By.CSS_SELECTOR, "input[name=p-seat]")
        assert [r.get_attribute("value") for r in radios] == ["0", "1", "2"]
        assert not browser.find_element(By.ID, "p-search").is_enabled()
        assert "two-player only" in browser.find_element(By.ID, "p-search-why").text
        radios[1].click()
        browser.find_element(By.ID, "p-start").click()
        moves = 0
        for _ in range(200):
            wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR,
                                                        "#p-moves button, #p-result"))
            buttons = browser.find_elements(By.CSS_SELECTOR, "#p-moves button")
            if not buttons:
                break
            names = [x.find_element(By.CSS_SELECTOR, ".name").text
                     for x in browser.find_elements(By.CSS_SELECTOR, "#p-board .seat")]
            assert names == ["AI 0", "You", "AI 2"]
            for card in browser.find_elements(By.CSS_SELECTOR, "#p-board .card.down"):
                assert card.get_attribute("data-hidden") == ""
            renders = renders_so_far(browser)
            buttons[moves % len(buttons)].click()
            moves += 1
            wait_for(browser, lambda d: renders_so_far(d) > renders)
        result = browser.find_element(By.ID, "p-result").text
        assert result in ("You won the round", "AI 0 won the round", "AI 2 won the round",
                          "A draw"), result
        assert len(browser.find_elements(By.CSS_SELECTOR, "#p-board .seat")) == 3
        tally = browser.find_element(By.ID, "p-tally").text
        assert tally.startswith("You ") and "AI 0" in tally and "draws" in tally
        assert int(browser.find_element(By.ID, "p-wins-you").text) == (
            result == "You won the round")
        assert browser.find_element(By.ID, "p-review").is_displayed()
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(1360, min(max(height + 160, 1000), 2400))
        screenshot(browser, screenshots / "play-3p.png")
        browser.set_window_size(1360, 1000)
        no_console_errors(browser)
