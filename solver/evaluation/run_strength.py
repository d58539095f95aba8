"""What `robinwood exploit` and `robinwood search` measure on a run directory, as library
calls a notebook makes alike: `measure_run` picks the measurement that fits the run and
writes its file (solver.evaluation.run_files), `search_run` plays the run's table with
play-time search.

- two players, Monte Carlo CFR: every opponent, the local best response and an optional
  trained exploiter against the table agent (`measure`), into strength.json;
- 3-4 players or teams, exact: the strategy in each seat against copies of every
  scripted player, exactly (`table_strength`), into table_strength.json;
- 3-4 players or teams, Monte Carlo CFR: the same by play (`table_play`), with the
  held-out players, copies of its own fallback rules and its coverage as parts.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Sequence

import pandas as pd

from solver.evaluation.run_files import (table_part, write_search, write_strength,
                                         write_table_strength)
from solver.evaluation.strength import LBR_CONTINUATIONS, StrengthReport, measure
from solver.evaluation.table_play import TablePlay, table_coverage, table_play
from solver.evaluation.table_strength import TableStrength, table_strength
from solver.players.agents import AUTO_FALLBACK, Agent, AgentError, load_table_agent
from solver.store import players_of, read_metadata

Say = Callable[[str], None]


@dataclasses.dataclass(frozen=True)
class TablePlayParts:
    """A 3-4 player or team table measured by play: against copies of each scripted
    player, of each held-out player, of its own fallback rules (None without fallback),
    and its self-play coverage by decision kind."""

    strategy: Agent
    scripted: TablePlay
    held_out: TablePlay
    fallback_rules: TablePlay | None
    coverage: pd.DataFrame


@dataclasses.dataclass(frozen=True)
class RunStrength:
    """What `measure_run` measured and wrote: exactly one of `two_player` (a
    StrengthReport), `exact` (a TableStrength) or `by_play` (TablePlayParts) is set;
    `data` is the file's contents and `path` where it was written."""

    path: Path
    data: dict
    strategy: Agent | None = None
    two_player: StrengthReport | None = None
    exact: TableStrength | None = None
    by_play: TablePlayParts | None = None


def measure_run(run_dir, *, rounds: int = 20_000, seed: int = 0,
                fallback=AUTO_FALLBACK, exploiter_seconds: float | None = None,
                exploiter_iterations: int | None = None, lbr_rounds: int = 1000,
                lbr_continuations: Sequence[str] = LBR_CONTINUATIONS,
                holdout_rounds: int | None = None, split_runs: str = "replay",
                say: Say | None = None) -> RunStrength:
    """Measure the strategy in run_dir the way that fits it (module docstring) and write
    the result beside it. `rounds` and `seed` are the sample of every by-play
    measurement; the exploiter budget, the local best response and the held-out replay
    apply to two-player tables, and asking for an exploiter at a bigger table is an
    AgentError (it plays two-player rounds)."""
    say = say or (lambda text: None)
    metadata = read_metadata(run_dir)
    players = players_of(run_dir)
    if players > 2 and (exploiter_seconds is not None or exploiter_iterations is not None):
        raise AgentError("the trained exploiter plays two-player rounds; at 3-4 players "
                         "and in teams measure without an exploiter budget")
    if metadata.get("kind") != "mccfr" and players > 2:
        return _exact_table(run_dir, say)
    strategy = load_table_agent(run_dir, fallback)
    if players > 2:
        return _table_by_play(run_dir, strategy, rounds, seed, say)
    report = measure(strategy, rounds=rounds, seed=seed,
                     exploiter_seconds=exploiter_seconds,
                     exploiter_iterations=exploiter_iterations, lbr_rounds=lbr_rounds,
                     lbr_continuations=tuple(lbr_continuations),
                     holdout_rounds=holdout_rounds, split_runs=split_runs, say=say)
    data = report.to_json()
    return RunStrength(write_strength(run_dir, data), data, strategy, two_player=report)


def _exact_table(run_dir, say: Say) -> RunStrength:
    """An exact 3-4 player or team strategy in each seat against copies of every table
    player, exactly (solver.evaluation.table_strength)."""
    from solver.exact.stored import load_exact_run

    variant, tree, strategy, _ = load_exact_run(run_dir)  # never symmetric beyond 2
    say(f"{variant}: the strategy in each seat against copies of each table player, "
        f"exactly")
    result = table_strength(variant, tree, strategy)
    data = {"variant": str(variant), "fair_share": result.fair_share,
            "rows": result.rows.to_dict(orient="records"),
            "summary": table_part(result.summary(), 0)["summary"]}
    return RunStrength(write_table_strength(run_dir, data), data, exact=result)


