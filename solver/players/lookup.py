"""Where a decision lands in a Monte Carlo CFR table: its entry (one abstract situation)
and how often training visited that entry, when the run recorded it.

Visit counts are stored by the trainer as `seat{s}_visits` in table.npz (int64, one per
entry, aligned with `seat{s}_keys`; table format 2); a file whose counts are missing or
do not fit its keys gets None rather than a wrong number.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel

from game_def.core import rules_array

from solver.players import _lookup as kt
from solver.players.agents import Agent


class TableLookup:
    """Entries and visit counts of a table agent's decisions on OpenSpiel states."""

    def __init__(self, agent: Agent, run_dir=None):
        if agent.variant is None:
            raise ValueError(f"{agent.name} is a bot: it has no table to look up")
        self.agent = agent
        self.rules = rules_array(agent.variant)
        self.visits = _read_visits(Path(run_dir), agent) if run_dir is not None else None

    def entry(self, state: pyspiel.State) -> int:
        """The entry the mover's table reads at `state`, or -1 (an unseen situation)."""
        if state.is_chance_node() or state.is_terminal():
            raise ValueError("only decisions read the table")
        history = np.array(state.history(), dtype=np.int64)
        player = self.agent.player(state.current_player())
        return int(kt._entry_at(self.rules, history, player))

    def visit_count(self, state: pyspiel.State) -> int | None:
        """Training visits of the entry read at `state` (0 for an unseen situation), or
        None when the run did not record visits."""
        if self.visits is None:
            return None
        e = self.entry(state)
        return 0 if e < 0 else int(self.visits[state.current_player()][e])


def _read_visits(run_dir: Path, agent: Agent):
    """Per seat, the visits array aligned with the seat's keys; None if any is absent
    or does not fit the table (then nothing is shown rather than something wrong)."""
    try:
        with np.load(run_dir / "table.npz", allow_pickle=False) as data:
            names = [f"seat{s}_visits" for s in range(agent.variant.players)]
            if not all(name in data.files for name in names):
                return None
            visits = [np.asarray(data[name], dtype=np.int64) for name in names]
    except Exception:
        return None
    for s, v in enumerate(visits):
        if len(v) != len(agent.table(s)[1]):
            return None
    return visits
