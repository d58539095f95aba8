"""The value of a rule against the fair share: when `players` (or `teams`) is an axis,
the fair share 1/N moves with it, so the sweep reads balance as the starter's win share
(a draw 1/N) minus the fair share; a synthetic table with known shares. Planted bug
these fail on: the old headline (the raw win rate, -19.15 points for players 2 -> 3,
16.7 of them the fair share falling)."""

from __future__ import annotations

import pandas as pd
import pytest

from sweep.catalogue import game_named
from sweep.effects import balance_metric, effects_paragraph, rule_effects
from sweep.metrics import with_starter_edge
import game_def

# (players, first player's win rate, turn-cap rate): the players sweep's figures
TABLE = ((2, 0.531, 0.0), (3, 0.339, 0.018), (4, 0.234, 0.116))


def _table(values=TABLE, axis="players"):
    rows = []
    for players, win, cap in values:
        variant = "standard" if players == 2 else f"standard:players={players}"
        for metric, value in (("first_player_win_rate", win), ("turn_cap_rate", cap)):
            rows.append({"variant": variant, axis: str(players), "status": "done",
                         "metric": metric, "value": value, "lo": value - 0.01,
                         "hi": value + 0.01})
    return pd.DataFrame(rows)


def edge(players, win, cap):
    return win + cap / players - 1 / players


def test_a_players_axis_reads_balance_against_the_fair_share():
    game = game_named("robin_wood")
    effects = rule_effects(_table(), [("players", ("2", "3", "4"))], game)
    assert balance_metric(effects, game) == "starter_edge"
    e = effects[effects["metric"] == "starter_edge"].set_index("change")["delta"]
    assert e["2 -> 3"] == pytest.approx(edge(*TABLE[1]) - edge(*TABLE[0]))   # -1.9 pp
    assert e["3 -> 4"] == pytest.approx(edge(*TABLE[2]) - edge(*TABLE[1]))
    text = effects_paragraph(effects, game)
    assert "win share minus the fair share" in text
    assert "-1.9 percentage points" in text and "-19" not in text.split(".")[0]


def test_the_edge_is_derived_for_an_old_table_and_its_interval_shifted():
    table = with_starter_edge(_table(), game_def.parse)
    rows = table[table["metric"] == "starter_edge"].set_index("variant")
    three = rows.loc["standard:players=3"]
    assert three["value"] == pytest.approx(edge(*TABLE[1]))
    assert three["hi"] - three["lo"] == pytest.approx(0.02)
    # idempotent: a table that has the metric gains no second row
    assert len(with_starter_edge(table, game_def.parse)) == len(table)


def test_without_a_table_size_axis_the_headline_is_unchanged():
    game = game_named("robin_wood")
    table = _table(((2, 0.5, 0.0), (3, 0.6, 0.1)), axis="strikes")
    table["variant"] = "standard:strikes=" + table["strikes"]
    wins = table[table["metric"] == "first_player_win_rate"]
    table = pd.concat([table, wins.assign(metric="first_player_value", value=0.1)],
                      ignore_index=True)
    table.loc[(table["metric"] == "first_player_value") & (table["strikes"] == "3"),
              "value"] = 0.2
    effects = rule_effects(table, [("strikes", ("2", "3"))], game)
    assert balance_metric(effects, game) == "first_player_value"


def test_the_balance_figure_says_what_its_bars_show():
    """With a players axis the bars are the starter's edge over the fair share, and the
    caption says so (it once read "First player's value per variant" above them)."""
    from sweep.games import balance_caption

    game = game_named("robin_wood")
    assert balance_caption(game, ["players"]).startswith(
        "The starter's win share minus the fair share")
    assert balance_caption(game, ["strikes"]) == game.balance_caption
