"""Robin des Bois, the treasure-stealing card game (robin_des_bois), as a sweep game:
its box-content parameters are the grid's options, and each variant is measured by
playing it with one of the game's players in every seat (robin_des_bois.balance).

    robinwood sweep --game robin_des_bois --grid "players=2,3,4 copies=2,3" \
        --seat-player search --rounds 400

The game has no solved strategy: the strongest player it has is the determinized search
(robin_des_bois.players, which beats every scripted player in every seat), so `auto`
plays it in every seat; `play` takes any of its players (--seat-player), `random` the
fast batch simulator's uniformly random moves. A variant's text is the game's name and
the options that differ from the defaults: `robin_des_bois:players=2,copies=3`.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

from robin_des_bois.rules import PARAMETER_DEFAULTS, Rules, RulesError, from_params

from .games import BarGroup, Headline, SweepGame
from .grid import GridError

NAME = "robin_des_bois"
METHODS = ("auto", "play", "random")
DEFAULT_PLAYER = "search"
# Games per variant when not given: the search player is slow (about 0.2-0.5 s a
# game on one core), the scripted players fast, random play on the batch simulator
# faster still.
DEFAULT_GAMES = {"search": 400, "scripted": 2_000, "random": 20_000}
PROCESS_BYTES = 512 * 1024**2


def player_names() -> tuple[str, ...]:
    from robin_des_bois.players import SCRIPTED

    return tuple(SCRIPTED) + ("search",)


@dataclasses.dataclass(frozen=True)
class PlaySettings:
    """How each Robin des Bois variant is measured; recorded with every row, so a rerun
    with other settings plays again instead of reusing rows.

    method: auto and play put `player` in every seat (auto: the search player unless
    another is named), random plays uniformly random moves on the batch simulator.
    games: games per variant (default: DEFAULT_GAMES for the player or method).
    """

    method: str = "auto"
    player: str = DEFAULT_PLAYER
    games: int | None = None

    def __post_init__(self):
        if self.method not in METHODS:
            raise GridError(f"method {self.method!r} is not one of Robin des Bois's: "
                            f"{', '.join(METHODS)} (exact and mccfr solve Robin Wood; "
                            f"this game is measured by play)")
        if self.player not in player_names():
            raise GridError(f"unknown player {self.player!r}; Robin des Bois's players "
                            f"are {', '.join(player_names())}")
        if self.games is not None and (isinstance(self.games, bool)
                                       or not isinstance(self.games, int)
                                       or not 2 <= self.games <= 10**8):
            raise GridError(f"games must be an integer from 2 to 100,000,000 (got "
                            f"{self.games!r})")

    @property
    def played_method(self) -> str:
        return "random" if self.method == "random" else "play"

    @property
    def game_count(self) -> int:
        if self.games is not None:
            return self.games
        if self.played_method == "random":
            return DEFAULT_GAMES["random"]
        return DEFAULT_GAMES["search" if self.player == "search" else "scripted"]

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def play_settings(**fields) -> PlaySettings:
    """PlaySettings from the sweep's common settings names: `rounds` is the games."""
    if "rounds" in fields:
        fields["games"] = fields.pop("rounds")
    known = {f.name for f in dataclasses.fields(PlaySettings)}
    unknown = sorted(set(fields) - known)
    if unknown:
        raise GridError(f"setting {unknown[0]!r} is for Robin Wood's solvers; Robin des "
                        f"Bois takes {', '.join(sorted(known | {'rounds'}))}")
    return PlaySettings(**fields)


# ----- variants -------------------------------------------------------------------------
def _typed(name: str, text: Any) -> Any:
    """An option's value from grid text, typed as the parameter's default."""
    if isinstance(PARAMETER_DEFAULTS[name], int) and not isinstance(text, int):
        value = str(text).strip()
        if not value.lstrip("-").isdigit():
            raise RulesError(f"{name}={text} is not an integer")
        return int(value)
    if isinstance(PARAMETER_DEFAULTS[name], str):
        return str(text)
    return text


@dataclasses.dataclass(frozen=True)
class BoxVariant:
    """One box of Robin des Bois (robin_des_bois.Rules) with the sweep's variant
    interface: canonical text, replace(**texts), to_params()."""

    rules: Rules

    @property
    def players(self) -> int:
        return self.rules.players

    def to_params(self) -> dict[str, Any]:
        return self.rules.to_params()

    def replace(self, **changes: Any) -> "BoxVariant":
        unknown = sorted(set(changes) - set(PARAMETER_DEFAULTS))
        if unknown:
            raise RulesError(f"unknown option {unknown[0]!r}; Robin des Bois's options "
                             f"are {', '.join(PARAMETER_DEFAULTS)}")
        params = {**self.to_params(), **{k: _typed(k, v) for k, v in changes.items()}}
        return BoxVariant(from_params(params))

    def __str__(self) -> str:
        changed = [f"{k}={v}" for k, v in self.to_params().items()
                   if v != PARAMETER_DEFAULTS[k]]
        return NAME + (":" + ",".join(changed) if changed else "")


