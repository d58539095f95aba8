"""A sweep's grid: a game, a base variant and the options that vary, from a command-line
string (`"deck=rspx,rspmx strikes=1,2 max_turns=6"`) or a TOML file, expanded into the
variants it names. Every problem is a one-line GridError naming the bad part and the fix.
The game (a sweep.games.SweepGame; sweep.catalogue names them and reads grids given as
text or TOML) decides the options, the variants' spelling and the settings.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from typing import Any

from game_def.errors import RobinWoodError, VariantError
from game_def.variant import PARAMETER_DEFAULTS

from .games import DEFAULT_GAME, SweepGame

# Robin Wood's grid options (sweep.robin_wood); other games bring their own.
OPTIONS = tuple(PARAMETER_DEFAULTS)  # deck, players, teams, strikes, max_turns, ...
# `lock` is an axis of behaviours, not a rule: its values name sets of locked decisions
# (solver.locks) defined beside the grid (--lock-def, or a [locks] table); `none` is the
# equilibrium, without locks.
LOCK = "lock"
NO_LOCK = "none"
AXES = OPTIONS + (LOCK,)
METHODS = ("auto", "exact", "mccfr", "random")


class GridError(RobinWoodError):
    """A grid that cannot be swept (one line: what is wrong and how to fix it)."""


@dataclasses.dataclass(frozen=True)
class SolveSettings:
    """How each variant is solved and measured; recorded with every row, so a rerun
    with other settings solves again instead of reusing rows.

    method: auto picks exact when the counted tree fits the memory budget, Monte Carlo
    CFR otherwise (any table size); random play only when asked for.
    Exact: DCFR, exploitability measured every `exact_eval_every` iterations (a stopping
    point that depends on iterations, not on speed) until `exact_target` or
    `exact_max_iterations`. Monte Carlo CFR: `mccfr_iterations` traversals per seat
    (reproducible) or else `mccfr_seconds` of training; statistics from `rounds`
    sampled self-play rounds; quality from `quality_rounds` rounds per seat against the
    heuristic bot. Random play: `rounds` rounds of uniformly random legal moves.
    """

    method: str = "auto"
    exact_target: float = 1e-3
    exact_eval_every: int = 25
    exact_max_iterations: int = 20_000
    mccfr_seconds: float | None = 60.0
    mccfr_iterations: int | None = None
    mccfr_table_gb: float = 2.0
    mccfr_workers: int = 1
    rounds: int = 20_000
    quality_rounds: int = 5_000

    def __post_init__(self):
        if self.method not in METHODS:
            raise GridError(f"unknown method {self.method!r}; choose one of "
                            f"{', '.join(METHODS)}")
        positive = {"exact_target": self.exact_target, "exact_eval_every": self.exact_eval_every,
                    "exact_max_iterations": self.exact_max_iterations,
                    "mccfr_table_gb": self.mccfr_table_gb, "rounds": self.rounds,
                    "quality_rounds": self.quality_rounds}
        for name, value in positive.items():
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
                raise GridError(f"{name} must be a positive number (got {value!r})")
        if self.mccfr_seconds is None and self.mccfr_iterations is None:
            raise GridError("give Monte Carlo CFR a budget: mccfr_seconds or "
                            "mccfr_iterations")
        for name in ("mccfr_seconds", "mccfr_iterations"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or value <= 0):
                raise GridError(f"{name} must be positive (got {value!r})")
        if self.mccfr_workers not in (1, 2):
            raise GridError(f"mccfr_workers must be 1 or 2 (got {self.mccfr_workers})")

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Point:
    """One variant of the grid: its position, the grid options' values (as text, in
    the variant's own spelling) and the variant (a game_def Variant for Robin Wood,
    the game's own variant otherwise)."""

    index: int
    options: dict[str, str]
    variant: Any
    lock: str = NO_LOCK                 # the lock axis's value (NO_LOCK: none)
    lock_lines: tuple[str, ...] = ()    # its locks, one line each (solver.locks)

    @property
    def key(self) -> str:
        """The variant string, and the lock's name when it has one."""
        return str(self.variant) + (f" lock={self.lock}" if self.lock != NO_LOCK else "")

    @property
    def slug(self) -> str:
        """A directory name for the variant: its string with ':' and ',' replaced."""
        return re.sub(r"[^A-Za-z0-9=+._-]", "_", self.key)

    @property
    def label(self) -> str:
        """The grid options that vary, for figures: `strikes=1 traitor...=true`."""
        return " ".join(f"{k}={v}" for k, v in self.options.items()) or self.key


