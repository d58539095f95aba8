"""Box contents of Robin des Bois as validated data, and the card encoding.

The French rules (docs/robin-des-bois-rules.md) fix the turn but not the box: how many
colours and values the treasure cards have, how many copies of each card, the gold
cards, the player count. Those are `Rules` fields, each an OpenSpiel game parameter with
a documented default (interpretation I1 of the rules model).

A treasure card is a (colour, value) pair, encoded as one int `t = colour * values +
(value - 1)`, and named by a colour letter and the value: `R3`, `G12`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

COLOUR_LETTERS = "RGBYPOWK"  # red, green, blue, yellow, purple, orange, white, black
DISPLAY_SIZE = 3  # "Les 3 premières cartes de la pioche sont placées face visible"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_VALUES = 20
MAX_COPIES = 6
MAX_GOLD_CARDS = 40
MAX_GOLD_VALUE = 20
MAX_HAND = 20

# Gold cards as groups COUNTxVALUE joined by '+' ("12x1": twelve cards worth 1). The 'x'
# keeps the text a string for OpenSpiel, which would read "3+2+1" or "3" as a number.
DEFAULT_GOLD = "12x1"

# OpenSpiel parameter defaults (types matter: an int default rejects a float).
PARAMETER_DEFAULTS: dict[str, Any] = {
    "players": 3,
    "colours": 4,
    "values": 6,
    "copies": 2,
    "gold": DEFAULT_GOLD,
    "hand_size": 9,
    "hand_limit": 9,
}


class RulesError(ValueError):
    """Box contents that cannot be played; the message names the value and the fix."""


@dataclasses.dataclass(frozen=True)
class Rules:
    """Everything the seed leaves open, validated on construction (immutable)."""

    players: int = 3
    colours: int = 4
    values: int = 6
    copies: int = 2
    gold: tuple[int, ...] = (1,) * 12
    hand_size: int = 9
    hand_limit: int = 9

    def __post_init__(self) -> None:
        _validate(self)
        # Gold cards lie face up "à la portée de tous": a stasher takes the best one left
        # (interpretation I9), so the supply is kept sorted, highest first.
        object.__setattr__(self, "gold", tuple(sorted(self.gold, reverse=True)))

    # States share one Rules object: cloning a state (a deep copy) must not copy it.
    def __deepcopy__(self, memo: dict) -> "Rules":
        return self

    # ----- derived facts -----------------------------------------------------------
    @property
    def num_types(self) -> int:
        """Distinct treasure cards (colour, value)."""
        return self.colours * self.values

    @property
    def num_cards(self) -> int:
        return self.num_types * self.copies

    def card(self, colour: int, value: int) -> int:
        return colour * self.values + (value - 1)

    def colour_of(self, t: int) -> int:
        return t // self.values

    def value_of(self, t: int) -> int:
        return t % self.values + 1

    def card_name(self, t: int) -> str:
        return f"{COLOUR_LETTERS[self.colour_of(t)]}{self.value_of(t)}"

    def parse_card(self, text: str) -> int:
        """`R3` -> its int; ValueError naming the accepted cards otherwise."""
        text = text.strip()
        letters = COLOUR_LETTERS[:self.colours]
        if len(text) >= 2 and text[0].upper() in letters and text[1:].isdigit():
            value = int(text[1:])
            if 1 <= value <= self.values:
                return self.card(letters.index(text[0].upper()), value)
        raise RulesError(f"unknown card {text!r}: a card is a colour letter among "
                         f"{', '.join(letters)} followed by a value 1..{self.values}, e.g. "
                         f"{letters[0]}3")

    def to_params(self) -> dict[str, Any]:
        return {
            "players": self.players, "colours": self.colours, "values": self.values,
            "copies": self.copies, "gold": gold_text(self.gold),
            "hand_size": self.hand_size, "hand_limit": self.hand_limit,
        }


def _check_int(name: str, value: Any, low: int, high: int, why: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be an integer, got {value!r}")
    if not low <= value <= high:
        raise RulesError(f"{name}={value} is out of range: use {low}..{high} ({why})")


def _validate(r: Rules) -> None:
    _check_int("players", r.players, MIN_PLAYERS, MAX_PLAYERS,
               "robbing needs an opponent; the dealt hands must fit the deck")
    _check_int("colours", r.colours, 3, len(COLOUR_LETTERS),
               "an unstoppable steal needs three different colours; one letter per colour")
    _check_int("values", r.values, 3, MAX_VALUES,
               "a stash is a run of three consecutive values")
    _check_int("copies", r.copies, 1, MAX_COPIES, "copies of each colour-value card")
    _check_int("hand_size", r.hand_size, 1, MAX_HAND, "cards dealt to each player")
    _check_int("hand_limit", r.hand_limit, 1, MAX_HAND,
               "cards a player may keep at the end of a turn")
    if not isinstance(r.gold, tuple) or len(r.gold) > MAX_GOLD_CARDS:
        raise RulesError(f"gold must be at most {MAX_GOLD_CARDS} card values, got {r.gold!r}")
    for g in r.gold:
        _check_int("a gold card's value", g, 1, MAX_GOLD_VALUE,
                   "gold is worth points: write e.g. gold=12x1 or gold=1x3+2x1")
    needed = r.players * r.hand_size + DISPLAY_SIZE + 1
    if r.num_cards < needed:
        raise RulesError(
            f"the deck has {r.num_cards} cards (colours*values*copies = {r.colours}*"
            f"{r.values}*{r.copies}) but {r.players} hands of {r.hand_size}, the "
            f"{DISPLAY_SIZE}-card display and a draw pile need at least {needed}: add "
            f"colours, values or copies, or lower players or hand_size")


def gold_text(gold: tuple[int, ...]) -> str:
    """(3, 1, 1) -> "1x3+2x1": the canonical parameter text (highest value first)."""
    groups = []
    for g in sorted(set(gold), reverse=True):
        groups.append(f"{gold.count(g)}x{g}")
    return "+".join(groups)


def parse_gold(text: Any) -> tuple[int, ...]:
    """Gold card values from "12x1", "1x3+2x1", or plain values "3+1+1"; "" = none."""
    if not isinstance(text, str):
        raise RulesError(f"gold must be a string such as '12x1' or '1x3+2x1' (COUNTxVALUE "
                         f"groups joined by '+'), got {text!r}")
    pieces = [p.strip() for p in text.replace("/", "+").split("+")]
    if pieces == [""]:
        return ()
    out: list[int] = []
    for p in pieces:
        count, _, value = p.lower().rpartition("x")
        if not (value.isdigit() and (count == "" and "x" not in p.lower()
                                     or count.isdigit())):
            raise RulesError(f"gold={text!r}: {p!r} is not COUNTxVALUE or a value; write "
                             f"e.g. gold=12x1 (twelve cards worth 1) or gold=1x3+2x1")
        out += [int(value)] * min(int(count) if count else 1, MAX_GOLD_CARDS + 1)
    return tuple(out)


def from_params(params: Mapping[str, Any]) -> Rules:
    """Rules from OpenSpiel parameters (missing keys take PARAMETER_DEFAULTS)."""
    unknown = set(params) - set(PARAMETER_DEFAULTS)
    if unknown:
        raise RulesError(f"unknown parameter(s) {sorted(unknown)}: the parameters are "
                         f"{', '.join(PARAMETER_DEFAULTS)}")
    p = {**PARAMETER_DEFAULTS, **params}
    return Rules(players=p["players"], colours=p["colours"], values=p["values"],
                 copies=p["copies"], gold=parse_gold(p["gold"]), hand_size=p["hand_size"],
                 hand_limit=p["hand_limit"])
