"""The run being explored: its strategy as an OpenSpiel policy, and what it implies at
a decision (the action probabilities; for exact two-player runs the mover's expected
value of each action and the reach probability of the situation; for Monte Carlo CFR
runs how often training visited the abstract situation). Any table size: 2-4 seats and
teams."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pyspiel

from game_def import kernels as k
from solver.store import StrategyFileError, read_metadata


@dataclasses.dataclass(frozen=True)
class Decision:
    """What the strategy says at one decision of a round."""

    mover: int
    probabilities: dict[int, float]        # legal action id -> probability
    action_values: dict[int, float] | None  # exact runs: mover's EV per action
    strategy_value: float | None           # exact runs: mover's EV of the strategy here
    reach: float | None                    # exact runs: P(this history)
    situation_reach: float | None          # exact runs: P(the mover's information state)
    value: float | None                    # exact runs: seat 0's expected payoff from here
    visits: int | None                     # MCCFR runs: training visits of the entry
    entry: int | None                      # MCCFR runs: table entry (-1: never trained)
    played_by: str | None = None           # MCCFR runs: "table", a fallback player's
                                           # name (its rules moved), "uniform" or "lock"
    locked_by: str | None = None           # runs with locks: the lock that fixes
                                           # this decision (solver.locks), None if free


# What the explorer shows for two players only, and why (docs/explorer.md, "Three and
# four seats, and teams"). Everything else works at any table size.
TWO_PLAYER_ONLY = {
    "values": "EVs and reach are two-player only: analysis.values prices a decision "
              "against a single opponent (one opponent's reach, one other seat's loss)",
    "search": "Play-time search is two-player only: solver.search models a single "
              "opponent's hand",
    "statistics": "The per-card tables are two-player only (analysis.statistics): this "
                  "is the table's balance (analysis.table_balance)",
}


class ExploredRun:
    """A solved run directory, loaded once for the explorer and `robinwood play`."""

    def __init__(self, run_dir, *, values: bool = True):
        from solver import load_strategy

        self.run_dir = Path(run_dir)
        if not self.run_dir.is_dir():
            raise StrategyFileError(f"{run_dir} is not a run directory (solve one with "
                                    f"`robinwood solve ... --out {run_dir}`)")
        self.metadata = read_metadata(self.run_dir)
        self.kind = "mccfr" if self.metadata.get("kind") == "mccfr" else "exact"
        self.policy = load_strategy(self.run_dir)
        self.game: pyspiel.Game = self.policy.game
        self.variant = self.game.variant
        self.values = None
        self.lookup = None
        # Locked decisions (solver.locks for an exact run, the trainer's settings for a
        # Monte Carlo CFR run): shown as locked.
        self.locks = ()
        texts = ([lock["text"] for lock in self.metadata.get("locks") or []]
                 or list((self.metadata.get("algorithm") or {}).get("locks") or []))
        if texts:
            from solver.locks import parse_locks

            self.locks = parse_locks(texts)
        self._searcher = None   # built on first use (searcher())
        # The policies keep scratch arrays between calls: one question at a time (the
        # server answers requests from a thread pool).
        self._lock = threading.RLock()
        if self.kind == "exact" and values and "values" not in self.two_player_only:
            from analysis.values import StrategyValues

            self.values = StrategyValues.from_run(self.run_dir)
        if self.kind == "mccfr":
            from solver.players.lookup import TableLookup

            self.lookup = TableLookup(self.policy.agent, self.run_dir)

    @property
    def name(self) -> str:
        return self.run_dir.name

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def two_player_only(self) -> dict[str, str]:
        """What this run cannot show because it is two-player only: feature -> the one-
        line reason the front end and `robinwood play` give (empty for two players)."""
        return {} if self.players == 2 else dict(TWO_PLAYER_ONLY)

    def probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The strategy's probability of each legal action at the decision `state`."""
        if state.is_chance_node() or state.is_terminal():
            raise ValueError("the strategy acts only at decisions")
        with self._lock:
            probs = self.policy.action_probabilities(state)
        return {a: float(probs.get(a, 0.0)) for a in state.legal_actions()}

    def decision(self, state: pyspiel.State) -> Decision:
        """The strategy at `state` (a decision of this run's game)."""
        mover = state.current_player()
        probs = self.probabilities(state)
        av = sv = reach = sreach = value = visits = entry = None
        with self._lock:
            if self.values is not None:
                s = self.values.situation(state.history())
                av, sv, reach, sreach, value = (s.action_values, s.strategy_value, s.reach,
                                                s.situation_reach, s.value)
            played_by = None
            if self.lookup is not None:
                entry = self.lookup.entry(state)
                visits = self.lookup.visit_count(state)
                agent = self.policy.agent
                phase = int(state.core_state[k.S_PHASE])
                if agent.rules_move(mover, phase, entry):
                    played_by = agent.fallback.player
                else:
                    played_by = "table" if entry >= 0 else "uniform"
        locked_by = None
        if self.locks:
            from solver.locks import lock_of_decision

            locked_by = lock_of_decision(self.locks, self.variant, state)
            if locked_by is not None and played_by is not None:
                played_by = "lock"   # a table agent plays a locked decision as locked
        return Decision(mover, probs, av, sv, reach, sreach, value, visits, entry, played_by,
                        locked_by)

    def situation_value(self, state: pyspiel.State) -> float | None:
        """Seat 0's expected payoff from `state` on (exact runs), else None."""
        if self.values is None:
            return None
        with self._lock:
            return self.values.situation(state.history()).value

    def searcher(self):
        """The table with play-time search (solver.search, default settings), built once;
        Monte Carlo CFR runs only."""
        if self.kind != "mccfr":
            raise StrategyFileError(f"{self.run_dir} holds an exact strategy: search plays "
                                    f"Monte Carlo CFR tables")
        if "search" in self.two_player_only:
            raise StrategyFileError(self.two_player_only["search"])
        with self._lock:
            if self._searcher is None:
                from solver.search import Searcher

                self._searcher = Searcher(self.policy.agent)
            return self._searcher

    def describe(self) -> dict:
        """A short summary of the run for the front end."""
        m = self.metadata
        out = {"name": self.name, "kind": self.kind, "variant": str(self.variant),
               "players": self.players, "teams": bool(self.variant.teams),
               "two_player_only": self.two_player_only}
        if self.kind == "exact":
            algo = m.get("algorithm", {})
            out.update(algorithm=algo.get("name") if isinstance(algo, dict) else algo,
                       iterations=m.get("iterations"),
                       exploitability=m.get("exploitability"), value=m.get("value"),
                       locks=[lock.text for lock in self.locks])
            if self.players > 2:   # beyond two seats the solve measures NashConv
                out.update(exploitability=None, nash_conv=m.get("nash_conv"))
        else:
            out.update(iterations=m.get("iterations"), seconds=m.get("seconds"),
                       infosets=m.get("infosets"),
                       visits_recorded=self.lookup.visits is not None)
        return out


def load_run(run_dir, *, values: bool = True) -> ExploredRun:
    """The run in run_dir; a missing or damaged one is a one-line StrategyFileError."""
    try:
        return ExploredRun(run_dir, values=values)
    except (KeyError, OSError) as e:
        raise StrategyFileError(f"{run_dir} cannot be explored: {type(e).__name__} "
                                f"{e}; solve again or restore it") from None
