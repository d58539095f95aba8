"""The explorer's HTTP API through Starlette's TestClient: legal and illegal moves, bad
requests (4xx JSON, the server keeps serving), the numbers it shows against
load_strategy and the exact values, hidden information in Play, Ask's examples; and
three and four seats and teams: every seat listed, whole rounds played from every seat,
matches by the rulebook's starter rule, what is two-player only refused."""

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

from explorer_runs import (exact_run, longer_run, mccfr_run,  # noqa: F401
                           mccfr_run_with_visits, table3_run, team_run)

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
            # who moved: the table at a turn or a power whose entry has 1,000 updates,
            # the sound default (the default fallback) at every announcement and
            # response and elsewhere
            claims = state.core_state[game_def.kernels.S_PHASE] in (
                game_def.kernels.PH_AFTER_PEEK, game_def.kernels.PH_RESPOND)
            learned = not claims and d["entry"] >= 0 and d["visits"] >= 1000
            assert d["played_by"] == ("table" if learned else "sound"), d


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


# ----- three and four seats, and teams -----------------------------------------------
TEAM_LAYOUT = ["Innkeeper", "Robin", "Sheriff", "Peasant", "Traitor"]


@pytest.fixture(scope="module")
def table3_client(table3_run):  # noqa: F811
    return TestClient(create_app(table3_run))


@pytest.fixture(scope="module")
def team_client(team_run):  # noqa: F811
    return TestClient(create_app(team_run))


def tables(table3_client, team_client, table3_run, team_run):  # noqa: F811
    """(client, run directory, players, teams) for the three-player and the team run."""
    return ((table3_client, table3_run, 3, None),
            (team_client, team_run, 4, [[0, 2], [1, 3]]))


def test_a_table_run_is_browsed_with_every_seat_and_the_strategys_probabilities(
        table3_client, team_client, table3_run, team_run):  # noqa: F811
    for client, run_dir, players, teams in tables(table3_client, team_client, table3_run,
                                                  team_run):
        info = client.get("/api/run").json()
        assert info["players"] == players and info["teams"] == (teams is not None)
        # beyond two seats the header reads the solve's NashConv, not NashConv / players
        # under the name exploitability (it read the latter before)
        metadata = json.loads((run_dir / "metadata.json").read_text())
        if metadata.get("kind") != "mccfr":
            assert info["nash_conv"] == metadata["nash_conv"]
            assert info["exploitability"] is None
        assert set(info["two_player_only"]) == {"values", "search", "statistics"}
        policy = load_strategy(run_dir)
        rng = random.Random(2)
        movers = set()
        for deal in range(12):
            if deal >= 3 and movers == set(range(players)):
                break
            layout = client.get(f"/api/deal?seed={deal}").json()["layout"]
            actions: list[str] = []
            while True:
                v = browse(client, actions, layout, seed=deal)
                board = v["board"]
                assert len(board["strikes"]) == players == board["players"]
                assert board["teams"] == teams
                assert sorted(v["views"]) == [str(p) for p in range(players)]
                state = game_def.play(policy.game, *v["actions"])
                for p in range(players):   # each seat's board holds what that seat sees
                    view = v["views"][str(p)]
                    assert view["viewer"] == p
                    assert all(x["hidden"] is None for x in view["positions"])
                    assert all(x["holding"] is None for x in view["positions"]) or \
                        p == board["actor"]
                if v["decision"] is None:
                    assert state.is_terminal() and board["over"]
                    assert board["returns"] == pytest.approx(state.returns())
                    break
                d = v["decision"]
                assert d["mover"] == state.current_player()
                movers.add(d["mover"])
                assert {a["id"]: a["prob"] for a in d["actions"]} == pytest.approx(
                    policy.action_probabilities(state), abs=1e-12)
                # EVs and reach are two-player only: none shown, none made up
                assert all(a["ev"] is None for a in d["actions"]) and d["reach"] is None
                # any legal move (not only the strategy's): every seat gets to decide
                actions = v["actions"] + [rng.choice(d["actions"])["text"]]
        assert movers == set(range(players))


def _legal_id(state, text: str) -> int:
    player = state.current_player()
    ids = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
           else state.legal_actions())
    return {state.action_to_string(player, a): a for a in ids}[text]


