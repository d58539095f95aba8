"""The sweep package takes either game: Robin des Bois's box parameters swept with a
player in every seat, its rows equal to robin_des_bois.balance run directly, its report
titled and drawn with its own metrics, resumed without playing again, its bad grids
refused in one line; Robin Wood's rows keep their fingerprints."""

from __future__ import annotations

import hashlib
import json
import math

import pandas as pd
import pytest
from click.testing import CliRunner

from game_def.errors import RobinWoodError
from robin_des_bois.balance import balance
from robinwood.cli import cli
from sweep import load_toml, run_sweep, spec_from_text
from sweep.catalogue import GAMES, game_named
from sweep.plan import Task, plan
from sweep.treasure import BoxVariant, PlaySettings, parse_box, play_settings

GAME = "robin_des_bois"
# Two variants, each a few hundred thief-against-thief games in well under a second.
SETTINGS = PlaySettings(method="play", player="thief", games=120)


def quiet(_text):
    return None


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    spec = spec_from_text("players=3,4", game=GAME, name="players", settings=SETTINGS)
    out = tmp_path_factory.mktemp("treasure") / "players"
    return spec, run_sweep(spec, out, workers=1, progress=False, say=quiet)


def test_both_games_are_registered_with_their_own_options():
    assert set(GAMES) == {"robin_wood", "robin_des_bois"}
    assert "strikes" in game_named("robin_wood").options
    assert set(game_named(GAME).options) == {"box", "players", "colours", "values",
                                               "copies", "gold", "gold_order",
                                               "hand_size", "hand_limit", "end"}


@pytest.mark.parametrize("text, expected", [
    ("robin_des_bois", "robin_des_bois"),
    ("", "robin_des_bois"),
    ("robin_des_bois:copies=3,players=4", "robin_des_bois:players=4,copies=3"),
    ("box=small,players=2", "robin_des_bois:box=small,players=2"),
    ("copies=3", "robin_des_bois:copies=3"),
    ("players=3,gold=1x3+2x1", "robin_des_bois:gold=1x3+2x1"),   # players=3 is a default
])
def test_a_box_variant_has_one_canonical_text(text, expected):
    variant = parse_box(text)
    assert str(variant) == expected
    assert parse_box(str(variant)) == variant


def test_a_box_variant_changes_by_grid_text():
    variant = parse_box("robin_des_bois").replace(players="4", copies="3", gold="none")
    assert (variant.rules.players, variant.rules.copies, variant.rules.gold) == (4, 3, ())
    # the published box's 6-coin cards come back at four players
    assert parse_box("robin_des_bois").replace(players="4").rules.gold == (6, 6) + (3,) * 9
    assert isinstance(variant, BoxVariant)


def test_each_variant_equals_the_balance_run_directly(swept):
    spec, result = swept
    assert result.ran == 2 and result.failed == 0
    assert set(result.table["method"]) == {"play"}
    tasks = {t.key: t for t in result.tasks}
    for key, rows in result.table.groupby("variant"):
        task = tasks[key]
        direct = balance(parse_box(key).rules, games=120, seed=task.seed,
                         players="thief").tidy().set_index("metric")
        got = rows.set_index("metric")
        assert set(got.index) == set(direct.index)
        for metric in direct.index:
            for column in ("value", "lo", "hi"):
                a, b = got.at[metric, column], direct.at[metric, column]
                assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-12)
    three = result.table[result.table["variant"] == "robin_des_bois"]
    assert "win_share_seat2" in set(three["metric"])


def test_the_value_of_a_rule_is_the_difference_of_the_two_variants(swept):
    spec, result = swept
    effects = pd.read_csv(result.root / "effects.csv")
    row = effects[(effects["option"] == "players")
                  & (effects["metric"] == "first_player_advantage")].iloc[0]
    value = result.table[result.table["metric"] == "first_player_advantage"] \
        .set_index("variant")["value"]
    assert row["change"] == "3 -> 4"
    assert row["delta"] == pytest.approx(value["robin_des_bois:players=4"]
                                         - value["robin_des_bois"])


def test_the_report_is_the_games_own(swept):
    spec, result = swept
    markdown = (result.root / "report.md").read_text()
    assert markdown.startswith("# Robin des Bois sweep: players")
    assert "first player's advantage" in markdown
    assert "bluff" not in markdown.lower()            # Robin Wood's metrics stay out
    assert "measured by play, the same player in every seat" in markdown
    for figure in ("balance.png", "actions.png", "length.png", "rule_effects.png"):
        assert (result.root / figure).stat().st_size > 1000
    meta = json.loads((result.root / "runs" / "robin_des_bois" / "metadata.json").read_text())
    assert (meta["players"], meta["games"]) == ("thief", 120)