def parse_box(text: str) -> BoxVariant:
    """`robin_des_bois:players=2,copies=3`, `players=2,copies=3` or `robin_des_bois`
    (the defaults) -> a BoxVariant; RulesError names a bad option or value."""
    if isinstance(text, BoxVariant):
        return text
    body = str(text).strip()
    head, colon, rest = body.partition(":")
    if head.strip() == NAME:
        body = rest if colon else ""
    elif "=" not in head and head.strip():
        raise RulesError(f"{text!r} is not a Robin des Bois variant; write "
                         f"{NAME}:players=2,copies=3 or just the options")
    changes = {}
    for item in filter(None, (p.strip() for p in body.split(","))):
        name, eq, value = item.partition("=")
        if not eq:
            raise RulesError(f"option {item!r} has no '='; write option=value, e.g. "
                             f"players=2")
        changes[name.strip()] = value.strip()
    return BoxVariant(from_params({})).replace(**changes)


# ----- planning and measuring -----------------------------------------------------------
def choose(point, settings: PlaySettings, memory_budget: int, count=None):
    """Every variant is played: no tree to count, one core, a process's memory."""
    return settings.played_method, None, PROCESS_BYTES


def _measure(task, out: Path, player: str) -> dict:
    from robin_des_bois.balance import balance

    from solver.exact.job import peak_memory_bytes
    from solver.store import atomic_write_bytes

    settings = PlaySettings(**task.settings)
    rules = parse_box(task.variant_text).rules
    games = settings.game_count
    random = player == "random"
    result = balance(rules, games=games, seed=task.seed, players=player,
                     marianne_games=min(games, 2_000) if random else None)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    result.seats.to_csv(out / "tables" / "seats.csv", index=False)
    result.metrics.to_csv(out / "tables" / "metrics.csv", index=False)
    meta = {"game": NAME, "variant": task.variant_text, "params": result.params,
            "players": player, "games": games, "seed": task.seed,
            "method": result.method, "notes": result.notes,
            "seconds": round(result.seconds, 3)}
    atomic_write_bytes(out / "metadata.json", json.dumps(meta, indent=2).encode())
    rows = [{"metric": r.metric, "value": float(r.value), "lo": float(r.lo),
             "hi": float(r.hi)} for r in result.tidy().itertuples(index=False)]
    nan = math.nan
    return {"rows": rows, "statistics": result.method,
            "quality_measure": "none: no solved strategy; every seat plays "
                               + ("uniformly random moves" if random else player),
            "quality": nan, "quality_lo": nan, "quality_hi": nan,
            "solver": "none: random play" if random else f"every seat {player}",
            "peak_memory_bytes": peak_memory_bytes()}


def _play(task, out: Path) -> dict:
    return _measure(task, out, PlaySettings(**task.settings).player)


def _random(task, out: Path) -> dict:
    return _measure(task, out, "random")


def _metrics() -> dict[str, str]:
    from robin_des_bois.balance import METRICS

    seats = {f"win_share_seat{s}": f"seat {s}'s win share (ties split; seat 0 plays "
                                   f"first)" for s in range(4)}
    return {**METRICS, **seats}


GAME = SweepGame(
    name=NAME, title="Robin des Bois",
    options=tuple(PARAMETER_DEFAULTS), default_base=NAME,
    parse=parse_box, variant_error=RulesError, settings=play_settings, choose=choose,
    methods={"play": _play, "random": _random}, metrics=_metrics(),
    headlines=(Headline("first_player_advantage",
                        "seat 0's win share minus the fair share 1/players (ties split)"),),
    groups=(BarGroup("actions", "Stashes, steals and counters per variant",
                     "What players do per game, per variant",
                     {"stashes": "stashes", "unstoppable": "unstoppable steals",
                      "counterable": "counterable steals", "counters": "counters",
                      "thefts": "thefts", "marianne_protections": "Marianne protects"},
                     "per game", probability=False),),
    length=(Headline("mean_turns", "turns a game lasts (mean)"),
            Headline("mean_spread", "best minus worst final score (mean)")),
    effect_metrics={"first_player_advantage": "first player's advantage",
                    "mean_spread": "score spread", "mean_turns": "mean turns",
                    "steals": "steals a game", "counters": "counters a game",
                    "marianne_protections": "Marianne's protections"},
    effect_words=(("steals", "the number of steals a game"),
                  ("counters", "the number of counters a game"),
                  ("mean_turns", "the game length"), ("mean_spread", "the score spread")),
    method_words={
        "play": "measured by play, the same player in every seat (no solved strategy "
                "exists; the search player is the strongest the game has; 95% "
                "intervals over games)",
        "random": "measured by random play only (uniformly random legal moves on the "
                  "batch simulator, as asked for; these numbers describe the rules "
                  "under random moves, not good play)"},
    method_names={"play": "played (same player every seat)",
                  "random": "random play (not a strategy)"},
    grid_example="players=2,3 copies=2,3",
    balance_title="Balance: the first player's edge per variant (seat 0 plays first)",
    balance_caption="First player's advantage per variant",
    length_title="Game length and score spread per variant",
    length_caption="Game length and score spread per variant")
