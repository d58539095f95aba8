"""The explorer's HTTP API through Starlette's TestClient: legal and illegal moves, bad
requests (4xx JSON, the server keeps serving), the numbers it shows against
load_strategy and the exact values, hidden information in Play, Ask's examples."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from starlette.testclient import TestClient

import game_def
from analysis.values import StrategyValues
from explorer import create_app, load_run
from explorer.session import DealTracker, PlayGame, random_layout
from solver import load_strategy

from explorer_runs import exact_run, longer_run, mccfr_run, mccfr_run_with_visits  # noqa: F401

LAYOUT = ["Robin", "Deputy", "Sheriff", "Companion", "Peasant", "Traitor"]


@pytest.fixture(scope="module")
def run(exact_run):  # noqa: F811
    return load_run(exact_run)


@pytest.fixture(scope="module")
def client(run):
    return TestClient(create_app(run))


def browse(client, actions, layout=LAYOUT, seed=0):
    r = client.post("/api/browse", json={"layout": layout, "actions": actions, "seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


def error(response, status, *words):
    assert response.status_code == status, response.text
    message = response.json()["error"]
    for w in words:
        assert w in message, message
    return message


def test_run_description(client):
    info = client.get("/api/run").json()
    assert info["kind"] == "exact" and info["variant"] == "duel6:max_turns=2"
    assert info["positions"] == 6 and info["traitors"] == 1


def test_browse_shows_load_strategys_probabilities_and_the_exact_values(client, exact_run):  # noqa: F811
    policy = load_strategy(exact_run)
    values = StrategyValues.from_run(exact_run)
    rng = random.Random(4)
    actions: list[str] = []
    steps = 0
    while True:
        v = browse(client, actions)
        state = game_def.play(policy.game, *v["actions"])
        assert state.history() == game_def.play(policy.game, *v["actions"]).history()
        if v["decision"] is None:
            assert state.is_terminal() and v["board"]["over"]
            break
        want = policy.action_probabilities(state)
        exact = values.situation(state.history())
        shown = v["decision"]
        assert {a["id"]: a["prob"] for a in shown["actions"]} == pytest.approx(want, abs=1e-15)
        assert {a["id"]: a["ev"] for a in shown["actions"]} == pytest.approx(
            exact.action_values, abs=1e-15)
        assert shown["reach"] == pytest.approx(exact.reach, abs=1e-15)
        assert shown["info_state"] == state.information_state_string()
        weights = [a["prob"] for a in shown["actions"]]
        actions = v["actions"] + [rng.choices([a["text"] for a in shown["actions"]], weights)[0]]
        steps += 1
    assert steps >= 3


def test_illegal_moves_and_malformed_requests_get_4xx_and_the_server_keeps_serving(client):
    error(client.post("/api/browse", json={"layout": LAYOUT, "actions": ["peek 5"]}), 409,
          "'peek 5' is not legal", "peek 0")
    error(client.post("/api/browse", json={"layout": LAYOUT, "actions": ["fly"]}), 409, "fly")
    error(client.post("/api/browse", json={"layout": LAYOUT,
                                           "actions": ["peek 0", "deal Sheriff"]}),
          409, "contradicts the deal", "Robin")
    error(client.post("/api/browse", content=b"{not json"), 400, "not JSON")
    error(client.post("/api/browse", json=[1, 2]), 400, "JSON object")
    error(client.post("/api/browse", json={"actions": []}), 400, "layout is missing")
    error(client.post("/api/browse", json={"layout": LAYOUT, "actions": "peek 0"}), 400,
          "list of action strings")
    error(client.post("/api/browse", json={"layout": LAYOUT, "actions": [3]}), 400,
          "an action is a string")
    error(client.post("/api/browse", json={"layout": LAYOUT[:-1], "actions": []}), 400,
          "6 character names")
    error(client.post("/api/browse", json={"layout": ["Robin"] * 5 + ["Traitor"]}), 400,
          "exactly the deck")
    error(client.post("/api/browse", json={"layout": ["Traitor"] + LAYOUT[:-1]}), 400,
          "Traitor starts face up at the last position")
    error(client.post("/api/browse", json={"layout": LAYOUT[:-1] + ["Robinn"]}), 400,
          "unknown character 'Robinn'")
    error(client.post("/api/browse", json={"layout": LAYOUT, "seed": "x"}), 400, "seed")
    error(client.post("/api/browse", json={"layout": LAYOUT, "colour": 1}), 400, "colour")
    error(client.get("/api/deal?seed=abc"), 400, "seed")
    error(client.get("/api/nothing"), 404, "no such endpoint")
    error(client.get("/api/browse"), 405)
    # still serving
    assert browse(client, [])["decision"]["mover"] == 0


def test_the_deal_is_followed_through_shuffles_and_swaps(run):
    """Rounds on random deals, Deputy shuffles included: every card dealt is the card
    the tracked deal holds at that position, at the end of every round."""
    rng = random.Random(0)
    shuffles = 0
    for i in range(300):
        layout = random_layout(run.variant, rng)
        tracker = DealTracker(layout, seed=i)
        state = run.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                shuffles += "shuffle" in state.action_to_string(-1, tracker.chance_outcome(state))
                tracker.advance(state)
                continue
            tracker.apply(state, rng.choice(state.legal_actions()))
        for pos, card in enumerate(state.cards):
            if card is not None:
                assert tracker.layout[pos] == card
        assert sorted(tracker.layout) == sorted(layout)
    assert shuffles > 10


def test_play_hides_what_the_human_cannot_see_and_reviews_every_decision(client, run):
    r = client.post("/api/play", json={"seat": 0, "match": False, "seed": 5})
    assert r.status_code == 200, r.text
    gid, v = r.json()["id"], r.json()["view"]
    decisions = 0
    while not v["round_over"]:
        text = json.dumps(v)
        assert "layout" not in text and '"prob"' not in text  # no deal, no hints
        assert '"seed"' not in text  # the seed would give the deal away
        for p in v["board"]["positions"]:
            assert p["hidden"] is None
            if p["holding"] is not None:
                assert v["board"]["actor"] == v["seat"]
        error(client.post(f"/api/play/{gid}/move", json={"action": "fly"}), 409, "not legal")
        error(client.post(f"/api/play/{gid}/move", json={}), 400, "action")
        move = v["decision"]["actions"][0]["text"]
        v = client.post(f"/api/play/{gid}/move", json={"action": move}).json()
        decisions += 1
    review = v["reveal"]["review"]
    assert len(review) == decisions
    for x in review:
        assert sum(a["prob"] for a in x["actions"]) == pytest.approx(1)
        assert x["cost"] == pytest.approx(x["strategy_ev"] - x["chosen_ev"])
        chosen = [a for a in x["actions"] if a["chosen"]]
        assert len(chosen) == 1 and chosen[0]["text"] == x["chosen"]
    # the revealed actions replay the round, and its deal is the one revealed
    state = game_def.play(run.game, *v["reveal"]["actions"])
    assert state.is_terminal()
    for pos, card in enumerate(state.cards):
        assert card is None or card == v["reveal"]["final_layout"][pos]
    error(client.post(f"/api/play/{gid}/move", json={"action": "peek 0"}), 409, "round is over")
    error(client.post(f"/api/play/{gid}/next"), 409, "single round")
    error(client.get("/api/play/nope"), 404, "no game")
    error(client.post("/api/play", json={"seat": 2}), 400, "seat")
    error(client.post("/api/play", json={"match": "yes"}), 400, "match")


def test_a_best_of_three_match_is_played_to_its_end(longer_run):  # noqa: F811
    run = load_run(longer_run)
    decided = 0
    for seed in range(3):
        game = PlayGame(run, human_seat=1, match=True, seed=seed)
        starters = []
        while True:
            starters.append(game.current.human_seat)
            while not game.round_over:
                game.move(game.view()["decision"]["actions"][-1]["text"])
            if game.over:
                break
            last = game.current
            winner = int(last.state.core_state[14])  # S_WINNER
            game.next_round()
            if winner >= 0:  # the loser starts the next round (seat 0 starts)
                assert (game.current.human_seat == 0) == (winner != last.human_seat)
        v = game.view()
        assert v["over"] and (max(v["wins"].values()) == 2 or len(game.rounds) == 20)
        assert v["match_result"]
        decided += max(v["wins"].values()) == 2
    assert decided >= 2


def test_ask_tables_match_the_statistics_and_examples_open_where_they_apply(client, run):
    from explorer.ask import statistics

    data = client.get("/api/ask").json()
    tables = {t["id"]: t for t in data["tables"]}
    matrix = statistics(run).announcement_matrix()
    t = tables["announcement_matrix"]
    opened = 0
    for row in t["rows"]:
        peeked = row["index"][0]
        for j, col in enumerate(t["columns"]):
            want = matrix.loc[peeked, col]
            assert row["values"][j] == pytest.approx(want, nan_ok=True)
            for ex in row["examples"][j]:
                v = browse(client, ex["actions"], ex["layout"], ex["seed"])
                b = v["board"]
                held = [p for p in b["positions"] if p["peeked"]]
                assert len(held) == 1 and held[0]["hidden"] == peeked, (peeked, ex)
                assert v["decision"]["actions"][0]["text"] == "silent" or \
                    v["decision"]["actions"][0]["text"].startswith("announce")
                opened += 1
    assert opened > 5
    assert {"bluff_rates", "challenge_rates_by_strikes", "outcomes"} <= set(tables)


def test_mccfr_runs_show_the_tables_probabilities_and_visits_or_na(mccfr_run, mccfr_run_with_visits):  # noqa: F811
    from solver.players.agents import load_table_agent
    from solver.players.lookup import TableLookup

    layout = ["Sheriff", "Robin", "Peasant", "Traitor"]
    for run_dir, visits in ((mccfr_run, False), (mccfr_run_with_visits, True)):
        client = TestClient(create_app(run_dir))
        assert client.get("/api/run").json()["kind"] == "mccfr"
        policy = load_strategy(run_dir)
        lookup = TableLookup(load_table_agent(run_dir), run_dir)
        for actions in ([], ["peek 1"], ["peek 1", "deal Robin", "announce Robin"]):
            v = browse(client, actions, layout)
            state = game_def.play(policy.game, *v["actions"])
            d = v["decision"]
            assert {a["id"]: a["prob"] for a in d["actions"]} == pytest.approx(
                policy.action_probabilities(state), abs=1e-12)
            assert all(a["ev"] is None for a in d["actions"]) and d["reach"] is None
            if visits:
                e = lookup.entry(state)
                assert e >= 0 and d["entry"] == e
                assert d["visits"] == 1000 * state.current_player() + e + 1
            else:       # the trainer's own counts (table format 2)
                e = lookup.entry(state)
                with np.load(run_dir / "table.npz") as data:
                    trained = data[f"seat{state.current_player()}_visits"]
                assert d["visits"] == (trained[e] if e >= 0 else 0) > 0
            # who moved: the table where the entry has the run's learned threshold
            # of updates (1,000 at a turn or a power), the baiter's rules (the default
            # fallback) where it has fewer
            claims = state.core_state[game_def.kernels.S_PHASE] in (
                game_def.kernels.PH_AFTER_PEEK, game_def.kernels.PH_RESPOND)
            threshold = load_table_agent(run_dir).min_visits if claims else 1000
            learned = d["entry"] >= 0 and d["visits"] >= threshold
            assert d["played_by"] == ("table" if learned else "baiter"), (d, threshold)


def test_the_designer_chooses_the_deputys_shuffle_and_the_deal_follows_it(client):
    # LAYOUT: Robin, Deputy, Sheriff, Companion, Peasant, Traitor
    start = ["peek 1", "deal Deputy", "announce Deputy", "pass", "pick 0", "pick 2"]
    for outcome, at0, at2 in (("shuffle keep", "Robin", "Sheriff"),
                              ("shuffle swap", "Sheriff", "Robin")):
        v = browse(client, start + [outcome])
        assert v["actions"][len(start)] == outcome
        hidden = [p["hidden"] for p in v["board"]["positions"]]
        assert (hidden[0], hidden[2]) == (at0, at2)
        # peeking there later deals the card the shuffle put there
        nxt = browse(client, v["actions"] + ["peek 0"])
        assert nxt["actions"][-1] == f"deal {at0}"


def test_play_against_the_searching_ai(mccfr_run, client):  # noqa: F811
    """The AI with play-time search plays whole legal rounds through the API, its moves
    are search_action's for the same draws (the same seed replays the round), and an
    exact run or a malformed flag is refused with a 4xx."""
    search_client = TestClient(create_app(mccfr_run))
    for seat in (0, 1):
        r = search_client.post("/api/play", json={"seat": seat, "seed": 5, "search": True})
        assert r.status_code == 200, r.text
        gid, v = r.json()["id"], r.json()["view"]
        assert v["search"] is True
        moves = []
        while v["decision"]:
            text = random.Random(len(moves)).choice(v["decision"]["actions"])["text"]
            moves.append(text)
            r = search_client.post(f"/api/play/{gid}/move", json={"action": text})
            assert r.status_code == 200, r.text
            v = r.json()
        assert v["round_over"]
        again = search_client.post("/api/play", json={"seat": seat, "seed": 5,
                                                        "search": True}).json()
        gid2, v2 = again["id"], again["view"]
        for text in moves:
            v2 = search_client.post(f"/api/play/{gid2}/move", json={"action": text}).json()
        assert v2["log"] == v["log"]
    error(search_client.post("/api/play", json={"seat": 0, "search": "yes"}), 400, "search")
    error(client.post("/api/play", json={"seat": 0, "search": True}), 400, "exact")


def _wait_for(client, job_id, seconds=240):
    import time

    deadline = time.monotonic() + seconds
    while True:
        view = client.get(f"/api/lock/{job_id}").json()
        if view["state"] != "running" or time.monotonic() > deadline:
            return view
        time.sleep(0.2)


def test_a_decision_locked_from_browse_is_re_solved_in_the_background(client, run):
    """Lock 'always challenge a Sheriff claim here': the re-solve runs in the background,
    its strategy here is the lock, and its values and shift come back."""
    responds = browse(client, ["peek 0", "announce Sheriff"])
    assert {a["text"] for a in responds["decision"]["actions"]} == {"challenge", "pass"}
    r = client.post("/api/lock", json={"layout": LAYOUT, "actions": ["peek 0",
                                                                     "announce Sheriff"],
                                       "seed": 0, "probs": {"challenge": 1, "pass": 0}})
    assert r.status_code == 200, r.text
    started = r.json()
    assert started["lock"] == ("respond claim=Sheriff seat=1 strikes=0 turn=1: "
                               "challenge=1 pass=0")
    done = _wait_for(client, started["id"])
    assert done["state"] == "done", done
    assert done["here"] == {"challenge": 1.0, "pass": 0.0}
    assert done["fixed"] >= 1 and len(done["values"]) == 2
    assert done["value_shift"][0] == pytest.approx(-done["value_shift"][1])
    # An announcement: keep quiet with a peeked Robin half the time.
    r = client.post("/api/lock", json={"layout": LAYOUT, "actions": ["peek 0"], "seed": 0,
                                       "probs": {"silent": 0.5, "announce Robin": 0.5}})
    assert r.status_code == 200, r.text
    assert r.json()["lock"].startswith("announce peeked=Robin seat=0 strikes=0 turn=1: ")
    done = _wait_for(client, r.json()["id"])
    assert done["state"] == "done", done
    assert done["here"]["silent"] == pytest.approx(0.5)
    assert done["here"]["announce Robin"] == pytest.approx(0.5)


def test_bad_locks_from_browse_are_4xx(client):
    body = {"layout": LAYOUT, "actions": ["peek 0", "announce Sheriff"], "seed": 0}
    error(client.post("/api/lock", json={**body, "probs": {"challenge": 0.5}}), 400,
          "sum to 0.5")
    error(client.post("/api/lock", json={**body, "probs": {"fold": 1}}), 400,
          "not legal here")
    error(client.post("/api/lock", json={**body, "actions": [], "probs": {"peek 0": 1}}),
          400, "only announcements and responses")
    error(client.post("/api/lock", json={**body, "probs": {}}), 400, "send probs")
    error(client.get("/api/lock/99"), 404, "no re-solve")
