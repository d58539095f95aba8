"""The measurement files of a run directory, each written and read in this one module:

- `strength.json`: a two-player Monte Carlo CFR strategy against every opponent, the
  local best response and the lower bound on exploitability (`measure_run`);
- `table_strength.json`: a strategy of 3-4 players or teams in each seat against copies
  of every scripted player (exactly for exact runs, by play for Monte Carlo CFR runs,
  with its held-out players, its fallback rules' copies and its coverage as parts);
- `search.json`: the strategy played with play-time search (`search_run`).

A win share in table_strength.json counts a drawn round as 1/N of a win (1/2 a team's),
exact and by play alike; every file written says so in its `draws` field. A file
without it was written before 2026-12-06: by play it counted a draw 1/N already, exactly
it counted a draw as 0, and its reader says so (`draws` in the data and in every
summary frame it reads).

Each is written atomically (solver.store) and read back as the reports read it: a
missing file is None, a damaged one a `MeasurementFileError` naming the command that
writes it again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd

from game_def.errors import RobinWoodError
from solver.store import atomic_write_bytes

STRENGTH = "strength.json"
TABLE_STRENGTH = "table_strength.json"
SEARCH = "search.json"
# how a win share in table_strength.json counts a draw, as its `draws` field says
DRAWS = "a draw counts 1/N of a win (1/2 for a team)"
OLD_EXACT_DRAWS = ("a draw counts 0 (exact file written before 2026-12-06; "
                   "`robinwood exploit RUN` writes it again with a draw as 1/N)")
OLD_PLAY_DRAWS = "a draw counts 1/N of a win (by play, written before 2026-12-06)"
# the parts of table_strength.json besides its main summary
TABLE_PARTS = ("held_out", "fallback_rules", "coverage")


class MeasurementFileError(RobinWoodError):
    """A measurement file that exists but cannot be read."""


def _write(run_dir, name: str, data: dict) -> Path:
    path = Path(run_dir) / name
    atomic_write_bytes(path, json.dumps(data, indent=2).encode())
    return path


def _damaged(path: Path, command: str, run_dir) -> MeasurementFileError:
    return MeasurementFileError(f"{path} is damaged; write it again with `robinwood "
                                f"{command} {os.fsdecode(run_dir)}`")


def write_strength(run_dir, data: dict) -> Path:
    """Write RUN/strength.json (a StrengthReport's to_json())."""
    return _write(run_dir, STRENGTH, data)


def read_strength(run_dir) -> dict | None:
    """RUN/strength.json, or None when it was never written."""
    path = Path(run_dir) / STRENGTH
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        data["opponents"], data["exploitability_lower_bound"]
    except (ValueError, KeyError, TypeError):
        raise _damaged(path, "exploit", run_dir) from None
    return data


def write_search(run_dir, data: dict) -> Path:
    """Write RUN/search.json (the searcher's league table and local best responses)."""
    return _write(run_dir, SEARCH, data)


def read_search(run_dir) -> dict | None:
    """RUN/search.json, or None when it was never written."""
    path = Path(run_dir) / SEARCH
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        for row in data["opponents"]:
            row["opponent"], row["search"], row["search_lo"], row["blueprint"]
        data["searcher"]
    except (ValueError, KeyError, TypeError):
        raise _damaged(path, "search", run_dir) from None
    return data


def table_part(frame: pd.DataFrame, seed: int, rows: list | None = None) -> dict:
    """One measured part of table_strength.json: its per-opponent summary, the seed that
    measured it and, when given, its per-seat rows."""
    out = {} if rows is None else {"rows": rows}
    return {**out, "seed": seed, "summary": json.loads(frame.to_json(orient="index"))}


def write_table_strength(run_dir, data: dict) -> Path:
    """Write RUN/table_strength.json: `rows` and `summary` (the strategy against copies of
    each scripted player), and optionally the parts of TABLE_PARTS (`table_part`);
    stamped (in `data` too) with how a win share counts a draw (`draws`)."""
    data["draws"] = DRAWS
    return _write(run_dir, TABLE_STRENGTH, data)


def draws_rule(data: dict) -> str:
    """How the win shares of a table_strength.json's data count a draw: its `draws`
    field, or for a file written before the field, what its method did."""
    if "draws" in data:
        return str(data["draws"])
    return OLD_PLAY_DRAWS if data.get("method") == "play" else OLD_EXACT_DRAWS


def read_table_strength_data(run_dir) -> dict | None:
    """RUN/table_strength.json as written, or None when it was never written; `draws`
    says how its win shares count a draw (draws_rule: files written before the field
    get what their method did)."""
    path = Path(run_dir) / TABLE_STRENGTH
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        data["summary"]
        data["draws"] = draws_rule(data)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise _damaged(path, "exploit", run_dir) from None
    return data


def read_table_strength(run_dir, part: str | None = None) -> pd.DataFrame | None:
    """RUN/table_strength.json's summary per opponent, or None when it was never written;
    part="held_out", "fallback_rules" or "coverage": that part's summary (None when the
    file has none: exact runs and files written before the part existed). Every frame
    has a `draws` column: how its win shares count a draw (an exact file written before
    2026-12-06 counted it as 0, and says so)."""
    if part is not None and part not in TABLE_PARTS:
        raise ValueError(f"{part!r} is not a part of {TABLE_STRENGTH}: "
                         f"{', '.join(TABLE_PARTS)}")
    data = read_table_strength_data(run_dir)
    if data is None:
        return None
    path = Path(run_dir) / TABLE_STRENGTH
    data_draws = data["draws"]
    try:
        if part is not None:
            if part not in data:
                return None
            data = data[part]
        frame = pd.DataFrame.from_dict(data["summary"], orient="index")
    except (ValueError, KeyError, TypeError):
        raise _damaged(path, "exploit", run_dir) from None
    frame.index.name = "opponent"
    frame["draws"] = data_draws
    return frame
