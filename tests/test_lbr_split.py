"""Where the local best response's gain comes from, by decision (LBRReport.by_decision;
docs/lbr.md, "Where the gain comes from, by decision").

At each decision it looks ahead at, the LBR records the advantage of the action it took
over its continuation's mix there, valued on fresh rollouts; summed along a round, its
expectation is the LBR's payoff minus the continuation's alone (the performance-
difference lemma). These tests check that identity on reduced decks, that each
advantage lands in its decision kind and sub-key, and that splitting never changes the
rounds played.

The tests can fail (each mutation was planted in solver/search/_kernels.py and caught):
- dropping the continuation's term (recording Q(a) instead of Q(a) - sum_b cont(b) Q(b))
  makes the split's total the chosen actions' values summed, far from the 0.14 the
  lookahead adds on rspx:max_turns=3:
  `test_the_split_sums_to_the_lookaheads_gain_over_its_continuation`;
- valuing the advantage on the rollouts that chose the action (split="reuse", kept in
  the kernel to show it) overstates by the maximum of their noise, 0.28 against 0.14
  there: the same test asserts that this variant fails the check;
- attributing a decision to the wrong kind (the kind index shifted by one) puts
  respond-only lookahead into the power rows, and keying responses by the card peeked
  rather than the claim gives `respond Trickster` rows on duel8:
  `test_each_advantage_lands_in_its_kind_and_sub_key`.
"""

from __future__ import annotations

import json
import math

import game_def
from game_def.characters import ANNOUNCEABLE, Character
from solver.evaluation.lbr import BY_DECISION_COLUMNS, local_best_response
from solver.players.agents import bot

RSPX3 = game_def.parse("rspx:max_turns=3")
DUEL8 = game_def.parse("duel8:max_turns=6")
Z95 = 1.959964


def _total(report):
    frame = report.by_decision
    return frame[frame["kind"] == "all"].iloc[0]


def _agrees(split_total, full, alone, sigmas=3.0) -> bool:
    """The split's total within `sigmas` standard errors of the full LBR's gain minus
    the continuation's alone (three independent-ish estimates)."""
    se = math.hypot(split_total["half_width"], full.half_width, alone.half_width) / Z95
    return abs(split_total["gain"] - (full.gain - alone.gain)) < sigmas * se


def test_the_split_never_changes_the_rounds():
    """The split draws from a stream of its own: the same seed plays the same rounds
    with the split on, reused or off (only the split's own counters differ)."""
    reports = [local_best_response(bot("heuristic"), variant=RSPX3, rounds=150, seed=5,
                                   particles=32, rollouts=8, split=split)
               for split in ("off", "fresh", "reuse")]
    plain = []
    for report in reports:
        data = report.to_json()
        for key in ("split", "by_decision", "by_choice"):
            data.pop(key)
        data["counters"].pop("split_rollouts")
        for seat in data["seats"]:
            seat.pop("seconds")
            seat["counters"].pop("split_rollouts")
        plain.append(data)
    assert plain[0] == plain[1] == plain[2]
    assert reports[0].by_decision is None and reports[0].to_json()["by_decision"] is None
    assert reports[1].to_json()["counters"]["split_rollouts"] > 0
    assert reports[2].to_json()["counters"]["split_rollouts"] == 0


def test_the_split_sums_to_the_lookaheads_gain_over_its_continuation():
    """On rspx:max_turns=3 against the uniform bot, the heuristic bot continuing: the
    split's total is the LBR's gain minus its continuation's alone within 3 standard
    errors (measured: 0.157 +- 0.009 against 0.143 +- 0.032, seed 1, 2,000 rounds a
    seat), the rows add up to the total, and the biased variant that values the
    advantage on the rollouts that chose the action fails the same check (0.276)."""
    options = dict(variant=RSPX3, continuation="heuristic", rounds=2000, seed=1,
                   particles=64, rollouts=16)
    uniform = bot("uniform")
    alone = local_best_response(uniform, kinds=(), split="off", **options)
    full = local_best_response(uniform, **options)
    frame = full.by_decision
    assert list(frame.columns) == list(BY_DECISION_COLUMNS)
    total = _total(full)
    rows = frame[frame["kind"] != "all"]
    assert abs(rows["gain"].sum() - total["gain"]) < 1e-9
    assert rows["decisions"].sum() == total["decisions"] == \
        full.to_json()["counters"]["decisions"]
    assert _agrees(total, full, alone), (total.to_dict(), full.gain, alone.gain)
    # the interval is over rounds: far narrower than the two gains' (0.009 against 0.03)
    assert total["half_width"] < full.half_width
    reused = local_best_response(uniform, split="reuse", **options)
    assert reused.gain == full.gain
    assert not _agrees(_total(reused), full, alone)
    assert _total(reused)["gain"] > total["gain"]


