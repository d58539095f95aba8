"""What-if sweeps: one command over a grid of variants, each solved by the method that
fits (exact where the tree fits, Monte Carlo CFR otherwise, at any player count; random
play only when asked for), with a tidy table of metrics, the value of each
rule and a report (docs/sweeps.md).

    from sweep import spec_from_text, run_sweep
    spec = spec_from_text("strikes=1,2 traitor_strikes_on_reveal=false,true",
                          base="rspx:max_turns=4", name="traitor")
    result = run_sweep(spec)          # -> sweeps/traitor/
    result.table                      # one row per variant and metric
"""

from .effects import rule_effects
from .grid import GridError, SolveSettings, SweepSpec, load_toml, parse_grid, spec_from_text
from .run import SweepResult, run_sweep

__all__ = ["GridError", "SolveSettings", "SweepResult", "SweepSpec", "load_toml",
           "parse_grid", "rule_effects", "run_sweep", "spec_from_text"]
