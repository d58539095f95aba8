"""robinwood sweep: the same table on the process pool and on Ray, resume after kill -9
of the driver, failures recorded without stopping the sweep, the value of a rule
against hand-computed differences, the method chosen per variant, bad grids."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from robinwood.cli import cli
from sweep import GridError, SolveSettings, load_toml, rule_effects, run_sweep, spec_from_text
from sweep.plan import PROCESS_BYTES, choose
from sweep.grid import Point
import game_def

from sweep_jobs import FAILING, failing_job

ROOT = Path(__file__).resolve().parents[1]
# Four variants, each solved exactly in well under a second once compiled.
GRID = "strikes=1,2 traitor_strikes_on_reveal=false,true"
BASE = "rspx:max_turns=3"
NAME = "small"


def small_spec(**settings):
    return spec_from_text(GRID, BASE, NAME, settings=SolveSettings(**settings))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The 4-variant sweep, uninterrupted, on a 2-process pool."""
    out = tmp_path_factory.mktemp("sweep") / "reference"
    result = run_sweep(small_spec(), out, workers=2, progress=False, say=lambda t: None)
    return result


def test_a_sweep_solves_every_variant_exactly_and_reports(reference):
    table = reference.table
    assert reference.ran == 4 and reference.failed == 0
    assert list(dict.fromkeys(table["variant"])) == [
        "rspx:strikes=1,max_turns=3", "rspx:strikes=1,max_turns=3,traitor_strikes_on_reveal=true",
        "rspx:max_turns=3", "rspx:max_turns=3,traitor_strikes_on_reveal=true"]
    assert set(table["method"]) == {"exact"} and set(table["status"]) == {"done"}
    assert (table["quality"] <= 1e-3).all()   # exploitability, the exact solve's target
    assert table["lo"].isna().all()            # exact: no intervals
    value = table[table["metric"] == "first_player_value"].set_index("variant")["value"]
    # rspx:max_turns=3 has the value of rspx:max_turns=4 (+1/3, README) to the solve's
    # tolerance: the exact value is within exploitability of the average strategy's.
    assert abs(value["rspx:max_turns=3"] - 1 / 3) < 2e-3
    root = reference.root
    for name in ("table.csv", "table.parquet", "index.html", "report.md", "balance.png",
                 "rates.png", "length.png", "rule_effects.png", "effects.csv"):
        assert (root / name).is_file(), name
    for slug in ("rspx_strikes=1_max_turns=3", "rspx_max_turns=3_traitor_strikes_on_reveal=true"):
        assert (root / "runs" / slug / "metadata.json").is_file()
        assert not (root / "runs" / slug / "checkpoint.npz").exists()
    assert pd.read_parquet(root / "table.parquet").shape == table.shape
    md = (root / "report.md").read_text()
    assert "moves balance most" in md and "strikes (1 -> 2)" in md


