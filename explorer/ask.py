"""Ask: the report's main tables for the run, each cell with example situations where
it applies, so that a number can be opened on the board and questioned.

Tables come from analysis (exact reach-weighted statistics for exact runs, sampled
self-play for Monte Carlo CFR runs). Examples come from rounds the strategy plays
against itself on random deals: each decision is filed under the cells it belongs to
(the card just peeked and the action taken; the claim answered and both players'
strikes), keeping the first few of each.
"""

from __future__ import annotations

import math
import random
import time

from game_def import kernels as k
from game_def.characters import NAMES

from .run import ExploredRun
from .session import DealTracker, random_layout

EXAMPLES_PER_CELL = 3


def _number(v):
    return None if (isinstance(v, float) and math.isnan(v)) else float(v)


def _frame_json(frame, columns=None) -> dict:
    """A pandas frame as {index_names, columns, rows: [{index, values, intervals}]}; a
    column's `<name>_lo`/`<name>_hi` (95% intervals of sampled statistics) become its
    cells' intervals rather than columns of their own."""
    names = [str(c) for c in frame.columns]
    cols = [c for c in (columns or names) if c in names and not c.endswith(("_lo", "_hi"))]
    rows = []
    for idx, row in frame.iterrows():
        idx = list(idx) if isinstance(idx, tuple) else [idx]
        intervals = [[_number(row[f"{c}_lo"]), _number(row[f"{c}_hi"])]
                     if f"{c}_lo" in names and f"{c}_hi" in names else None for c in cols]
        rows.append({"index": [x if isinstance(x, str) else int(x) for x in idx],
                     "values": [_number(row[c]) for c in cols], "intervals": intervals})
    return {"index_names": [str(n) for n in frame.index.names], "columns": cols,
            "rows": rows}


def statistics(run: ExploredRun, rounds: int = 20_000):
    """The run's ProfileStatistics: exact for exact runs (on the tree already built),
    `rounds` sampled self-play rounds for Monte Carlo CFR runs."""
    if run.kind == "exact" and run.values is not None:
        from analysis.exact import profile_statistics

        v = run.values
        return profile_statistics(v.variant, v.tree, v.strategy, v.symmetric)
    if run.kind == "exact":
        from analysis.exact import profile_statistics_from_run

        return profile_statistics_from_run(run.run_dir)
    from analysis.sampled import profile_statistics_sampled

    return profile_statistics_sampled(run.run_dir, rounds=rounds, seed=0)


def find_examples(run: ExploredRun, rounds: int = 300, seconds: float = 4.0,
                  seed: int = 0) -> dict[str, list[dict]]:
    """Cell key -> up to EXAMPLES_PER_CELL situations {layout, seed, actions}, from
    self-play rounds on random deals. Keys: `announce|<peeked>|<action>`,
    `peeked|<peeked>`, `bluff|<announced>`, `claim|<announced>`,
    `challenge|<announced>|<challenger strikes>|<announcer strikes>`."""
    rng = random.Random(seed)
    found: dict[str, list[dict]] = {}
    start = time.perf_counter()
    for _ in range(rounds):
        if time.perf_counter() - start > seconds:
            break
        layout = random_layout(run.variant, rng)
        tracker = DealTracker(layout, rng.randrange(1 << 31))
        state = run.game.new_initial_state()
        strings: list[str] = []
        while not state.is_terminal():
            if state.is_chance_node():
                a = tracker.chance_outcome(state)
            else:
                probs = run.probabilities(state)
                acts = sorted(probs)
                a = rng.choices(acts, [probs[x] for x in acts])[0]
                _file(found, state, a, layout, tracker.seed, strings)
            strings.append(state.action_to_string(state.current_player(), a))
            tracker.apply(state, a)
    return found


def _file(found, state, action, layout, seed, strings) -> None:
    s = state.core_state
    phase = int(s[k.S_PHASE])
    mover = state.current_player()
    example = {"layout": layout, "seed": seed, "actions": list(strings)}
    keys = []
    if phase == k.PH_AFTER_PEEK:
        peeked = state.cards[int(s[k.S_PEEK_POS])]
        text = state.action_to_string(mover, action)
        col = "silent" if text == "silent" else text.split(" ", 1)[1]
        keys += [f"announce|{peeked}|{col}", f"peeked|{peeked}"]
        if col != "silent":
            keys.append(f"claim|{col}")
            if col != peeked:
                keys.append(f"bluff|{col}")
    elif phase == k.PH_RESPOND:
        said = NAMES[int(s[k.S_ANNOUNCED])]
        own = int(s[k.S_STRIKES + mover])
        other = int(s[k.S_STRIKES + int(s[k.S_ACTOR])])
        keys += [f"challenge|{said}|{own}|{other}", f"challenge|all|{own}|{other}",
                 f"respond|{said}"]
    for key in keys:
        bucket = found.setdefault(key, [])
        if len(bucket) < EXAMPLES_PER_CELL:
            bucket.append(example)