@dataclasses.dataclass(frozen=True)
class SweepSpec:
    """A named grid: the game, its base variant, axes (option, values) in order, seed,
    the game's settings (SolveSettings for Robin Wood; None: its defaults) and the named
    locks a `lock` axis refers to (name -> lock lines)."""

    name: str
    base: Any
    axes: tuple[tuple[str, tuple[str, ...]], ...]
    game: SweepGame
    seed: int = 0
    settings: Any = None
    locks: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def __post_init__(self):
        game = self.game
        if self.settings is None:
            object.__setattr__(self, "settings", game.settings())
        if self.locks or any(name == LOCK for name, _ in self.axes):
            if game.name != DEFAULT_GAME:
                raise GridError(f"locked decisions are Robin Wood's; {game.title} has "
                                f"no lock axis")
            _check_locks(self.axes, self.locks)
        if not self.axes:
            raise GridError(f"the grid is empty: give options and their values, e.g. "
                            f"--grid '{game.grid_example}'")
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", self.name):
            raise GridError(f"sweep name {self.name!r} must be letters, digits, '.', '_' "
                            f"or '-' (it names the folder sweeps/<name>)")

    @property
    def varying(self) -> tuple[str, ...]:
        """Options with more than one value: the ones whose effect the report measures."""
        return tuple(name for name, values in self.axes if len(values) > 1)

    def points(self) -> list[Point]:
        """Every combination of the axes' values, in grid order (the last axis fastest);
        a value or combination that cannot be played is a GridError."""
        names = [name for name, _ in self.axes]
        combos = [dict(zip(names, c))
                  for c in itertools.product(*(values for _, values in self.axes))]
        error = self.game.variant_error
        built: list[Any] = []
        for changes in combos:
            try:
                built.append(self.base.replace(**{k: v for k, v in changes.items()
                                                  if k != LOCK}))
            except error as e:
                built.append(e)
        defined = dict(self.locks)
        for i, (changes, variant) in enumerate(zip(combos, built)):
            if not isinstance(variant, error):
                continue
            # A value that no combination can play is the value's fault; otherwise the
            # combination's.
            for name, value in changes.items():
                if name != LOCK and all(isinstance(b, error) for c, b in zip(combos, built)
                       if c[name] == value):
                    raise GridError(f"grid value {name}={value}: "
                                    f"{_alone(self.base, name, value, variant, error)}")
            raise GridError(f"grid point {_describe(changes)} on {self.base} cannot be "
                            f"played: {variant}. Change the grid so every combination is "
                            f"playable")
        points, seen = [], {}
        for i, (changes, variant) in enumerate(zip(combos, built)):
            shown = {n: changes[n] if n == LOCK else _spelling(variant, n) for n in names}
            lock = changes.get(LOCK, NO_LOCK)
            point = Point(i, {n: shown[n] for n in names if n in self.varying}, variant,
                          lock, defined.get(lock, ()))
            if point.key in seen:
                raise GridError(f"grid points {seen[point.key]} and {_describe(shown)} "
                                f"are the same variant ({point.key}); drop the duplicate "
                                f"value")
            seen[point.key] = _describe(shown)
            points.append(point)
        return points

    def to_json(self) -> dict:
        out = {"game": self.game.name, "name": self.name, "base": str(self.base),
               "grid": {name: list(values) for name, values in self.axes},
               "seed": self.seed, "settings": self.settings.to_json()}
        if self.locks:
            out["locks"] = {name: list(lines) for name, lines in self.locks}
        return out