def test_the_value_of_a_rule_matches_the_differences_by_hand():
    rows = []
    # Two options; a metric with values by hand (exact: no intervals) and one sampled.
    values = {("1", "false"): 0.1, ("1", "true"): 0.3, ("2", "false"): 0.5, ("2", "true"): 0.4}
    for (s, t), v in values.items():
        for metric, value, half in (("first_player_value", v, None),
                                    ("bluff_rate", v / 2, 0.01 if s == "1" else 0.02)):
            lo, hi = (value - half, value + half) if half else (np.nan, np.nan)
            rows.append({"variant": f"{s}{t}", "strikes": s, "traitor": t, "status": "done",
                         "metric": metric, "value": value, "lo": lo, "hi": hi})
    effects = rule_effects(pd.DataFrame(rows), [("strikes", ("1", "2")),
                                                ("traitor", ("false", "true"))])
    e = effects.set_index(["option", "metric"])
    # strikes 1 -> 2: (0.5 - 0.1) and (0.4 - 0.3), mean 0.25
    assert e.at[("strikes", "first_player_value"), "delta"] == pytest.approx(0.25)
    assert e.at[("strikes", "first_player_value"), "min_delta"] == pytest.approx(0.1)
    assert e.at[("strikes", "first_player_value"), "max_delta"] == pytest.approx(0.4)
    assert math.isnan(e.at[("strikes", "first_player_value"), "delta_lo"])
    # traitor false -> true: (0.3 - 0.1) and (0.4 - 0.5): mean 0.05, its sign depends on strikes
    assert e.at[("traitor", "first_player_value"), "delta"] == pytest.approx(0.05)
    # sampled: each pair's half-width is hypot(0.01, 0.02) (traitor flips within a
    # strikes value: hypot(0.01, 0.01) and hypot(0.02, 0.02)); the mean's adds in quadrature
    half = math.sqrt(0.01**2 * 2 + 0.02**2 * 2) / 2
    row = e.loc[("traitor", "bluff_rate")]
    assert row["delta"] == pytest.approx(0.025)
    assert row["delta_hi"] - row["delta"] == pytest.approx(half)
    assert (e["pairs"] == 2).all()


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray instance for the module (2 CPUs), as a cluster would be used."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_process_pool_and_ray_give_the_same_table(reference, local_ray, tmp_path):
    result = run_sweep(small_spec(), tmp_path / "ray", executor="ray", progress=False,
                       say=lambda t: None)
    assert result.failed == 0
    # every variant ran as a Ray task with its CPU and memory request
    for task in result.tasks:
        record = json.loads((result.root / "rows" / f"{task.slug}.json").read_text())
        assert record["ray_resources"] == {"CPU": 1.0, "memory": float(task.memory_bytes)}
    assert (result.root / "table.csv").read_bytes() == (reference.root / "table.csv").read_bytes()


def test_resume_after_kill_9_of_the_driver_equals_an_uninterrupted_sweep(reference, tmp_path):
    psutil = pytest.importorskip("psutil")
    out = tmp_path / "killed"
    script = (f"from sweep import spec_from_text, run_sweep\n"
              f"from sweep_jobs import slow_job\n"
              f"run_sweep(spec_from_text({GRID!r}, {BASE!r}, {NAME!r}), {str(out)!r}, "
              f"workers=1, job=slow_job, progress=False, report=False)\n")
    driver = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(ROOT / "tests")})
    rows = out / "rows"
    deadline = time.monotonic() + 180
    while not (rows.is_dir() and any(rows.glob("*.json"))):
        assert driver.poll() is None, driver.stderr.read().decode()
        assert time.monotonic() < deadline, "no variant finished in 180 s"
        time.sleep(0.05)
    workers = psutil.Process(driver.pid).children(recursive=True)
    driver.send_signal(signal.SIGKILL)
    driver.wait(timeout=30)
    finished = len(list(rows.glob("*.json")))
    assert 1 <= finished < 4          # a variant was in flight (each takes 1.5 s or more)
    # The workers die with the driver (no orphan keeps solving).
    gone, alive = psutil.wait_procs(workers, timeout=20)
    assert not alive, alive
    result = run_sweep(small_spec(), out, workers=2, progress=False, say=lambda t: None)
    assert result.skipped == finished and result.ran == 4 - finished
    assert not (out / "runs" / ".partial").exists()
    assert (out / "table.csv").read_bytes() == (reference.root / "table.csv").read_bytes()


def test_a_failing_variant_is_recorded_and_the_others_go_on(reference, tmp_path):
    result = run_sweep(small_spec(), tmp_path / "failing", workers=2, job=failing_job,
                       progress=False, say=lambda t: None)
    assert result.failed == 1 and result.ran == 4
    table = result.table
    bad = table[table["variant"] == FAILING]
    assert len(bad) == 1 and bad["status"].iloc[0] == "failed"
    assert bad["error"].iloc[0] == "RuntimeError: deliberate failure for the test second line"
    good = table[table["variant"] != FAILING].reset_index(drop=True)
    ref = reference.table[reference.table["variant"] != FAILING].reset_index(drop=True)
    assert good.to_csv(index=False) == ref.to_csv(index=False)
    assert "1 failed" in (result.root / "report.md").read_text()
    # A rerun tries the failed variant again and keeps the three others.
    again = run_sweep(small_spec(), tmp_path / "failing", workers=1, progress=False,
                      say=lambda t: None)
    assert again.skipped == 3 and again.ran == 1 and again.failed == 0
    assert (again.root / "table.csv").read_bytes() == (reference.root / "table.csv").read_bytes()