def ask_tables(run: ExploredRun, examples: dict[str, list[dict]], stats) -> list[dict]:
    """The tables of the Ask tab, with the example key of every cell."""
    out = []
    am = stats.announcement_matrix()
    t = _frame_json(am)
    for row in t["rows"]:
        peeked = row["index"][0]
        row["examples"] = [
            examples.get(f"announce|{peeked}|{c}") or examples.get(f"peeked|{peeked}") or []
            if c != "reach" else examples.get(f"peeked|{peeked}", [])
            for c in t["columns"]]
    out.append({"id": "announcement_matrix", "title": "What a player announces, by the card "
                "they peeked", "note": "P(action | peeked card); the diagonal is the truth, "
                "the rest are bluffs; reach = such peeks per round. A cell's examples are "
                "situations where that card was peeked (and, when the strategy ever does "
                "it, that action was chosen).", "percent": [c != "reach" for c in t["columns"]],
                **t})
    br = stats.bluff_rates()
    t = _frame_json(br, ["announcements_per_round", "bluff_rate"])
    for row in t["rows"]:
        said = row["index"][0]
        row["examples"] = [examples.get(f"claim|{said}", []) if said != "all" else [],
                           examples.get(f"bluff|{said}", []) if said != "all" else []]
    out.append({"id": "bluff_rates", "title": "How often each claim is a bluff",
                "note": "bluff_rate = P(the card is not the one announced | announced).",
                "percent": [False, True], **t})
    cr = stats.challenge_rates_by_strikes()
    cols = ["responses_per_round", "challenge_rate", "challenge_right_rate"]
    t = _frame_json(cr, cols)
    for row in t["rows"]:
        said, own, other = row["index"]
        ex = examples.get(f"challenge|{said}|{own}|{other}", [])
        row["examples"] = [ex] * len(cols)
    out.append({"id": "challenge_rates_by_strikes", "title": "Challenges, by the strikes "
                "of the challenger and the announcer", "note": "challenge_rate = P(challenge "
                "| the claim); challenge_right_rate = P(it was a bluff | challenged).",
                "percent": [False, True, True], **t})
    oc = stats.outcomes()
    t = _frame_json(oc)
    for row in t["rows"]:
        row["examples"] = [[] for _ in t["columns"]]
    rates = ("seat0_wins", "seat1_wins", "draws", "turn_cap_rate", "ended_by_unmask",
             "ended_by_elimination")
    out.append({"id": "outcomes", "title": "Outcomes (seat 0's view)",
                "note": "Win, draw and turn-cap rates per round; seat0_value is seat 0's "
                "expected payoff; mean_turns the round length.",
                "percent": [c in rates for c in t["columns"]], **t})
    return out


def table_ask(run: ExploredRun, rounds: int = 20_000) -> dict:
    """The Ask tab beyond two players: the table's balance (analysis.table_balance, exact
    for exact runs, `rounds` self-play rounds for Monte Carlo CFR runs), since the
    per-card tables of analysis.statistics are two-player only. No examples."""
    from analysis.table_balance import table_balance_from_run

    balance = table_balance_from_run(run.run_dir, rounds=rounds, seed=0)
    why = run.two_player_only.get("statistics", "")
    kind = ("exact (every situation weighted by its reach probability)"
            if balance.rounds is None else f"sampled ({balance.rounds:,} self-play rounds)")
    return {"tables": [_seats_table(balance, why), _rates_table(balance)],
            "statistics": kind, "two_player_only": why}


def _seats_table(balance, why: str) -> dict:
    """Each seat in turn order: its value (with a 95% interval when sampled), its side's
    wins and how often it is eliminated first."""
    seats = balance.seats().reset_index().set_index(["seat", "plays"])
    if "value_95" in seats:
        seats["value_lo"] = seats["value"] - seats["value_95"]
        seats["value_hi"] = seats["value"] + seats["value_95"]
    t = _frame_json(seats, ["value", "wins", "first_eliminated"])
    for row in t["rows"]:
        row["examples"] = [[] for _ in t["columns"]]
    team = " (wins: the seat's team)" if balance.variant.teams else ""
    return {"id": "seats", "title": "Each seat: value, wins, first eliminated",
            "note": f"value = the seat's expected payoff (+1 a win, -1/(players-1) each "
                    f"loser, 0 a draw{'; a team shares +1 or -1' if team else ''}); plays = "
                    f"its place in turn order{team}. {why}.",
            "percent": [False, True, True], **t}


def _rates_table(balance) -> dict:
    """The designer's rates (bluffs, challenges, round length) as one row."""
    rates = balance.rates().to_frame().T
    rates.index = ["per round"]
    rates.index.name = "rates"
    t = _frame_json(rates)
    for row in t["rows"]:
        row["examples"] = [[] for _ in t["columns"]]
    counts = ("announcements_per_round", "mean_turns")
    return {"id": "rates", "title": "Bluffs, challenges and round length",
            "note": "bluff_rate = P(the card is not the one announced | announced); "
                    "challenge_rate = P(challenged | announced); challenge_right_rate = "
                    "P(it was a bluff | challenged).",
            "percent": [c not in counts for c in t["columns"]], **t}