def test_each_advantage_lands_in_its_kind_and_sub_key():
    """Looking ahead at one kind only, every advantage and decision lands in that kind's
    rows. Sub-keys are what the decision is about: after a peek, the card (never the
    Traitor, whose peek ends the turn); at a response, the claim (never the Trickster
    or the Traitor, which are never claimed, though the heuristic bot must lie when it
    peeks the Trickster); at a power, the character running it."""
    heuristic = bot("heuristic")
    options = dict(variant=DUEL8, continuation="baiter", rounds=300, seed=2, particles=32,
                   rollouts=8)
    for kinds in (("respond",), ("after_peek", "power")):
        report = local_best_response(heuristic, kinds=kinds, **options)
        frame = report.by_decision
        rows = frame[frame["kind"] != "all"]
        assert set(rows["kind"]) == set(kinds), (kinds, frame)
        assert rows["decisions"].sum() == report.to_json()["counters"]["decisions"] > 0
    full = local_best_response(heuristic, **options)
    frame = full.by_decision
    keys = {kind: set(frame.loc[frame["kind"] == kind, "sub_key"])
            for kind in ("turn", "after_peek", "respond", "power")}
    assert keys["turn"] == {""}
    held = {c.label for c in DUEL8.in_deck}
    assert keys["after_peek"] <= held - {"Traitor"} and "Trickster" in keys["after_peek"]
    assert keys["respond"] <= {c.label for c in ANNOUNCEABLE} & held
    assert keys["power"] <= {c.label for c in (Character.ROBIN, Character.SHERIFF,
                                               Character.DEPUTY, Character.MONK,
                                               Character.WITCH)}
    data = json.loads(json.dumps(full.to_json()))
    assert data["split"] == "fresh"
    assert [row["kind"] for row in data["by_decision"]] == list(frame["kind"])


def test_a_shared_self_play_baseline_changes_no_figure():
    """self_play_baseline(agent, seed=s) plays the rounds local_best_response(agent,
    seed=s) would play for its own baseline, so passing it changes nothing (planted bug
    caught: the baseline drawing seat 1's stream for seat 0); a baseline of another
    agent is refused."""
    import pytest

    from solver.evaluation.lbr import self_play_baseline
    from solver.players.agents import AgentError

    agent = bot("heuristic")
    own = local_best_response(agent, variant=RSPX3, rounds=80, seed=9, particles=32,
                              rollouts=8, self_play_rounds=3000, split="off")
    baseline = self_play_baseline(agent, rounds=3000, seed=9, variant=RSPX3)
    shared = local_best_response(agent, variant=RSPX3, rounds=80, seed=9, particles=32,
                                 rollouts=8, baseline=baseline, split="off")
    assert shared.gain == own.gain and shared.half_width == own.half_width
    for a, b in zip(own.seats, shared.seats):
        assert (a.self_play_value, a.self_play_half_width, a.self_play_rounds) == (
            b.self_play_value, b.self_play_half_width, b.self_play_rounds)
    with pytest.raises(AgentError, match="baseline"):
        local_best_response(bot("tempo"), variant=RSPX3, rounds=5, baseline=baseline)


def test_what_the_lookahead_played_adds_up_and_names_the_continuations_play():
    """LBRReport.by_choice: at each decision kind and sub-key, the lookahead's choices
    add up to its decisions there and their advantages to that row's gain; the
    continuation's shares add up to 1 a decision and name what it plays: the honest
    bot tells the truth after a peek (silent on the Peasant, Robin or the Sheriff
    evenly on the Trickster) and passes every claim. Planted bugs caught: the
    continuation's probabilities recorded after the fresh rollouts had reused the
    arrays (shares off 1), announcements labelled one character off (the honest
    bot's truth read as another claim), the advantage left out of the choice's sum."""
    options = dict(variant=DUEL8, continuation="honest", rounds=300, seed=4,
                   particles=32, rollouts=8)
    report = local_best_response(bot("heuristic"), **options)
    choices = report.by_choice
    decisions = report.by_decision.set_index(["kind", "sub_key"])
    for (kind, sub), group in choices.groupby(["kind", "sub_key"]):
        row = decisions.loc[(kind, sub)]
        assert group["decisions"].sum() == row["decisions"]
        assert abs(group["lbr_share"].sum() - 1) < 1e-9
        assert abs(group["strategy_share"].sum() - 1) < 1e-9, (kind, sub, group)
        taken = group[group["decisions"] > 0]
        summed = (taken["gain_per_decision"] * taken["decisions"]).sum()
        assert abs(summed / (2 * options["rounds"]) - row["gain"]) < 1e-9
        plays = dict(zip(group["played"], group["strategy_share"]))
        labels = set(group["played"])
        if kind == "after_peek":
            assert all(label == "silent" or label.startswith("announce ")
                       for label in labels), labels
            if sub == "Peasant":
                assert abs(plays["silent"] - 1) < 1e-9
            elif sub == "Trickster":
                assert abs(plays["announce Robin"] - 0.5) < 1e-9
                assert abs(plays["announce Sheriff"] - 0.5) < 1e-9
            else:
                assert abs(plays[f"announce {sub}"] - 1) < 1e-9, (sub, plays)
        elif kind == "respond":
            assert labels <= {"challenge", "pass"} and abs(plays["pass"] - 1) < 1e-9
        elif kind == "turn":
            assert labels <= {"peek", "use"}
        else:
            assert labels <= {"reveal", "pick", "keep", "swap"}, labels
    assert set(choices["kind"]) == {"turn", "after_peek", "respond", "power"}
    data = json.loads(json.dumps(report.to_json()))
    assert len(data["by_choice"]) == len(choices)