def test_monte_carlo_cfr_and_random_play_variants_carry_intervals(tmp_path):
    spec = spec_from_text("strikes=1,2", BASE, "mccfr", settings=SolveSettings(
        method="mccfr", mccfr_seconds=None, mccfr_iterations=1000, rounds=4000,
        quality_rounds=1000))
    result = run_sweep(spec, tmp_path / "mccfr", workers=2, progress=False,
                       say=lambda t: None)
    t = result.table
    assert result.failed == 0 and set(t["method"]) == {"mccfr"}
    sampled = t[t["metric"].isin(["first_player_value", "bluff_rate", "mean_turns"])]
    # each sampled figure lies in an interval of some width (a rate of 0, as the sound
    # default's bluff rate on this deck, has its Wilson interval start at 0)
    assert ((sampled["lo"] <= sampled["value"]) & (sampled["value"] <= sampled["hi"])
            & (sampled["lo"] < sampled["hi"])).all()
    assert t["quality_measure"].iloc[0] == "value against the heuristic bot, both seats"
    assert t["statistics"].iloc[0] == "sampled self-play, 4,000 rounds"
    spec = spec_from_text("players=2,3", "standard:max_turns=8", "players",
                          settings=SolveSettings(method="random", rounds=3000))
    result = run_sweep(spec, tmp_path / "random", workers=2, progress=False,
                       say=lambda t: None)
    t = result.table
    assert set(t["method"]) == {"random"}
    three = t[t["variant"] == "standard:players=3,max_turns=8"].set_index("metric")
    assert "first_player_value" not in three.index   # three sides: no two-sided value
    lo, hi = three.loc["first_player_win_rate", ["lo", "hi"]]
    assert lo < three.at["first_player_win_rate", "value"] < hi
    assert t["statistics"].str.startswith("random play").all()
    assert "random play only" in (result.root / "report.md").read_text()


def test_the_method_follows_the_counted_tree_and_the_players():
    point = Point(0, {}, game_def.parse("rspx:max_turns=3"))
    settings = SolveSettings()
    counts = []

    def count(variant, cap, symmetric):
        counts.append(cap)
        return 1000 if cap >= 1000 else -1

    # fits: exact, needing its nodes at PEAK_BYTES_PER_NODE each beside the process
    from solver.exact.robinwood_tree import PEAK_BYTES_PER_NODE as per_node

    method, nodes, need = choose(point, settings, PROCESS_BYTES + per_node * 1000, count)
    assert (method, nodes, need) == ("exact", 1000, PROCESS_BYTES + per_node * 1000)
    # does not fit: Monte Carlo CFR with its table cap
    method, nodes, need = choose(point, settings, 8 * 1024**3, lambda v, c, s: -1)
    assert method == "mccfr" and need == 2 * 1024**3 + PROCESS_BYTES
    # 3-4 players: exact where the (non-symmetric) tree fits, at the job's bytes a node
    # with every player's payoff; Monte Carlo CFR beyond, an error if exact was asked for
    three = Point(0, {}, game_def.parse("rspx:players=3,max_turns=2"))
    symmetric_asked = []

    def count3(variant, cap, symmetric):
        symmetric_asked.append(symmetric)
        return 1000 if cap >= 1000 else -1

    method, nodes, need = choose(three, settings, 8 * 1024**3, count3)
    assert (method, nodes, need) == ("exact", 1000, PROCESS_BYTES + (per_node + 24) * 1000)
    assert symmetric_asked == [False]
    assert choose(three, settings, 8 * 1024**3, lambda v, c, s: -1)[0] == "mccfr"
    with pytest.raises(GridError, match="cannot be solved exactly"):
        choose(three, SolveSettings(method="exact"), PROCESS_BYTES + per_node * 1000, count3)
    assert choose(three, SolveSettings(method="mccfr"), 8 * 1024**3, count3)[0] == "mccfr"
    locked = Point(0, {}, three.variant, lock="monk",
                   lock_lines=("respond claim=Monk: pass=1",))
    with pytest.raises(GridError, match="locked decisions of 3 players"):
        choose(locked, SolveSettings(method="mccfr"), 8 * 1024**3, count3)
    with pytest.raises(GridError, match="--mccfr-table-gb"):
        choose(point, settings, 1024**3, lambda v, c, s: -1)


