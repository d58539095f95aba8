"""Any strategy file as an OpenSpiel policy: one loader for both kinds of run (an exact
solve's strategy.npz, a Monte Carlo CFR table.npz), so that callers never need to know
which solver made a run, and neither solver package needs to know the players."""

from __future__ import annotations

import os

import game_def
from solver.exact.policy import StrategyPolicy
from solver.exact.stored import StoredStrategy
from solver.exact.symmetry import PositionSymmetry
from solver.players.agents import AgentPolicy, load_table_agent
from solver.store import StrategyFileError, read_metadata


def load_strategy(run_dir: str | os.PathLike, game=None):
    """The strategy in run_dir as an OpenSpiel policy bound to the game in its metadata.

    Passing `game` checks that it is the same variant: a mismatch is an error, never a
    silent lookup into the wrong game.
    """
    if read_metadata(run_dir).get("kind") == "mccfr":
        return _load_mccfr_policy(run_dir, game)
    stored = StoredStrategy(run_dir)
    variant = game_def.parse(stored.metadata["variant"])
    if game is not None:
        other = getattr(game, "variant", None)
        if other != variant:
            raise StrategyFileError(f"the strategy in {run_dir} was solved for "
                                    f"{variant}, not for {other or game}")
    else:
        game = game_def.load_game(variant)
    symmetry = None
    if stored.metadata.get("symmetric"):
        symmetry = PositionSymmetry(variant)
    policy = StrategyPolicy(game, stored.table(), symmetry)
    policy.metadata = stored.metadata
    return policy


def _load_mccfr_policy(run_dir, game):
    """A Monte Carlo CFR table as an OpenSpiel policy (solver.agents.AgentPolicy)."""
    agent = load_table_agent(run_dir)
    if game is not None:
        other = getattr(game, "variant", None)
        if other != agent.variant:
            raise StrategyFileError(f"the strategy in {run_dir} was trained for "
                                    f"{agent.variant}, not for {other or game}")
    else:
        game = game_def.load_game(agent.variant)
    policy = AgentPolicy(game, agent)
    policy.metadata = agent.metadata
    return policy
