"""One variant's job, run by a worker (a process-pool process or a Ray task): solve by
the planned method, measure, and hand back the metric rows and the run directory's files.

The job solves in a private temporary folder and returns the files as bytes, so the
driver alone writes into sweeps/<name>/ (atomically) and a Ray worker on another
machine needs no shared disk. The resumable state (checkpoint.npz) is left out: a
finished variant is never resumed, only skipped.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import traceback
from pathlib import Path

from game_def.variant import parse

from . import metrics
from .plan import Task

LEFT_OUT = ("checkpoint.npz",)


def _exact(task: Task, out: Path) -> dict:
    from analysis import profile_statistics_from_run
    from solver.exact.cfr import algorithm
    from solver.exact.job import SolveConfig, solve

    s = task.settings
    locks = None
    if task.lock_lines:
        from solver.locks import LockSet, parse_locks

        locks = LockSet(parse_locks(task.lock_lines))
    summary = solve(SolveConfig(
        variant=parse(task.variant_text), algo=algorithm("dcfr"), out=out, locks=locks,
        target_exploitability=s["exact_target"], max_iterations=s["exact_max_iterations"],
        eval_every_iterations=s["exact_eval_every"], checkpoint_seconds=1e9,
        seed=task.seed))
    if summary["players"] == 2:
        stats = profile_statistics_from_run(out)
        stats.export(out / "tables")
        rows, quality_measure, quality = (metrics.from_profile(stats),
                                          "exploitability of the free decisions (exact)"
                                          if task.lock_lines else "exploitability (exact)",
                                          summary["exploitability"])
    else:  # 3-4 players, teams: the balance tables of any table size
        from analysis.table_balance import table_balance_from_run

        balance = table_balance_from_run(out)
        balance.export(out / "tables")
        rows, quality_measure, quality = (metrics.from_table_balance(balance),
                                          "NashConv (exact; CFR need not reach a Nash "
                                          "equilibrium beyond two players)",
                                          summary["nash_conv"])
    return {"rows": rows,
            "statistics": "exact (every deal, reach-weighted)",
            "quality_measure": quality_measure,
            "quality": quality, "quality_lo": float("nan"),
            "quality_hi": float("nan"),
            "solver": f"DCFR, {summary['iterations']} iterations",
            "peak_memory_bytes": summary["peak_memory_bytes"]}


def _mccfr(task: Task, out: Path) -> dict:
    from analysis import profile_statistics_sampled
    from solver.players.agents import bot, load_table_agent
    from solver.mccfr.trainer import MCCFRConfig
    from solver.mccfr.job import solve_mccfr
    from solver.evaluation.tournament import head_to_head

    s = task.settings
    variant = parse(task.variant_text)
    config = MCCFRConfig(variant, workers=s["mccfr_workers"], seed=task.seed,
                         max_table_bytes=int(s["mccfr_table_gb"] * 1024**3),
                         locks=task.lock_lines)
    iterations = s["mccfr_iterations"]
    summary = solve_mccfr(config, out, max_iterations=iterations,
                          max_seconds=None if iterations else s["mccfr_seconds"],
                          checkpoint_seconds=1e9, report_seconds=1e9)
    budget = (f"{iterations:,} traversals per seat" if iterations else
              f"{summary['seconds']:.0f} s, {summary['iterations']:,} traversals per seat")
    if variant.players > 2:
        return _mccfr_table(task, out, variant, summary, budget)
    stats = profile_statistics_sampled(out, rounds=s["rounds"], seed=task.seed)
    stats.export(out / "tables")
    match = head_to_head(variant, load_table_agent(out), bot("heuristic"),
                         rounds=s["quality_rounds"], seed=task.seed)
    # Both seats pooled: the mean of two independent seat means.
    halves = [(hi - lo) / 2 for lo, hi in (seat.value_interval() for seat in match.seats)]
    half = (halves[0] ** 2 + halves[1] ** 2) ** 0.5 / 2
    return {"rows": metrics.from_profile(stats),
            "statistics": f"sampled self-play, {s['rounds']:,} rounds",
            "quality_measure": "value against the heuristic bot, both seats" + (
                " (locked decisions played as locked)" if task.lock_lines else ""),
            "quality": match.value, "quality_lo": match.value - half,
            "quality_hi": match.value + half,
            "solver": f"Monte Carlo CFR, {budget}",
            "peak_memory_bytes": summary["peak_memory_bytes"]}


def _mccfr_table(task: Task, out: Path, variant, summary: dict, budget: str) -> dict:
    """3-4 players and teams: balance from sampled self-play of the trained table
    (analysis.table_balance), quality the strategy's seat-averaged share of rounds won
    against copies of the heuristic bot (solver.evaluation.table_play; fair share 1/N,
    1/2 for a team)."""
    from analysis.table_balance import sampled_table_balance
    from solver.evaluation.table_play import table_play
    from solver.players.agents import load_table_agent

    s = task.settings
    agent = load_table_agent(out)
    balance = sampled_table_balance(agent, rounds=s["rounds"], seed=task.seed)
    balance.export(out / "tables")
    play = table_play(variant, agent, opponents=("heuristic",),
                      rounds=s["quality_rounds"], seed=task.seed)
    row = play.summary().loc["heuristic"]
    return {"rows": metrics.from_table_balance(balance),
            "statistics": f"sampled self-play, {s['rounds']:,} rounds",
            "quality_measure": f"share of rounds won against copies of the heuristic bot, "
                               f"every seat (fair share {play.fair_share:.3g})",
            "quality": float(row["win_share"]), "quality_lo": float(row["low"]),
            "quality_hi": float(row["high"]),
            "solver": f"Monte Carlo CFR, {budget}",
            "peak_memory_bytes": summary["peak_memory_bytes"]}


def _random(task: Task, out: Path) -> dict:
    import json

    from game_def.simulate import simulate
    from solver.exact.job import peak_memory_bytes
    from solver.store import atomic_write_bytes

    variant = parse(task.variant_text)
    result = simulate(variant, task.settings["rounds"], seed=task.seed)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out / "simulation.json",
                       json.dumps(result.to_json(), indent=2).encode())
    why = "random play asked for"
    return {"rows": metrics.from_simulation(result, variant.first_player, variant.teams),
            "statistics": f"random play (uniform legal moves, not a strategy; {why}), "
                          f"{task.settings['rounds']:,} rounds",
            "quality_measure": "none (random play)", "quality": float("nan"),
            "quality_lo": float("nan"), "quality_hi": float("nan"),
            "solver": "none: random play", "peak_memory_bytes": peak_memory_bytes()}


METHODS = {"exact": _exact, "mccfr": _mccfr, "random": _random}


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or "no message"
    return f"{type(error).__name__}: {text}"[:400]


def _ray_resources() -> dict | None:
    """The CPU and memory Ray assigned to this task (None outside a Ray worker)."""
    import sys

    ray = sys.modules.get("ray")
    if ray is None or not ray.is_initialized():
        return None
    try:
        return dict(ray.get_runtime_context().get_assigned_resources())
    except Exception:  # not in a task (a driver that imported ray)
        return None


def run_task(task_json: dict) -> dict:
    """Solve and measure one variant; never raises for the variant's own failures: a
    failure comes back as status 'failed' with a one-line error."""
    task = Task.from_json(task_json)
    start = time.perf_counter()
    scratch = Path(tempfile.mkdtemp(prefix=f"robinwood-sweep-{task.slug[:40]}-"))
    try:
        out = scratch / task.slug
        measured = METHODS[task.method](task, out)
        files = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
                 if p.is_file() and p.name not in LEFT_OUT}
        return {"status": "done", "files": files, "wall_seconds": time.perf_counter() - start,
                "ray_resources": _ray_resources(), **measured}
    except Exception as e:  # the variant's failure, recorded; the sweep goes on
        return {"status": "failed", "error": _one_line(e), "traceback": traceback.format_exc(),
                "wall_seconds": time.perf_counter() - start}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
