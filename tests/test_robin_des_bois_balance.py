"""Balance tools of Robin des Bois (robin_des_bois.balance and `python -m robin_des_bois
balance`): the figures agree with an independent count on the plain OpenSpiel game, the
sweep is tidy, bad input gives one line, the report command writes its files."""

from __future__ import annotations

import math
import random

import numpy as np
import pyspiel
import pytest
from click.testing import CliRunner

import robin_des_bois  # noqa: F401  (registers the game)
from robin_des_bois import RulesError
from robin_des_bois.balance import BalanceError, balance, effects, marianne_effect, sweep


def _plain_random_games(players: int, games: int, seed: int) -> dict[str, np.ndarray]:
    """Random games on the plain OpenSpiel game, counted from its action strings and
    returns only (no core, no counters): seat 0's win share, steals, counters, turns."""
    game = pyspiel.load_game("robin_des_bois", {"box": "small", "players": players})
    rng = random.Random(seed)
    share0, steals, counters, turns, unstoppable = [], [], [], [], []
    for _ in range(games):
        state = game.new_initial_state()
        st = co = tu = un = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            action = rng.choice(state.legal_actions())
            text = state.action_to_string(state.current_player(), action)
            if text.startswith("steal "):
                st += 1
                if len({card[0] for card in text.split()[1:]}) == 3:
                    un += 1
            elif text.startswith("counter "):
                co += 1
            elif text.startswith("take "):
                tu += 1
            state.apply_action(action)
        r = state.returns()
        share0.append((r[0] * (players - 1) + 1) / players)   # 1/k when among k best
        steals.append(st)
        counters.append(co)
        turns.append(tu)
        unstoppable.append(un)
    return {"win_share_seat0": np.array(share0), "steals": np.array(steals, float),
            "counters": np.array(counters, float), "mean_turns": np.array(turns, float),
            "unstoppable": np.array(unstoppable, float)}


def _agree(result, plain: dict[str, np.ndarray]) -> None:
    tidy = result.tidy().set_index("metric")
    for metric, values in plain.items():
        mean = values.mean()
        se_plain = values.std(ddof=1) / math.sqrt(len(values))
        row = tidy.loc[metric]
        se_bal = (row["hi"] - row["lo"]) / (2 * 1.96)
        z = abs(mean - row["value"]) / math.hypot(se_plain, se_bal)
        assert z < 4.5, f"{metric}: plain {mean:.3f} vs balance {row['value']:.3f} (z={z:.1f})"


def test_random_balance_agrees_with_plain_openspiel_count():
    plain = _plain_random_games(players=2, games=300, seed=5)
    result = balance({"box": "small", "players": 2}, games=20_000, seed=3, players="random",
                     marianne_games=0)
    _agree(result, plain)
    assert result.seats["win_share"].sum() == pytest.approx(1.0)
    fpa = result.value("first_player_advantage")
    assert fpa == pytest.approx(result.seats.at[0, "win_share"] - 0.5)
    lo, hi = result.interval("first_player_advantage")
    assert lo < fpa < hi


def test_stepped_random_agrees_with_plain_openspiel_count():
    """The Python-stepped path (used for scripted players and Marianne) with random
    players against the plain game's independent count."""
    plain = _plain_random_games(players=3, games=200, seed=11)
    result = balance({"box": "small", "players": 3}, games=300, seed=2, players="random",
                     marianne_games=0)
    _agree(result, plain)
    stepped = balance({"box": "small", "players": 3}, games=200, seed=2, players="thief")
    assert stepped.seats["win_share"].sum() == pytest.approx(1.0)
    assert stepped.value("steals") == pytest.approx(
        stepped.value("unstoppable") + stepped.value("counterable"))
    assert stepped.value("marianne_protections") >= 0
    assert stepped.value("thefts") <= stepped.value("steals")


def test_balance_is_reproducible_and_marianne_counted():
    a = balance(None, games=400, seed=7, players="random", marianne_games=50)
    b = balance(None, games=400, seed=7, players="random", marianne_games=50)
    assert a.tidy().equals(b.tidy())
    assert "marianne_protections" in set(a.metrics["metric"])
    assert marianne_effect()["available"] is False
    assert "not a parameter" in marianne_effect()["note"]


def test_sweep_one_row_per_combination_and_metric():
    grid = {"players": [2, 3], "copies": [2, 3], "hand_limit": [7, 9]}
    frame = sweep(grid, {"box": "small"}, games=100, seed=1, players="random")
    assert frame["variant"].nunique() == 8
    assert not frame.duplicated(["variant", "metric"]).any()
    per_variant = frame.groupby("variant")["metric"].count()
    for variant, count in per_variant.items():
        players = int(variant.split(",")[0].split("=")[1])
        assert count == players + 16          # seats + METRICS less Marianne (not counted)
    assert list(frame.columns[:4]) == ["variant", "players", "copies", "hand_limit"]
    assert (frame["lo"] <= frame["value"] + 1e-12).all()
    assert (frame["value"] <= frame["hi"] + 1e-12).all()


def test_effects_against_the_default():
    frame = effects({"players": [2, 3], "hand_limit": [7]}, {"box": "small"}, games=200,
                    seed=1, players="random", metrics=("first_player_advantage", "steals"))
    assert len(frame) == 4                    # players=3 is the default: skipped
    assert set(frame["parameter"]) == {"players", "hand_limit"}
    assert ((frame["lo"] <= frame["delta"]) & (frame["delta"] <= frame["hi"])).all()


