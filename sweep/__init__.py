"""What-if sweeps: one command over a grid of variants, each solved by the method that
fits (exact where the tree fits, Monte Carlo CFR otherwise, at any player count; random
play only when asked for), with a tidy table of metrics, the value of each
rule and a report (docs/sweeps.md). The package takes either game (sweep.catalogue):
Robin Wood by default, Robin des Bois with game="robin_des_bois", whose variants are
played by one of its players in every seat (sweep.treasure).

    from sweep import spec_from_text, run_sweep
    spec = spec_from_text("strikes=1,2 traitor_strikes_on_reveal=false,true",
                          base="rspx:max_turns=4", name="traitor")
    result = run_sweep(spec)          # -> sweeps/traitor/
    result.table                      # one row per variant and metric
    box = spec_from_text("players=2,3 copies=2,3", game="robin_des_bois", name="box")
"""

from .effects import rule_effects
from .catalogue import GAMES, game_named, load_toml, parse_grid, spec_from_text
from .games import SweepGame
from .grid import GridError, SolveSettings, SweepSpec
from .run import SweepResult, run_sweep

__all__ = ["GAMES", "GridError", "SolveSettings", "SweepGame", "SweepResult", "SweepSpec",
           "game_named", "load_toml", "parse_grid", "rule_effects", "run_sweep",
           "spec_from_text"]