def _table_by_play(run_dir, strategy: Agent, rounds: int, seed: int,
                   say: Say) -> RunStrength:
    """A Monte Carlo CFR table of 3-4 players or teams in each seat (pair) against copies
    of every scripted player, then of each held-out player (never a training opponent),
    then of its own fallback rules (does the table add to them? docs/nplayer.md), and its
    self-play coverage; each part from its own seed."""
    from solver.scripted import HELD_OUT_NAMES

    scripted = table_play(strategy.variant, strategy, rounds=rounds, seed=seed,
                          progress=say)
    held_out = table_play(strategy.variant, strategy, opponents=HELD_OUT_NAMES,
                          rounds=rounds, seed=seed + 1, progress=say)
    own = (None if strategy.fallback is None else
           table_play(strategy.variant, strategy, opponents=(strategy.fallback.player,),
                      rounds=rounds, seed=seed + 2, progress=say))
    coverage = table_coverage(strategy, rounds=rounds, seed=seed + 3)
    parts = TablePlayParts(strategy, scripted, held_out, own, coverage)
    data = scripted.to_json()
    data["fallback"] = None if strategy.fallback is None else str(strategy.fallback)
    data["coverage"] = {"rounds": rounds, **table_part(coverage, seed + 3)}
    data["rounds"] = rounds
    data["seed"] = seed
    data["summary"] = table_part(scripted.summary(), seed)["summary"]
    data["held_out"] = table_part(held_out.summary(), seed + 1,
                                  held_out.to_json()["rows"])
    if own is not None:
        data["fallback_rules"] = table_part(own.summary(), seed + 2, own.to_json()["rows"])
    return RunStrength(write_table_strength(run_dir, data), data, strategy,
                       by_play=parts)


@dataclasses.dataclass(frozen=True)
class SearchRun:
    """What `search_run` measured and wrote to search.json."""

    path: Path
    data: dict
    searcher: object
    table: pd.DataFrame
    bounds: tuple


def search_run(run_dir, opponents: Sequence[str] = (), *, rounds: int = 500,
               blueprint_rounds: int = 20_000, particles: int = 128, rollouts: int = 24,
               kinds: Sequence[str] = ("turn", "power"), lbr_rounds: int = 0,
               seed: int = 0, fallback=AUTO_FALLBACK,
               progress: Say | None = None, say: Say | None = None) -> SearchRun:
    """The Monte Carlo CFR table in run_dir played with play-time search (docs/search.md)
    against every bot and league player and its own table ("blueprint"), or against
    `opponents`, beside the table without search; with `lbr_rounds`, a local best
    response that models the searcher by its blueprint, against the searcher and against
    the blueprint. Every setting and opponent is checked before any round is played;
    writes RUN/search.json."""
    from solver.evaluation.search_strength import BLUEPRINT, search_league
    from solver.players.agents import BOT_NAMES, load_agent
    from solver.search import SearchConfig, Searcher

    say = say or (lambda text: None)
    config = SearchConfig(particles=particles, rollouts=rollouts, kinds=tuple(kinds))
    for name in opponents:
        if name != BLUEPRINT:
            load_agent(name)
    searcher = Searcher(load_table_agent(run_dir, fallback), config)
    names = list(opponents) or list(BOT_NAMES) + [BLUEPRINT]
    frame = search_league(searcher, names, rounds=rounds,
                          blueprint_rounds=blueprint_rounds, seed=seed, progress=progress)
    data = {**frame.attrs, "opponents": frame.reset_index().to_dict(orient="records")}
    bounds = []
    if lbr_rounds:
        from solver.evaluation.search_lbr import against_blueprint, search_lbr

        for opponent in (searcher, against_blueprint(searcher)):
            say(f"local best response against {opponent.name} ({lbr_rounds:,} rounds a "
                f"seat)")
            bounds.append(search_lbr(opponent, rounds=lbr_rounds, seed=seed,
                                     particles=particles, rollouts=rollouts))
        data["local_best_response"] = [b.to_json() for b in bounds]
    return SearchRun(write_search(run_dir, data), data, searcher, frame, tuple(bounds))