@pytest.mark.parametrize("args, needles", [
    (["--grid", "strike=1,2", "--base", "rspx"], ["unknown option 'strike'", "strikes"]),
    (["--grid", "strikes=1,zero", "--base", "rspx"], ["strikes=zero", "integer"]),
    (["--grid", "strikes=0,1", "--base", "rspx"], ["strikes=0", "at least 1"]),
    (["--grid", "", "--base", "rspx"], ["grid is empty", "--grid"]),
    (["--grid", "strikes=", "--base", "rspx"], ["no values", "strikes=v1,v2"]),
    (["--grid", "players=2,4 teams=false,true", "--base", "standard"],
     ["players=2, teams=true", "team mode needs players=4"]),
    (["--grid", "max_turns=40", "--base", "standard", "--method", "exact",
      "--memory-gb", "1"], ["cannot be solved exactly", "--memory-gb"]),
    (["--grid", "strikes=1", "--base", "rspx:colour=red"], ["base variant", "'colour'"]),
    (["--grid", "strikes=1,1", "--base", "rspx"], ["repeats '1'"]),
    (["--grid", "strikes=1", "--base", "rspx:max_turns=3", "--executor", "ray", "--address",
      "127.0.0.1:1"], ["Ray cluster", "ray start --head"]),
    ([], ["--grid", "--grid-file"]),
])
def test_bad_grids_get_one_line_and_exit_2(args, needles, tmp_path):
    if "--executor" in args:
        pytest.importorskip("ray")
    result = CliRunner().invoke(cli, ["sweep", *args, "--out", str(tmp_path / "s")])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()
             and not line.startswith("robinwood: sweep ")]
    assert len(lines) == 1 and lines[0].startswith("robinwood: error:"), result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert "Traceback" not in result.output


def test_a_toml_grid_file(tmp_path):
    path = tmp_path / "grid.toml"
    path.write_text('name = "traitor"\nbase = "rspx:max_turns=3"\nseed = 3\n[grid]\n'
                    'strikes = [1, 2]\ntraitor_strikes_on_reveal = [false, true]\n'
                    '[settings]\nmccfr_seconds = 30\n')
    spec = load_toml(path)
    assert spec.name == "traitor" and spec.seed == 3 and spec.settings.mccfr_seconds == 30
    assert [p.key for p in spec.points()] == [p.key for p in small_spec().points()]
    path.write_text('[grid]\nstrikes = [1, 2]\n[settings]\nmccfr_minutes = 3\n')
    with pytest.raises(GridError, match="unknown setting 'mccfr_minutes'"):
        load_toml(path)
    path.write_text('[grid]\nstrikes = [1, 2\n')
    with pytest.raises(GridError, match="not valid TOML"):
        load_toml(path)