@pytest.mark.parametrize("call, kind", [
    (lambda: sweep({"colors": [3]}, None, 10, 0), RulesError),
    (lambda: sweep({"players": [7]}, None, 10, 0), RulesError),
    (lambda: sweep({"players": [2]}, None, 10, 0), RulesError),
    (lambda: sweep({"players": [5]}, {"box": "small"}, 10, 0), RulesError),
    (lambda: sweep({"copies": [1]}, None, 10, 0), RulesError),
    (lambda: sweep({"players": []}, None, 10, 0), BalanceError),
    (lambda: sweep({"gold": ["lots"]}, None, 10, 0), RulesError),
    (lambda: balance({"values": 2}, 10, 0), RulesError),
    (lambda: balance(None, 10, 0, players="robin"), BalanceError),
    (lambda: balance(None, 0, 0), BalanceError),
    (lambda: balance(None, 10, -1), BalanceError),
])
def test_bad_input_one_line(call, kind):
    with pytest.raises(kind) as err:
        call()
    assert "\n" not in str(err.value) and str(err.value)


def test_report_command_writes_files(tmp_path, monkeypatch):
    from robin_des_bois import __main__ as cli_module
    from robin_des_bois import balance as B

    monkeypatch.setattr(B, "EFFECT_GRID", {"players": [2], "hand_limit": [7]})
    monkeypatch.setattr(B, "SWEEP_GRID", {"players": [2, 3]})
    out = tmp_path / "report"
    result = CliRunner().invoke(cli_module.cli, ["balance", "--variant", "small",
                                                 "--seat-player", "random",
                                                 "--games", "200",
                                                 "--sweep-games", "100", "--seed", "1",
                                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    for name in ("index.html", "report.md", "seat_win_shares.png",
                 "effect_first_player_advantage.png", "effect_steals.png",
                 "tables/seats.csv", "tables/metrics.csv", "tables/effects.csv",
                 "tables/sweep.csv", "tables/run.csv"):
        assert (out / name).stat().st_size > 0, name
    md = (out / "report.md").read_text()
    assert "first player's win share" in md and "Marianne is not a parameter" in md
    # random play only when asked, and labelled so in the first paragraph
    first = md.split("\n\n")[2]
    assert first.startswith("These figures come from uniformly random moves in every seat")
    bad = CliRunner().invoke(cli_module.cli, ["balance", "--seat-player", "robin",
                                              "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "unknown player kind" in bad.output
    assert not (tmp_path / "x").exists()


def test_good_play_is_the_default_and_the_report_names_it(tmp_path, monkeypatch):
    """balance() and the report put the strongest measured player (the search) in every
    seat unless asked otherwise; the report's first paragraph names it and cites its
    measured strength from the strength file, or says it was not measured there."""
    import inspect
    import json

    from robin_des_bois import __main__ as cli_module
    from robin_des_bois import balance as B
    from robin_des_bois.rules import parse_variant

    assert B.STRONGEST == "search"
    for fn in (B.balance, B.sweep, B.effects):
        assert inspect.signature(fn).parameters["players"].default == "search"
    rules = parse_variant("box:players=6")
    strength = tmp_path / "strength.json"
    strength.write_text(json.dumps({"variant": "box", "samples": 32, "date": "D",
                                    "command": "C", "counts": {"6": {
        "thief": {"share": 0.4, "lo": 0.3, "hi": 0.5, "fair": 1 / 6,
                  "games_per_seat": 20, "beats": True},
        "defender": {"share": 0.2, "lo": 0.1, "hi": 0.3, "fair": 1 / 6,
                     "games_per_seat": 20, "beats": False}}}}))
    text = cli_module.strength_sentence("search", rules, strength)
    assert text.startswith("Every seat plays the determinized search")
    assert "thief 0.400 [0.300, 0.500]" in text and "not defender" in text
    assert "not measured" in cli_module.strength_sentence(
        "search", parse_variant("small:players=2"), strength)
    assert "uniformly random" in cli_module.strength_sentence("random", rules, strength)
    monkeypatch.setattr(cli_module, "STRENGTH_FILE", strength)
    assert "thief 0.400" in cli_module.strength_sentence("search", rules)


@pytest.mark.slow
def test_the_default_report_plays_the_search_and_says_so(tmp_path, monkeypatch):
    """The command with no --seat-player: the search in every seat (about a minute on
    the loaded 2-core machine: six seats of search at 6 players)."""
    import json

    from robin_des_bois import __main__ as cli_module
    from robin_des_bois import balance as B

    strength = tmp_path / "strength.json"
    strength.write_text(json.dumps({"variant": "box", "samples": 32, "date": "D",
                                    "command": "C", "counts": {"6": {
        "thief": {"share": 0.4, "lo": 0.3, "hi": 0.5, "fair": 1 / 6,
                  "games_per_seat": 20, "beats": True}}}}))
    monkeypatch.setattr(cli_module, "STRENGTH_FILE", strength)
    monkeypatch.setattr(B, "EFFECT_GRID", {"hand_limit": [7]})
    monkeypatch.setattr(B, "SWEEP_GRID", {"copies": [4]})
    out = tmp_path / "report"
    result = CliRunner().invoke(cli_module.cli, ["balance", "--players", "6", "--games",
                                                 "2", "--sweep-games", "2", "--out",
                                                 str(out)])
    assert result.exit_code == 0, result.output
    md = (out / "report.md").read_text()
    first = md.split("\n\n")[2]
    assert first.startswith("Every seat plays the determinized search") and "thief 0.400" in first
    assert "Marianne not counted" not in md     # stepped games count her everywhere