def _play_round(client, seat: int, seed: int, teams) -> tuple[dict, int]:
    """A round played through the API from `seat` with random legal moves: its last view
    and the human's number of moves; checks what the human sees on the way."""
    r = client.post("/api/play", json={"seat": seat, "seed": seed})
    assert r.status_code == 200, r.text
    gid, v = r.json()["id"], r.json()["view"]
    players = v["players"]
    assert v["seat"] == seat and len(v["board"]["strikes"]) == players
    names = v["names"]
    assert names[str(seat)] == "You" and len(names) == players
    if teams:
        assert names[str((seat + 2) % 4)] == "Partner"
    rng = random.Random(seed)
    moves = 0
    while not v["round_over"]:
        text = json.dumps(v)
        assert "layout" not in text and '"prob"' not in text and '"seed"' not in text
        assert all(p["hidden"] is None for p in v["board"]["positions"])
        assert v["decision"] is not None   # the AIs have played up to the human
        move = rng.choice(v["decision"]["actions"])["text"]
        r = client.post(f"/api/play/{gid}/move", json={"action": move})
        assert r.status_code == 200, r.text
        v = r.json()
        moves += 1
    return v, moves


def test_the_human_plays_a_whole_round_at_every_seat_against_the_strategy(
        table3_client, team_client, table3_run, team_run):  # noqa: F811
    for client, run_dir, players, teams in tables(table3_client, team_client, table3_run,
                                                  team_run):
        policy = load_strategy(run_dir)
        for seat in range(players):
            # the first of a few seeded rounds in which this seat has a decision (the
            # strategy may end a round before a late seat's turn)
            for seed in range(40, 60):
                v, moves = _play_round(client, seat, seed, teams)
                if moves:
                    break
            assert moves >= 1, f"seat {seat} never had a decision"
            # the revealed round replays; every AI move is one the strategy plays
            state = policy.game.new_initial_state()
            human = 0
            for text in v["reveal"]["actions"]:
                a = _legal_id(state, text)
                if not state.is_chance_node():
                    if state.current_player() == seat:
                        human += 1
                    else:
                        assert policy.action_probabilities(state).get(a, 0) > 0, text
                state.apply_action(a)
            assert state.is_terminal() and human == moves == len(v["reveal"]["review"])
            # who won: the human's side (a team shares it), and the tally
            result = v["round_result"]
            returns = state.returns()
            if all(x == 0 for x in returns):
                assert result["you_won"] is None and v["draws"] == 1
            else:
                assert result["you_won"] == (returns[seat] > 0)
                assert len(result["winners"]) == (2 if teams else 1)
            assert len(v["tally"]) == (2 if teams else players)
            assert sum(t["wins"] for t in v["tally"]) + v["draws"] == 1
            mine = [t for t in v["tally"] if t["you"]]
            assert len(mine) == 1 and mine[0]["wins"] == (1 if result["you_won"] else 0)
            if teams:
                assert mine[0]["side"] == "You and Partner"


def test_a_seat_outside_the_table_is_a_400_naming_the_seats(table3_client, team_client):
    error(table3_client.post("/api/play", json={"seat": 3}), 400, "0 to 2", "(got 3)")
    error(table3_client.post("/api/play", json={"seat": -1}), 400, "0 to 2")
    error(table3_client.post("/api/play", json={"seat": "1"}), 400, "seat")
    error(table3_client.post("/api/play", json={"seat": True}), 400, "seat")
    error(team_client.post("/api/play", json={"seat": 4}), 400, "0 to 3")
    error(table3_client.post("/api/play", json={"seat": 0, "search": True}), 400, "exact")
    error(team_client.post("/api/play", json={"seat": 1, "search": True}), 400,
          "two-player only")
    assert table3_client.post("/api/play", json={"seat": 2}).status_code == 200


def test_a_match_at_three_and_four_seats_follows_the_rulebooks_starter(table3_run,
                                                                       team_run):  # noqa: F811
    """docs/rules.md, "The match": the seat left of the player whose turn ended the round
    starts the next (teams: the first player of the losing team from there); the players
    keep their places and the solved game's first seat turns with the starter."""
    for run_dir in (table3_run, team_run):
        run = load_run(run_dir)
        n, teams, first = run.players, run.variant.teams, run.variant.first_player
        for seed in range(2):
            game = PlayGame(run, human_seat=1, match=True, seed=seed)
            rng = random.Random(seed)
            while True:
                assert game.chair_of(game.current.human_seat) == 1
                assert game.names[game.current.human_seat] == "You"
                while not game.round_over:
                    game.move(rng.choice(game.view()["decision"]["actions"])["text"])
                if game.over:
                    break
                s = game.current.state.core_state
                ender = game.chair_of(int(s[game_def.kernels.S_ENDER]))
                winner = int(s[game_def.kernels.S_WINNER])
                won = None if winner < 0 else game.chair_of(winner)
                game.next_round()
                starter = game.chair_of(first)
                if teams and won is not None:
                    order = [(ender + i) % 4 for i in range(1, 5)]
                    assert starter == next(c for c in order if c % 2 != won % 2)
                else:
                    assert starter == (ender + 1) % n
            v = game.view()
            assert v["over"] and v["match_result"]
            assert max(game.side_wins) == 2 or len(game.rounds) == PlayGame.MAX_ROUNDS
            assert sum(t["wins"] for t in v["tally"]) + v["draws"] == len(game.rounds)
            if max(game.side_wins) == 2:
                best = max(v["tally"], key=lambda t: t["wins"])
                assert v["match_result"] == ("Your team won the match" if teams and best["you"]
                                             else "You won the match" if best["you"]
                                             else f"{best['side']} won the match")


