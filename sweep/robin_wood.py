"""Robin Wood, the bluffing game (game_def), as a sweep game: its variant options are the
grid's options (and `lock`, named sets of locked decisions), and each variant is solved
by the method sweep.plan.choose picks: exact where the counted tree fits, Monte Carlo
CFR otherwise, random play only when asked for. The methods here solve one variant in a
folder and measure it (sweep.metrics).
"""

from __future__ import annotations

from pathlib import Path

from game_def.errors import VariantError
from game_def.variant import parse

from . import metrics
from .games import BarGroup, Headline, SweepGame
from .grid import AXES, SolveSettings
from .plan import Task, choose


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

GAME = SweepGame(
    name="robin_wood", title="Robin Wood",
    options=AXES, default_base="standard",
    parse=parse, variant_error=VariantError, settings=SolveSettings,
    choose=choose, methods=METHODS, metrics=metrics.METRICS,
    headlines=(Headline("first_player_value",
                        "value a round for the player who starts (+1 win, -1 loss)"),
               Headline("first_player_win_rate",
                        "P(the player who starts wins the round)", True)),
    groups=(BarGroup("rates", "Bluff and challenge rates per variant",
                     "Bluffs and challenges per variant",
                     {"bluff_rate": "P(bluff | announced)",
                      "challenge_rate": "P(challenged | announced)",
                      "challenge_right_rate": "P(bluff | challenged)"},
                     "probability"),),
    length=(Headline("mean_turns", "turns a round lasts (mean)"),
            Headline("turn_cap_rate", "P(the round reaches the turn cap): a draw", True)),
    fair_headline=Headline("starter_edge", "the starter's win share minus the fair share "
                                          "1/N (a draw counts 1/N)"),
    fair_axes=("players", "teams"),
    complete=lambda table: metrics.with_starter_edge(table, parse),
    effect_metrics={"first_player_value": "first player's value",
                    "starter_edge": "starter's edge over the fair share",
                    "first_player_win_rate": "first player's win rate",
                    "bluff_rate": "bluff rate", "challenge_rate": "challenge rate",
                    "mean_turns": "mean turns", "turn_cap_rate": "turn-cap rate"},
    effect_words=(("bluff_rate", "the bluff rate"),
                  ("challenge_rate", "the challenge rate"),
                  ("mean_turns", "the round length"),
                  ("turn_cap_rate", "the turn-cap (draw) rate")),
    method_words={
        "exact": "solved exactly (DCFR to the target exploitability, NashConv "
                 "divided by the players; statistics over every deal)",
        "mccfr": "solved by Monte Carlo CFR (chosen when the tree does not fit the "
                 "memory budget, or asked for; statistics from sampled self-play, "
                 "with 95% intervals)",
        "random": "measured by random play only (uniformly random legal moves, as "
                  "asked for; these numbers describe the rules under random moves, "
                  "not good play)"},
    method_names={"exact": "exact solve", "mccfr": "Monte Carlo CFR (sampled)",
                  "random": "random play (not a strategy)"})
