"""Small solved runs for the explorer's tests: exact ones on reduced decks (duel6 for two
turns, with the Deputy's shuffle and the Companion; rspx for four turns, whose rounds are
mostly won rather than drawn) and a Monte Carlo CFR one; beyond two seats, an exact
three-player run and a Monte Carlo CFR team run (with the Innkeeper), each built in a
few seconds once per session."""

from __future__ import annotations

import numpy as np
import pytest

import game_def
from solver.exact.cfr import algorithm
from solver.mccfr.trainer import MCCFRConfig
from solver.mccfr.job import solve_mccfr
from solver.exact.job import SolveConfig, solve

EXACT = "duel6:max_turns=2"
LONGER = "rspx:max_turns=4"   # rounds long enough to be won, not drawn at the cap
MCCFR = "rspx:max_turns=3"
# Beyond two seats. Three turns, so that every seat of three gets a turn; the team game
# by Monte Carlo CFR, since its exact tree passes 200 million nodes from three turns on
# and with two turns the fourth seat rarely decides.
TABLE3 = "rspx:players=3,max_turns=3"
TEAM = "Robin+Sheriff+Peasant+Innkeeper+Traitor:players=4,teams=true,max_turns=6"


@pytest.fixture(scope="session")
def exact_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("explore") / "duel6"
    solve(SolveConfig(game_def.parse(EXACT), algorithm("dcfr"), out, max_iterations=150))
    return out


@pytest.fixture(scope="session")
def longer_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("explore") / "rspx4"
    solve(SolveConfig(game_def.parse(LONGER), algorithm("dcfr"), out, max_iterations=150))
    return out


@pytest.fixture(scope="session")
def mccfr_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("explore") / "mccfr"
    solve_mccfr(MCCFRConfig(game_def.parse(MCCFR), batch_iterations=50), out,
                max_iterations=300)
    return out


@pytest.fixture(scope="session")
def table3_run(tmp_path_factory):
    """Three players, solved exactly (DCFR, NashConv about 1e-5)."""
    out = tmp_path_factory.mktemp("explore") / "rspx3p"
    solve(SolveConfig(game_def.parse(TABLE3), algorithm("dcfr"), out, max_iterations=100))
    return out


@pytest.fixture(scope="session")
def team_run(tmp_path_factory):
    """Two teams of two (seats 0+2 against 1+3) with the Innkeeper: Monte Carlo CFR, 300
    traversals a seat."""
    out = tmp_path_factory.mktemp("explore") / "team"
    solve_mccfr(MCCFRConfig(game_def.parse(TEAM), batch_iterations=50), out,
                max_iterations=300)
    return out


@pytest.fixture(scope="session")
def mccfr_run_with_visits(mccfr_run, tmp_path_factory):
    """The same table with made-up `seat{s}_visits` arrays (entry e of seat s visited
    1000 * s + e + 1 times), so that the page is seen to show the file's counts."""
    out = tmp_path_factory.mktemp("explore") / "mccfr-visits"
    out.mkdir()
    (out / "metadata.json").write_bytes((mccfr_run / "metadata.json").read_bytes())
    with np.load(mccfr_run / "table.npz") as data:
        arrays = {name: data[name] for name in data.files}
    for s in (0, 1):
        arrays[f"seat{s}_visits"] = 1000 * s + np.arange(len(arrays[f"seat{s}_keys"]),
                                                         dtype=np.int64) + 1
    np.savez(out / "table.npz", **arrays)
    return out
