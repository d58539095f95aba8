"""Does play-time search beat its blueprint? The searcher (solver.search) and its
blueprint table, side by side against every bot and league player and against the
blueprint itself, with 95% intervals."""

from __future__ import annotations

from typing import Callable, Iterable

import pandas as pd

from solver.players.agents import BOT_NAMES, Agent, AgentError, load_agent
from solver.search import Searcher, play_search
from solver.evaluation.league import play_league

BLUEPRINT = "blueprint"


def search_league(searcher: Searcher, opponents: Iterable[str] | None = None, *,
                  rounds: int = 500, blueprint_rounds: int = 20_000, seed: int = 0,
                  progress: Callable[[str], None] | None = None) -> pd.DataFrame:
    """One row per opponent (default: every bot and league player, then `blueprint`,
    the searcher's own table): the searcher's seat-averaged payoff `search` with its
    interval over `rounds` rounds a seat, the blueprint's `blueprint` over
    `blueprint_rounds` (tournaments are cheap, searches are not), and `difference`. The
    frame's attrs hold the settings and the opponent with the worst search payoff. `progress`
    is called with each opponent's name once it is done."""
    names = list(BOT_NAMES) + [BLUEPRINT] if opponents is None else list(opponents)
    if not names:
        raise AgentError("search_league needs at least one opponent")
    blueprint = searcher.blueprint
    rows = []
    for name in names:
        opponent: Agent = blueprint if name == BLUEPRINT else load_agent(name)
        result = play_search(searcher, opponent, rounds=rounds, seed=seed)
        if opponent is blueprint:
            base_value, base_half = 0.0, 0.0   # self-play: 0 by the seats' symmetry
        else:
            frame = play_league(blueprint, rounds=blueprint_rounds, seed=seed,
                                opponents=[opponent])
            row = frame.iloc[0]
            base_value, base_half = float(row["value"]), float(row["value"] - row["value_lo"])
        counters = {key: sum(s.counters[key] for s in result.seats)
                    for key in result.seats[0].counters}
        rows.append({"opponent": opponent.name if opponent is not blueprint else BLUEPRINT,
                     "search": result.value, "search_lo": result.value - result.half_width,
                     "search_hi": result.value + result.half_width,
                     "blueprint": base_value, "blueprint_lo": base_value - base_half,
                     "blueprint_hi": base_value + base_half,
                     "difference": result.value - base_value,
                     "search_rounds_per_seat": rounds,
                     "blueprint_rounds_per_seat": 0 if opponent is blueprint
                     else blueprint_rounds,
                     "seconds": sum(s.seconds for s in result.seats), **counters})
        if progress:
            progress(name)
    frame = pd.DataFrame(rows).set_index("opponent")
    worst = frame["search"].idxmin()
    frame.attrs.update(searcher=searcher.name, variant=str(searcher.variant), seed=seed,
                       config=searcher.config.to_json(), worst=worst,
                       worst_value=float(frame.loc[worst, "search"]),
                       worst_hi=float(frame.loc[worst, "search_hi"]))
    return frame