def test_a_rerun_skips_the_finished_variants_and_other_settings_play_again(swept, tmp_path):
    spec, result = swept
    again = run_sweep(spec, result.root, workers=1, progress=False, say=quiet)
    assert (again.skipped, again.ran) == (2, 0)
    pd.testing.assert_frame_equal(again.table, result.table)
    other = spec_from_text("players=3,4", game=GAME, name="players",
                           settings=PlaySettings(method="play", player="thief", games=60))
    assert {t.fingerprint for t in plan(other, 2**32)}.isdisjoint(
        {t.fingerprint for t in result.tasks})


def test_random_play_uses_the_batch_simulator_and_says_so(tmp_path):
    spec = spec_from_text("copies=3,4", "robin_des_bois:players=4", "random", game=GAME,
                          settings=PlaySettings(method="random", games=400))
    result = run_sweep(spec, tmp_path / "random", workers=1, progress=False, say=quiet)
    assert set(result.table["method"]) == {"random"} and result.failed == 0
    assert result.table["statistics"].str.contains("uniformly random moves").all()
    assert "measured by random play only" in (tmp_path / "random" / "report.md").read_text()


def test_settings_default_by_player_and_read_rounds_as_games():
    assert PlaySettings().game_count == 400                       # the search player
    assert PlaySettings(player="thief").game_count == 2_000
    assert PlaySettings(method="random").game_count == 20_000
    assert play_settings(rounds=50, player="defender") == PlaySettings(player="defender",
                                                                        games=50)


@pytest.mark.parametrize("build, needle", [
    (lambda: spec_from_text("strikes=1,2", game=GAME), "known Robin des Bois options"),
    (lambda: spec_from_text("players=3,9", game=GAME).points(), "players=9"),
    (lambda: spec_from_text("players=3,4", "copies=x", game=GAME), "not an integer"),
    (lambda: spec_from_text("lock=none", game=GAME), "unknown option 'lock'"),
    (lambda: PlaySettings(method="mccfr"), "measured by play"),
    (lambda: PlaySettings(player="bob"), "unknown player 'bob'"),
    (lambda: play_settings(mccfr_seconds=3), "for Robin Wood's solvers"),
    (lambda: spec_from_text("players=2", game="chess"), "unknown game 'chess'"),
])
def test_bad_treasure_grids_name_the_problem(build, needle):
    with pytest.raises(Exception) as caught:
        build()
    assert needle in str(caught.value) and "\n" not in str(caught.value)
    assert isinstance(caught.value, (RobinWoodError, ValueError))


def test_a_toml_grid_file_names_its_game(tmp_path):
    path = tmp_path / "box.toml"
    path.write_text('game = "robin_des_bois"\nbase = "players=4"\n[grid]\ncopies = [3, 4]\n'
                    '[settings]\nplayer = "thief"\ngames = 50\n')
    spec = load_toml(path)
    assert spec.game.name == GAME and spec.settings == PlaySettings(player="thief", games=50)
    assert [str(p.variant) for p in spec.points()] == [
        "robin_des_bois:players=4,copies=3", "robin_des_bois:players=4"]


@pytest.mark.parametrize("args, needle", [
    (["--game", GAME, "--grid", "players=3,4", "--method", "mccfr"], "solves Robin Wood"),
    (["--game", GAME, "--grid", "players=3,4", "--mccfr-seconds", "5"],
     "--mccfr-seconds is for Robin Wood's solvers"),
    (["--grid", "strikes=1,2", "--seat-player", "thief"], "--seat-player is for --game"),
    (["--grid", "strikes=1,2", "--method", "play"], "play is Robin des Bois's method"),
    (["--game", GAME, "--grid", "players=3,4", "--seat-player", "bob"], "unknown player"),
])
def test_the_command_line_refuses_mixed_games_in_one_line(args, needle, tmp_path):
    out = CliRunner().invoke(cli, ["sweep", *args, "--out", str(tmp_path / "x")])
    assert out.exit_code == 2 and needle in out.output, out.output


def test_the_command_line_sweeps_the_treasure_game(tmp_path):
    out = tmp_path / "cli"
    result = CliRunner().invoke(cli, ["sweep", "--game", GAME, "--grid", "hand_limit=6,9",
                                      "--seat-player", "thief", "--rounds", "40",
                                      "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out / "table.csv")
    assert set(table["variant"]) == {"robin_des_bois:hand_limit=6", "robin_des_bois"}
    assert json.loads((out / "sweep.json").read_text())["game"] == GAME


def test_robin_wood_rows_keep_the_fingerprint_they_had_before_games():
    """Rows written before the sweep took a second game must not be solved again: a
    Robin Wood task's fingerprint is the hash of (key, method, seed, settings) alone."""
    spec = spec_from_text("strikes=1,2", "rspx:max_turns=2", "old")
    task = plan(spec, 2**32)[0]
    assert task.game == "robin_wood"
    text = json.dumps([task.key, task.method, task.seed, task.settings], sort_keys=True)
    assert task.fingerprint == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert Task.from_json({k: v for k, v in task.to_json().items() if k != "game"}) == task