def _check_locks(axes, locks) -> None:
    """Every lock name the grid uses is defined, and every definition reads."""
    from solver.locks import LockError, parse_locks

    for name, lines in locks:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name) or name == NO_LOCK:
            raise GridError(f"lock name {name!r} must be letters, digits, '_' or '-', and "
                            f"not {NO_LOCK!r} (which means no lock)")
        if not lines:
            raise GridError(f"lock {name!r} has no lock lines")
        try:
            parse_locks(lines)
        except LockError as e:
            raise GridError(f"lock {name!r}: {e}") from None
    defined = {name for name, _ in locks}
    for axis, values in axes:
        if axis != LOCK:
            continue
        for value in values:
            if value != NO_LOCK and value not in defined:
                raise GridError(f"lock={value} is not defined: add --lock-def "
                                f"'{value}=respond claim=Monk: pass=1' (your lock) or a "
                                f"[locks] table to the grid file; {NO_LOCK} means no lock")


def parse_lock_defs(texts) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """--lock-def 'NAME=LOCK' (repeatable; a name given twice collects its lines)."""
    defs: dict[str, list[str]] = {}
    for text in texts:
        name, eq, line = text.partition("=")
        if not eq or not name.strip() or not line.strip():
            raise GridError(f"--lock-def {text!r} is not NAME=LOCK; write for example "
                            f"--lock-def 'monk=respond claim=Monk: pass=1'")
        defs.setdefault(name.strip(), []).append(line.strip())
    return tuple((name, tuple(lines)) for name, lines in defs.items())


def _alone(base, name: str, value: str, fallback: Exception,
           error: type[Exception] = VariantError) -> str:
    """Why one value cannot be played: its own error on the base, else the first."""
    try:
        base.replace(**{name: value})
    except error as e:
        return str(e)
    return str(fallback)


def _describe(changes: dict[str, str]) -> str:
    return "(" + ", ".join(f"{k}={v}" for k, v in changes.items()) + ")"


def _spelling(variant: Any, option: str) -> str:
    """An option's value as the variant's string form writes it."""
    value = variant.to_params()[option]
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def check_option(name: str, where: str, game: SweepGame) -> None:
    """A grid option the game has, or a GridError naming the game's options."""
    if name not in game.options:
        title = "" if game.name == DEFAULT_GAME else f"{game.title} "
        raise GridError(f"unknown option {name!r} in {where}; known {title}options: "
                        f"{', '.join(game.options)}")


def value_text(value: Any) -> str:
    """A TOML grid value as the text a --grid string would give."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value).strip()
    raise GridError(f"grid values must be strings, numbers or booleans (got {value!r})")


def check_values(name: str, values: list[str], where: str) -> tuple[str, ...]:
    """An option's values, each given once and none empty."""
    values = [v for v in values if v != ""]
    if not values:
        raise GridError(f"option {name} in {where} has no values; write {name}=v1,v2")
    duplicates = sorted({v for v in values if values.count(v) > 1})
    if duplicates:
        raise GridError(f"option {name} in {where} repeats {duplicates[0]!r}; give each "
                        f"value once")
    return tuple(values)


def parse_axes(text: str, game: SweepGame) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`"deck=rspx,rspmx strikes=1,2"` -> (("deck", ("rspx", "rspmx")), ("strikes", ...)),
    the options checked against the game's."""
    axes, names = [], set()
    for token in text.split():
        name, eq, values = token.partition("=")
        name = name.strip()
        if not eq:
            raise GridError(f"grid item {token!r} has no '='; write option=value1,value2, "
                            f"e.g. {game.grid_example.split()[0]}")
        check_option(name, "--grid", game)
        if name in names:
            raise GridError(f"option {name} appears twice in --grid; list its values once, "
                            f"comma-separated")
        names.add(name)
        axes.append((name, check_values(name, values.split(","), "--grid")))
    return tuple(axes)


def base_variant(text, game: SweepGame):
    """The game's variant from text, or a GridError naming the base."""
    try:
        return game.parse(text)
    except game.variant_error as e:
        raise GridError(f"base variant {text!r}: {e}") from None


def default_name(axes) -> str:
    return "-".join(name for name, _ in axes) or "sweep"


def game_settings(game: SweepGame, fields: dict, where: str = "the settings"):
    """The game's settings from field names (Robin Wood: SolveSettings's fields; a
    name it does not have is a GridError naming the known ones)."""
    if game.name == DEFAULT_GAME:
        known = {f.name for f in dataclasses.fields(SolveSettings)}
        bad = sorted(set(fields) - known)
        if bad:
            raise GridError(f"unknown setting {bad[0]!r} in {where}; known settings: "
                            f"{', '.join(sorted(known))}")
    return game.settings(**fields)
