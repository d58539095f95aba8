"""The games the sweep package takes, by name, and the sweeps they read from text:
`spec_from_text` (a --grid string) and `load_toml` (a grid file, whose `game` key names
the game). Two games:

* `robin_wood`: the bluffing game (sweep.robin_wood); variants solved exactly or by
  Monte Carlo CFR, random play only when asked for.
* `robin_des_bois`: the treasure-stealing card game (sweep.treasure); every seat played
  by one of its players, the determinized search by default.
"""

from __future__ import annotations

from pathlib import Path

from game_def.errors import RobinWoodError

from .games import DEFAULT_GAME, SweepGame
from .grid import (GridError, SweepSpec, base_variant, check_option, check_values,
                   default_name, game_settings, parse_axes, value_text)

GAMES = ("robin_wood", "robin_des_bois")


class UnknownGameError(RobinWoodError):
    """A game name the sweep does not know (one line naming the known ones)."""


def game_named(name: str) -> SweepGame:
    """The sweep description of the game `name` (Robin des Bois's module is imported
    only when asked for, so Robin Wood's sweeps never load its numba core)."""
    if name == "robin_wood":
        from .robin_wood import GAME
    elif name == "robin_des_bois":
        from .treasure import GAME
    else:
        raise UnknownGameError(f"unknown game {name!r}; the sweep takes "
                               f"{' or '.join(GAMES)}")
    return GAME


def parse_grid(text: str, game: str = DEFAULT_GAME) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`"deck=rspx,rspmx strikes=1,2"` -> (("deck", ("rspx", "rspmx")), ("strikes", ...)),
    the options checked against the game's."""
    return parse_axes(text, game_named(game))


def spec_from_text(grid: str, base: str | None = None, name: str | None = None,
                   seed: int = 0, settings=None, locks=(),
                   game: str = DEFAULT_GAME) -> SweepSpec:
    """A SweepSpec from a --grid string and a base variant string (default: the game's
    default, `standard` for Robin Wood); `locks`: the named locks of a lock axis, as
    (name, lock lines) pairs (grid.parse_lock_defs); settings: the game's settings
    (SolveSettings for Robin Wood, treasure.PlaySettings; default: the game's defaults)."""
    description = game_named(game)
    axes = parse_axes(grid, description)
    return SweepSpec(name or default_name(axes),
                     base_variant(description.default_base if base is None else base,
                                  description),
                     axes, description, seed, settings, tuple(locks))


TOML_KEYS = ("game", "name", "base", "seed", "grid", "settings", "locks")


def load_toml(path, name: str | None = None, seed: int | None = None,
              settings_overrides: dict | None = None) -> SweepSpec:
    """A SweepSpec from a TOML file:

        game = "robin_wood"         # optional: robin_wood (default) or robin_des_bois
        name = "traitor"            # optional: sweeps/<name>
        base = "rspx:max_turns=6"   # optional: default standard
        seed = 0
        [grid]                      # the options that vary, in order
        strikes = [1, 2]
        traitor_strikes_on_reveal = [false, true]
        [settings]                  # optional: the game's settings (SolveSettings
        mccfr_seconds = 60          #   for Robin Wood, treasure.PlaySettings)
    """
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GridError(f"grid file {path} does not exist") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise GridError(f"grid file {path} is not valid TOML ({e})") from None
    unknown = sorted(set(data) - set(TOML_KEYS))
    if unknown:
        raise GridError(f"unknown key {unknown[0]!r} in {path}; known keys: "
                        f"{', '.join(TOML_KEYS)}")
    game = data.get("game", DEFAULT_GAME)
    if not isinstance(game, str):
        raise GridError(f"game in {path} must be a string such as \"robin_des_bois\"")
    description = game_named(game)
    grid = data.get("grid", {})
    if not isinstance(grid, dict):
        raise GridError(f"'grid' in {path} must be a table: [grid] then option = [values]")
    axes = []
    for option, values in grid.items():
        check_option(option, str(path), description)
        values = values if isinstance(values, list) else [values]
        axes.append((option, check_values(option, [value_text(v) for v in values],
                                          str(path))))
    raw = data.get("settings", {})
    if not isinstance(raw, dict):
        raise GridError(f"'settings' in {path} must be a table: [settings]")
    settings = game_settings(description, {**raw, **(settings_overrides or {})}, str(path))
    file_seed = data.get("seed", 0)
    if not isinstance(file_seed, int) or isinstance(file_seed, bool):
        raise GridError(f"seed in {path} must be an integer (got {file_seed!r})")
    raw_locks = data.get("locks", {})
    if not isinstance(raw_locks, dict) or not all(
            isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v))
            for v in raw_locks.values()):
        raise GridError(f"'locks' in {path} must be a table of name = [\"lock\", ...]")
    locks = tuple((k, (v,) if isinstance(v, str) else tuple(v)) for k, v in raw_locks.items())
    return SweepSpec(name or str(data.get("name") or path.stem),
                     base_variant(data.get("base", description.default_base), description),
                     tuple(axes), description, file_seed if seed is None else seed,
                     settings, locks)
