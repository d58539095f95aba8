"""A variant of Robin Wood as validated data: deck, players, strikes, turn cap, options.

A `Variant` has one string form (`rspx:max_turns=6`, `standard:players=3`,
`Robin+Sheriff+Peasant+Traitor:strikes=1`) that names it on the command line, in
strategy-file metadata and in notebooks, and it converts to and from OpenSpiel game
parameters.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from .characters import NUM_CHARACTERS, Character, parse_character_list
from .decks import NAMED_DECKS, Counts, counts_of, deck_name
from .errors import VariantError

MAX_POSITIONS = 16
MAX_PLAYERS = 4
# The largest strikes and turn cap accepted: far beyond any printed or studied variant,
# and small enough that everything sized by them (the analysis's per-strike, per-turn
# counts, the simulator's round-length histogram) stays a few megabytes.
MAX_STRIKES = 9
MAX_TURNS = 1000
CHALLENGE_ORDERS = ("clockwise", "random")

# OpenSpiel parameter defaults. An empty deck means "standard" (or "team" in team mode);
# an empty layout means the random (lazy) deal.
PARAMETER_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "teams": False,
    "deck": "",
    "strikes": 2,
    "max_turns": 40,
    "first_player": 0,
    "challenge_order": "clockwise",
    "traitor_strikes_on_reveal": False,
    "layout": "",
}
_OPTION_ORDER = tuple(k for k in PARAMETER_DEFAULTS if k != "deck")


@dataclasses.dataclass(frozen=True)
class Variant:
    """Everything that defines one Robin Wood round; validated on construction."""

    counts: Counts = NAMED_DECKS["standard"]
    players: int = 2
    teams: bool = False
    strikes: int = 2
    max_turns: int = 40
    first_player: int = 0
    challenge_order: str = "clockwise"
    traitor_strikes_on_reveal: bool = False
    layout: tuple[Character, ...] | None = None

    def __post_init__(self) -> None:
        _validate(self)

    # ----- derived facts -------------------------------------------------------------
    @property
    def num_positions(self) -> int:
        return sum(self.counts)

    @property
    def deck(self) -> str:
        """The deck's name (`standard`, `rspx`, ...) or its cards joined by '+'."""
        return deck_name(self.counts)

    @property
    def announceable(self) -> tuple[Character, ...]:
        """Characters an announcement may name: in the deck, never Trickster/Traitor."""
        return tuple(c for c in Character
                     if self.counts[c] and c not in (Character.TRICKSTER, Character.TRAITOR))

    @property
    def in_deck(self) -> tuple[Character, ...]:
        return tuple(c for c in Character if self.counts[c])

    # ----- string form and OpenSpiel parameters --------------------------------------
    def options(self) -> dict[str, Any]:
        """Non-default options, in a fixed order (deck excluded)."""
        params = self.to_params()
        return {k: params[k] for k in _OPTION_ORDER if params[k] != PARAMETER_DEFAULTS[k]}

    def __str__(self) -> str:
        opts = self.options()
        body = ",".join(f"{k}={_format_value(v)}" for k, v in opts.items())
        return f"{self.deck}:{body}" if body else self.deck

    def to_params(self) -> dict[str, Any]:
        """Full OpenSpiel game parameters (lists joined by '+', see OPENSPIEL-NOTES)."""
        return {
            "players": self.players,
            "teams": self.teams,
            "deck": self.deck,
            "strikes": self.strikes,
            "max_turns": self.max_turns,
            "first_player": self.first_player,
            "challenge_order": self.challenge_order,
            "traitor_strikes_on_reveal": self.traitor_strikes_on_reveal,
            "layout": "+".join(c.label for c in self.layout) if self.layout else "",
        }

    def replace(self, **changes: Any) -> "Variant":
        """A copy with some options changed, validated again."""
        return from_params({**self.to_params(), **changes})

    @classmethod
    def parse(cls, text: "str | Variant") -> "Variant":
        return parse(text)


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ----- construction from text or parameters --------------------------------------------
def parse(text: "str | Variant") -> Variant:
    """Variant from its string form: `DECK[:key=value,key=value...]`.

    DECK is a named deck or character names joined by '+'; it may be empty when a
    `layout` option is given.
    """
    if isinstance(text, Variant):
        return text
    if not isinstance(text, str):
        raise VariantError(f"a variant must be a string such as 'rspx:max_turns=6' "
                           f"(got {type(text).__name__})")
    head, _, tail = text.strip().partition(":")
    params: dict[str, Any] = {"deck": head.strip()}
    for item in filter(None, (s.strip() for s in tail.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise VariantError(f"option {item!r} in variant {text!r} has no value; "
                               f"write key=value, e.g. max_turns=6")
        key = key.strip()
        if key in params:
            raise VariantError(f"option {key!r} is given twice in variant {text!r}; "
                               f"give each option once")
        params[key] = value.strip()
    if not params["deck"] and not str(params.get("layout", "")).strip():
        # An empty deck is OpenSpiel's default (the printed game), but a variant string
        # that names none is a mistake, not a request for `standard`.
        raise VariantError(f"variant {text!r} names no deck; start it with a deck, e.g. "
                           f"'standard{':' + tail.strip() if tail.strip() else ''}' (named "
                           f"decks: {', '.join(NAMED_DECKS)}, or names joined by '+')")
    return from_params(params)


def from_params(params: Mapping[str, Any]) -> Variant:
    """Variant from OpenSpiel-style parameters (typed or strings from a command line)."""
    unknown = sorted(set(params) - set(PARAMETER_DEFAULTS))
    if unknown:
        raise VariantError(f"unknown option {unknown[0]!r}; "
                           f"known options: {', '.join(PARAMETER_DEFAULTS)}")
    p = {**PARAMETER_DEFAULTS, **params}
    players = _as_int("players", p["players"])
    teams = _as_bool("teams", p["teams"])
    layout_text = str(p["layout"]).strip()
    deck_text = str(p["deck"]).strip()
    layout = parse_character_list(layout_text, where="layout") if layout_text else None
    if deck_text:
        counts = _parse_deck(deck_text)
    elif layout is not None:
        counts = counts_of(layout)
    else:
        counts = NAMED_DECKS["team" if teams else "standard"]
    if layout is not None and counts_of(layout) != counts:
        raise VariantError(
            f"layout {layout_text!r} does not deal deck {deck_text!r} "
            f"({describe_cards(counts)}): {_count_differences(counts_of(layout), counts)}; "
            f"name each of the deck's cards once per copy, or drop the deck")
    return Variant(
        counts=counts,
        players=players,
        teams=teams,
        strikes=_as_int("strikes", p["strikes"]),
        max_turns=_as_int("max_turns", p["max_turns"]),
        first_player=_as_int("first_player", p["first_player"]),
        challenge_order=str(p["challenge_order"]).strip().lower(),
        traitor_strikes_on_reveal=_as_bool("traitor_strikes_on_reveal",
                                           p["traitor_strikes_on_reveal"]),
        layout=layout,
    )


def describe_cards(counts: Counts) -> str:
    """The cards of a deck in words: 'Robin, Sheriff, Peasant, Traitor', '2 Peasant'."""
    return ", ".join(c.label if k == 1 else f"{k} {c.label}"
                     for c, k in zip(Character, counts) if k)


def _count_differences(layout: Counts, deck: Counts) -> str:
    """How a layout's cards differ from a deck's, e.g. 'Robin 2 times (the deck has 1),
    Sheriff 0 times (the deck has 1)'."""
    return ", ".join(f"{c.label} {have} time{'s' if have != 1 else ''} (the deck has "
                     f"{want})" for c, have, want in zip(Character, layout, deck)
                     if have != want)


def _parse_deck(text: str) -> Counts:
    if text.lower() in NAMED_DECKS:
        return NAMED_DECKS[text.lower()]
    if "+" not in text and "," not in text:
        # A single word that is not a named deck: most likely a mistyped deck name.
        try:
            cards = parse_character_list(text, where="deck")
        except VariantError:
            raise VariantError(
                f"unknown deck {text!r}; named decks: {', '.join(NAMED_DECKS)}, or "
                f"character names joined by '+' (e.g. Robin+Sheriff+Peasant+Traitor)"
            ) from None
        return counts_of(cards)
    return counts_of(parse_character_list(text, where="deck"))


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise VariantError(f"{name} must be an integer (got {value!r})")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise VariantError(f"{name} must be an integer (got {value!r})") from None


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off"):
        return False
    raise VariantError(f"{name} must be true or false (got {value!r})")


def _validate(v: Variant) -> None:
    if len(v.counts) != NUM_CHARACTERS or any(k < 0 for k in v.counts):
        raise VariantError(f"deck counts must be {NUM_CHARACTERS} non-negative integers "
                           f"(got {v.counts})")
    if not 2 <= v.players <= MAX_PLAYERS:
        raise VariantError(f"players must be 2, 3 or 4 (got {v.players})")
    if v.teams and v.players != 4:
        raise VariantError(f"team mode needs players=4 (got players={v.players}); "
                           f"set players=4 or teams=false")
    if v.counts[Character.INNKEEPER] and not v.teams:
        raise VariantError("the Innkeeper is only played in team mode; set teams=true "
                           "(with players=4) or remove the Innkeeper from the deck")
    n = v.num_positions
    if not 2 <= n <= MAX_POSITIONS:
        raise VariantError(f"a deck needs 2 to {MAX_POSITIONS} cards (got {n})")
    if n == v.counts[Character.TRAITOR]:
        raise VariantError("a deck of Traitors only cannot be played; add other characters")
    if not 1 <= v.strikes <= MAX_STRIKES:
        raise VariantError(f"strikes must be at least 1 and at most {MAX_STRIKES} "
                           f"(got {v.strikes})")
    if not 1 <= v.max_turns <= MAX_TURNS:
        raise VariantError(f"max_turns must be at least 1 and at most {MAX_TURNS} "
                           f"(got {v.max_turns})")
    if not 0 <= v.first_player < v.players:
        raise VariantError(f"first_player must be a seat from 0 to {v.players - 1} "
                           f"(got {v.first_player})")
    if v.challenge_order not in CHALLENGE_ORDERS:
        raise VariantError(f"challenge_order must be one of {', '.join(CHALLENGE_ORDERS)} "
                           f"(got {v.challenge_order!r})")
    if v.layout is not None and counts_of(v.layout) != v.counts:
        raise VariantError("layout and deck counts differ; make them match")