def test_the_process_pool_never_runs_two_big_solves_at_once():
    from sweep.executors import run_local
    from sweep.plan import Task
    from sweep_jobs import timed_job

    GiB = 1024**3

    def task(i, gib):
        return Task(i, f"v{i}", f"v{i}", "", {}, "exact", None, int(gib * GiB), 1, 0, {})

    # Two 9 GiB solves and four small ones on 2 workers within 16 GiB: the big ones
    # (sorted first) would start together if memory were ignored.
    tasks = [task(0, 9), task(1, 0.5), task(2, 9), task(3, 0.5), task(4, 0.5), task(5, 0.5)]
    ended = {}
    run_local(tasks, timed_job, lambda t, r: ended.__setitem__(t.index, r), workers=2,
              memory_budget=int(16 * GiB))
    assert sorted(ended) == list(range(6))
    big = sorted((ended[i]["start"], ended[i]["end"]) for i in (0, 2))
    assert big[0][1] <= big[1][0], "the two 9 GiB solves overlapped"
    spans = sorted((r["start"], r["end"]) for r in ended.values())
    # both workers were used: some pair of jobs overlapped
    assert any(a[1] > b[0] for a, b in zip(spans, spans[1:]))


def test_the_command_line_resumes_a_finished_sweep_without_solving(reference):
    result = CliRunner().invoke(cli, ["sweep", "--grid", GRID, "--base", BASE, "--name", NAME,
                                      "--out", str(reference.root), "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert "0 solved, 0 failed, 4 skipped" in result.output
    assert str(reference.root / "table.csv") in result.output


def test_four_players_and_teams_on_the_printed_deck_by_monte_carlo_cfr(tmp_path):
    """Tables too big for the exact solver get Monte Carlo CFR, not random play: the
    balance rows from sampled self-play of the trained table (equal to
    analysis.table_balance on the same seed), with intervals; the quality the share of
    rounds won against copies of the heuristic bot."""
    from analysis.table_balance import sampled_table_balance
    from solver.players.agents import load_table_agent

    spec = spec_from_text("teams=false,true", "standard:players=4", "tables",
                          settings=SolveSettings(method="auto", mccfr_seconds=None,
                                                 mccfr_iterations=200, rounds=2000,
                                                 quality_rounds=200))
    result = run_sweep(spec, tmp_path / "tables", workers=2, progress=False,
                       say=lambda t: None)
    t = result.table
    assert result.failed == 0 and set(t["method"]) == {"mccfr"}
    assert t["statistics"].str.startswith("sampled self-play").all()
    for text, fair in (("standard:players=4", 0.25), ("standard:players=4,teams=true", 0.5)):
        rows = t[t["variant"] == text].set_index("metric")
        assert rows["quality_measure"].iloc[0].startswith(
            "share of rounds won against copies of the heuristic bot")
        assert f"fair share {fair:g}" in rows["quality_measure"].iloc[0]
        assert rows["quality_lo"].iloc[0] < rows["quality"].iloc[0] < rows["quality_hi"].iloc[0]
        lo, value, hi = rows.loc["first_player_win_rate", ["lo", "value", "hi"]]
        assert lo < value < hi
        run = result.root / "runs" / text.replace(":", "_").replace(",", "_")
        again = sampled_table_balance(load_table_agent(run), rounds=2000,
                                      seed=int(json.loads(
                                          (run / "metadata.json").read_text())["seed"]))
        first = 0
        assert value == pytest.approx(again.side_wins[first], abs=1e-12)
    assert "random play" not in (result.root / "report.md").read_text()


def test_three_and_four_players_are_solved_exactly_where_the_tree_fits(tmp_path):
    """players=2,3,4 on a small deck: every variant exact (not random play), the 3-4
    player rows read from analysis.table_balance with NashConv as their quality."""
    from analysis.table_balance import table_balance_from_run

    spec = spec_from_text("players=2,3,4", "rspx:max_turns=2", "players")
    result = run_sweep(spec, tmp_path / "players", workers=2, progress=False,
                       say=lambda t: None)
    t = result.table
    assert result.failed == 0 and set(t["method"]) == {"exact"}
    three = t[t["variant"] == "rspx:players=3,max_turns=2"].set_index("metric")
    assert three["quality_measure"].iloc[0].startswith("NashConv (exact")
    assert 0 < three["quality"].iloc[0] < 1e-2
    balance = table_balance_from_run(result.root / "runs" / "rspx_players=3_max_turns=2")
    assert three.at["first_player_win_rate", "value"] == pytest.approx(
        balance.side_wins[0], abs=1e-12)
    assert three.at["bluff_rate", "value"] == pytest.approx(balance.rates()["bluff_rate"],
                                                           abs=1e-12)
    # the starter against the fair share, a draw 1/N; the players axis reads balance so
    draws = balance.rates()["turn_cap_rate"]
    assert three.at["starter_edge", "value"] == pytest.approx(
        balance.side_wins[0] + draws / 3 - 1 / 3, abs=1e-12)
    assert "win share minus the fair share" in (result.root / "report.md").read_text()
    assert "random play" not in (result.root / "report.md").read_text()


def test_a_lock_axis_solves_each_behaviour_exactly(tmp_path):
    """lock=none,monk: the equilibrium and the locked solve side by side, the lock's
    value of a rule measured, each locked run carrying its locks."""
    from sweep.grid import parse_lock_defs

    spec = spec_from_text("lock=none,monk", "rspmx:max_turns=2", "behaviours",
                          locks=parse_lock_defs(["monk=respond claim=Monk: pass=1"]))
    points = spec.points()
    assert [p.key for p in points] == ["rspmx:max_turns=2",
                                       "rspmx:max_turns=2 lock=monk"]
    assert points[1].lock_lines == ("respond claim=Monk: pass=1",)
    result = run_sweep(spec, tmp_path / "locks", workers=2, progress=False,
                       say=lambda t: None)
    t = result.table
    assert result.failed == 0 and set(t["method"]) == {"exact"}
    locked = t[t["variant"] == "rspmx:max_turns=2 lock=monk"]
    assert locked["quality_measure"].iloc[0] == "exploitability of the free decisions (exact)"
    meta = json.loads((result.root / "runs" / "rspmx_max_turns=2_lock=monk" /
                       "metadata.json").read_text())
    assert meta["locks"][0]["text"] == "respond claim=Monk: pass=1"
    bluffs = t[t["metric"] == "bluff_rate"].set_index("variant")["value"]
    assert bluffs["rspmx:max_turns=2 lock=monk"] != bluffs["rspmx:max_turns=2"]
    assert "lock" in (result.root / "report.md").read_text()


@pytest.mark.parametrize("grid, defs, message", [
    ("lock=none,monk", [], "lock=monk is not defined"),
    ("lock=none,monk", ["monk=respond claim=Monkk: pass=1"], "unknown card 'Monkk'"),
    ("lock=none,monk", ["monk"], "is not NAME=LOCK"),
    ("lock=none,none", [], "repeats 'none'"),
])
def test_bad_lock_axes_name_the_problem(grid, defs, message):
    from sweep.grid import parse_lock_defs

    with pytest.raises(GridError, match=message):
        spec_from_text(grid, "rspmx:max_turns=2", "x", locks=parse_lock_defs(defs))


def test_locks_need_decisions_to_lock_and_read_from_grid_files(tmp_path):
    from sweep.grid import parse_lock_defs

    monk = parse_lock_defs(["monk=respond claim=Monk: pass=1"])
    spec = spec_from_text("lock=none,monk", "rspmx:max_turns=2", "x",
                          settings=SolveSettings(method="mccfr"), locks=monk)
    assert choose(spec.points()[1], spec.settings, 8 * 1024**3)[0] == "mccfr"
    spec = spec_from_text("lock=none,monk", "rspmx:max_turns=2", "x",
                          settings=SolveSettings(method="random"), locks=monk)
    with pytest.raises(GridError, match="random play has no decisions to lock"):
        choose(spec.points()[1], spec.settings, 8 * 1024**3)
    path = tmp_path / "grid.toml"
    path.write_text('base = "rspmx:max_turns=2"\n[grid]\nlock = ["none", "monk"]\n'
                    '[locks]\nmonk = ["respond claim=Monk: pass=1"]\n')
    points = load_toml(path).points()
    assert points[1].lock == "monk" and points[1].lock_lines == ("respond claim=Monk: pass=1",)