def test_ask_at_three_seats_is_the_tables_balance(table3_client, table3_run):  # noqa: F811
    from analysis.table_balance import table_balance_from_run

    data = table3_client.get("/api/ask").json()
    found = {t["id"]: t for t in data["tables"]}
    balance = table_balance_from_run(table3_run)
    seats = found["seats"]
    assert "two-player only" in seats["note"] and data["statistics"].startswith("exact")
    assert [row["index"][0] for row in seats["rows"]] == [0, 1, 2]
    for row in seats["rows"]:
        seat = row["index"][0]
        value, wins, first_out = row["values"]
        assert value == pytest.approx(balance.seat_values[seat], abs=1e-12)
        assert wins == pytest.approx(balance.side_wins[seat], abs=1e-12)
        assert first_out == pytest.approx(balance.first_out[seat], abs=1e-12)
    rates = found["rates"]["rows"][0]["values"]
    want = balance.rates()
    for name, x in zip(found["rates"]["columns"], rates):
        assert x == pytest.approx(want[name], nan_ok=True)


def test_the_innkeepers_signal_reaches_its_team_only(team_client):
    """Seat 0 peeks the Innkeeper, announces it, nobody challenges; it signals 'Robin'
    at 2 (a lie: the Sheriff is there). Its partner (2) sees the signal, seats 1 and 3
    see neither the position nor the name."""
    start = ["peek 0", "announce Innkeeper", "pass", "pass", "pass"]
    v = browse(team_client, start, TEAM_LAYOUT)
    assert v["decision"]["mover"] == 0 and v["decision"]["actions"][0]["text"].startswith("pick")
    named = browse(team_client, start + ["pick 2"], TEAM_LAYOUT)
    assert "name Robin" in [a["text"] for a in named["decision"]["actions"]]
    assert "signal" in named["board"]["phase"] and "2" not in named["board"]["phase"]
    v = browse(team_client, start + ["pick 2", "name Robin"], TEAM_LAYOUT)
    for seat in (0, 2):
        signal = v["views"][str(seat)]["positions"][2]["signal"]
        assert signal == {"seat": 0, "card": "Robin", "stale": False}
    for seat in (1, 3):
        assert all(p["signal"] is None for p in v["views"][str(seat)]["positions"])
        assert "name Robin" not in v["views"][str(seat)]["phase"]


def test_an_mccfr_team_run_shows_its_table_and_refuses_search(team_client, team_run):  # noqa: F811
    from solver.players.agents import load_table_agent
    from solver.players.lookup import TableLookup

    info = team_client.get("/api/run").json()
    assert info["kind"] == "mccfr" and info["players"] == 4 and info["teams"]
    policy = load_strategy(team_run)
    lookup = TableLookup(load_table_agent(team_run), team_run)
    for actions in ([], ["peek 1"], ["peek 1", "deal Robin", "announce Robin"]):
        v = browse(team_client, actions, TEAM_LAYOUT)
        state = game_def.play(policy.game, *v["actions"])
        d = v["decision"]
        assert {a["id"]: a["prob"] for a in d["actions"]} == pytest.approx(
            policy.action_probabilities(state), abs=1e-12)
        assert d["entry"] == lookup.entry(state) and d["visits"] == lookup.visit_count(state)
    assert browse(team_client, ["peek 1", "announce Robin"],
                  TEAM_LAYOUT)["decision"]["mover"] == 1
    error(team_client.post("/api/play", json={"seat": 2, "search": True}), 400,
          "two-player only")


def test_a_random_challenge_order_replays_from_its_action_strings():
    """With challenge_order=random a chance node draws who reacts next ('fastest 2'):
    the strings of a round replay it, whatever the seed of the Deputy's shuffles."""
    from types import SimpleNamespace

    from explorer.board import action_strings
    from explorer.session import replay

    game = game_def.load_game("rspx:players=3,max_turns=3,challenge_order=random")
    stand_in = SimpleNamespace(game=game)   # replay reads only the run's game
    rng = random.Random(1)
    drawn = 0
    for i in range(40):
        layout = random_layout(game.variant, rng)
        tracker = DealTracker(layout, i)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                tracker.advance(state)
                continue
            tracker.apply(state, rng.choice(state.legal_actions()))
        strings = action_strings(state)
        drawn += any(text.startswith("fastest") for text in strings)
        again, _ = replay(stand_in, layout, strings, seed=i + 1000)
        assert again.history() == state.history()
    assert drawn > 5
