"""Box contents of Robin des Bois as validated data, the named boxes, and the card
encoding.

The French rules (docs/robin-des-bois-rules.md) fix the turn but not the box. The game
as sold (Amigo 1999; /work/shared/ROBIN-DES-BOIS-BOX.md) holds 108 treasure cards in
three colours, four copies of each value 1 to 9, eleven money cards (nine worth 3,
two worth 6, the 6s left out with three players) and plays 3 to 6: that is the box
`box`, the default. `small`, the reduced box the game took as its guess before the
published contents were known (4 colours, values 1-6, 2 copies, twelve 1-coin cards, 2
to 4 players), stays for quick tests and small experiments.

A variant is a frozen, validated `Rules` with one string form, used on the command
line, in sweeps and in notebooks: `BOX[:option=value,...]` lists the options that
differ from that box's defaults at its player count (`box`, `box:players=5`,
`small:players=2,copies=3`); `parse_variant` reads it back. As OpenSpiel parameters a
variant is `box` plus every option, written out (`Rules.to_params`); a parameter left
at its OpenSpiel default (0 or '') takes the box's value (`from_params`), so
`pyspiel.load_game("robin_des_bois(box=small,players=2)")` is the small box.

A treasure card is a (colour, value) pair, encoded as one int `t = colour * values +
(value - 1)`, and named by a colour letter and the value: `R3`, `G12`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

COLOUR_LETTERS = "RGBYPOWK"  # red, green, blue, yellow, purple, orange, white, black
DISPLAY_SIZE = 3  # "Les 3 premières cartes de la pioche sont placées face visible"
MIN_PLAYERS, MAX_PLAYERS = 2, 6   # over every box; each box narrows it (Box)
MAX_VALUES = 20
MAX_COPIES = 6
MAX_GOLD_CARDS = 40
MAX_GOLD_VALUE = 20
MAX_HAND = 20

# Which gold card a stash earns (I9): `high` the most valuable one left (the cards lie
# face up within everyone's reach, and the stasher takes the best), `low` the least
# valuable one left (a stack with the higher cards at the bottom).
GOLD_ORDERS = ("high", "low")
# When the game ends (I19): `display` when the second pile is used up and the last
# face-up treasure has been taken (the published rules), `pile` as soon as the second
# pile is empty (the seed's "quand la deuxième est vide, la partie est terminée").
ENDS = ("display", "pile")


class RulesError(ValueError):
    """Box contents that cannot be played; the message names the value and the fix."""


@dataclasses.dataclass(frozen=True)
class Box:
    """A named box: its contents and the player counts its rules allow. `gold` is the
    money supply; `gold_out_at` maps a player count to the gold text of the cards
    left out of the box at that count (the published box leaves the two 6s out with
    three players)."""

    name: str
    colours: int
    values: int
    copies: int
    gold: str
    gold_order: str
    end: str
    min_players: int
    max_players: int
    gold_out_at: tuple[tuple[int, str], ...] = ()
    description: str = ""

    @property
    def title(self) -> str:
        return "the published box" if self.name == DEFAULT_BOX else f"the {self.name} box"

    def gold_for(self, players: int) -> tuple[int, ...]:
        """The money cards in play at this player count."""
        cards = list(parse_gold(self.gold))
        for count, text in self.gold_out_at:
            if count == players:
                for g in parse_gold(text):
                    cards.remove(g)
        return tuple(cards)


BOXES: dict[str, Box] = {
    "box": Box("box", colours=3, values=9, copies=4, gold="9x3+2x6", gold_order="high",
               end="display", min_players=3, max_players=6, gold_out_at=((3, "2x6"),),
               description="the published box (Amigo 1999): 108 treasure cards in three "
                           "colours, four copies of each value 1-9; nine 3-coin and two "
                           "6-coin cards, the 6s left out with three players; 3 to 6 "
                           "players"),
    "small": Box("small", colours=4, values=6, copies=2, gold="12x1", gold_order="high",
                 end="pile", min_players=2, max_players=MAX_PLAYERS,
                 description="the reduced box of the first model (4 colours, values 1-6, "
                             "2 copies: 48 cards; twelve 1-coin cards; 2 to 4 players, "
                             "the deck allowing); for quick tests"),
}
DEFAULT_BOX = "box"

# The options of a variant, in string-form order (the box is the string's head).
OPTIONS = ("players", "colours", "values", "copies", "gold", "gold_order", "hand_size",
           "hand_limit", "end")

# OpenSpiel parameter defaults (types matter: an int default rejects a float). OpenSpiel
# fills every parameter in, so the options whose default depends on the box default to
# 0 or '': "the box's value" (from_params). players, hand_size and hand_limit are the
# same in every box.
PARAMETER_DEFAULTS: dict[str, Any] = {
    "box": DEFAULT_BOX,
    "players": 3,
    "colours": 0,
    "values": 0,
    "copies": 0,
    "gold": "",
    "gold_order": "",
    "hand_size": 9,
    "hand_limit": 9,
    "end": "",
}
_BOX_DEFAULTED = ("colours", "values", "copies", "gold", "gold_order", "end")


@dataclasses.dataclass(frozen=True)
class Rules:
    """One variant: a named box and every option, validated on construction
    (immutable). The defaults are the published box at three players."""

    box: str = DEFAULT_BOX
    players: int = 3
    colours: int = 3
    values: int = 9
    copies: int = 4
    gold: tuple[int, ...] = (3,) * 9
    gold_order: str = "high"
    hand_size: int = 9
    hand_limit: int = 9
    end: str = "display"

    def __post_init__(self) -> None:
        _validate(self)
        # The gold supply in the order stashes earn it (interpretation I9).
        object.__setattr__(self, "gold", tuple(sorted(
            self.gold, reverse=self.gold_order == "high")))

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

    @property
    def ends_with_display(self) -> bool:
        return self.end == "display"

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

    # ----- string form and OpenSpiel parameters ------------------------------------
    def to_params(self) -> dict[str, Any]:
        """The OpenSpiel parameters: the box, the players, and every option, an option
        that is the box's own value at this player count written as its OpenSpiel
        default (0 or ''), so that a copy of these parameters with other `players` or
        another `box` follows that box (the published box's two 6-coin cards come back
        at four players) and the options that differ are the ones not at 0 or ''.
        `contents()` writes every value out."""
        full = self.contents()
        base = box_defaults(self.box, self.players)
        return {k: (PARAMETER_DEFAULTS[k] if k in _BOX_DEFAULTED and v == base[k] else v)
                for k, v in full.items()}

    def contents(self) -> dict[str, Any]:
        """Every parameter written out (the gold as COUNTxVALUE text), for reading."""
        return {
            "box": self.box, "players": self.players, "colours": self.colours,
            "values": self.values, "copies": self.copies, "gold": gold_text(self.gold),
            "gold_order": self.gold_order, "hand_size": self.hand_size,
            "hand_limit": self.hand_limit, "end": self.end,
        }

    def options(self) -> dict[str, Any]:
        """The options that differ from the box's defaults at this player count, in
        OPTIONS order (the gold default depends on the players: see Box.gold_for)."""
        params = self.contents()
        base = box_defaults(self.box, self.players)
        return {k: params[k] for k in OPTIONS if params[k] != base[k]}

    def __str__(self) -> str:
        body = ",".join(f"{k}={v}" for k, v in self.options().items())
        return f"{self.box}:{body}" if body else self.box

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some options (or the box) changed, validated again. Options left
        at their defaults follow the new values: `box:players=4` -> replace(players=3)
        leaves the two 6-coin cards out, as the box does; replace(box='small') takes
        the small box's contents but keeps this variant's changed options."""
        return from_params({"box": self.box, **self.options(), **changes})

    def playable_players(self) -> range:
        """The player counts this variant can seat (its box's range, the deck
        permitting), each validated with the other options unchanged."""
        ok = []
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            try:
                self.replace(players=n)
            except RulesError:
                continue
            ok.append(n)
        return range(ok[0], ok[-1] + 1) if ok else range(0)


def box_named(name: Any) -> Box:
    if not isinstance(name, str) or name.strip().lower() not in BOXES:
        raise RulesError(f"unknown box {name!r}: the boxes are {', '.join(BOXES)} "
                         f"(box: the published game; small: the reduced one)")
    return BOXES[name.strip().lower()]


def box_defaults(name: str, players: int) -> dict[str, Any]:
    """The box's default parameters (players: the default count) with the gold in play
    at `players` (written out)."""
    b = box_named(name)
    return {"box": b.name, "players": PARAMETER_DEFAULTS["players"], "colours": b.colours,
            "values": b.values,
            "copies": b.copies, "gold": gold_text(b.gold_for(players)),
            "gold_order": b.gold_order, "hand_size": PARAMETER_DEFAULTS["hand_size"],
            "hand_limit": PARAMETER_DEFAULTS["hand_limit"], "end": b.end}


def _check_int(name: str, value: Any, low: int, high: int, why: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be an integer, got {value!r}")
    if not low <= value <= high:
        raise RulesError(f"{name}={value} is out of range: use {low}..{high} ({why})")


def _check_choice(name: str, value: Any, choices: tuple[str, ...], why: str) -> None:
    if value not in choices:
        raise RulesError(f"{name}={value!r} is not one of {', '.join(choices)} ({why})")


def _validate(r: Rules) -> None:
    b = box_named(r.box)
    _check_int("players", r.players, b.min_players, b.max_players,
               f"{b.title} seats {b.min_players} to {b.max_players} players"
               + ("; box=small allows 2" if b.min_players > MIN_PLAYERS else ""))
    _check_int("colours", r.colours, 3, len(COLOUR_LETTERS),
               "an unstoppable steal needs three different colours; one letter per colour")
    _check_int("values", r.values, 3, MAX_VALUES,
               "a stash is a run of three consecutive values")
    _check_int("copies", r.copies, 1, MAX_COPIES, "copies of each colour-value card")
    _check_int("hand_size", r.hand_size, 1, MAX_HAND, "cards dealt to each player")
    _check_int("hand_limit", r.hand_limit, 1, MAX_HAND,
               "cards a player may keep at the end of a turn")
    _check_choice("gold_order", r.gold_order, GOLD_ORDERS,
                  "which gold card a stash earns: the most or the least valuable left")
    _check_choice("end", r.end, ENDS, "display: the game ends once the second pile is "
                  "used up and the display taken; pile: as soon as the second pile is empty")
    if not isinstance(r.gold, tuple) or len(r.gold) > MAX_GOLD_CARDS:
        raise RulesError(f"gold must be at most {MAX_GOLD_CARDS} card values, got {r.gold!r}")
    for g in r.gold:
        _check_int("a gold card's value", g, 1, MAX_GOLD_VALUE,
                   "gold is worth points: write e.g. gold=9x3+2x6 or gold=none")
    needed = r.players * r.hand_size + DISPLAY_SIZE + 1
    if r.num_cards < needed:
        raise RulesError(
            f"the deck has {r.num_cards} cards (colours*values*copies = {r.colours}*"
            f"{r.values}*{r.copies}) but {r.players} hands of {r.hand_size}, the "
            f"{DISPLAY_SIZE}-card display and a draw pile need at least {needed}: add "
            f"colours, values or copies, or lower players or hand_size")


def gold_text(gold: tuple[int, ...]) -> str:
    """(3, 1, 1) -> "1x3+2x1": the canonical parameter text (highest value first);
    no gold cards -> "none"."""
    groups = []
    for g in sorted(set(gold), reverse=True):
        groups.append(f"{gold.count(g)}x{g}")
    return "+".join(groups) or "none"


def parse_gold(text: Any) -> tuple[int, ...]:
    """Gold card values from "9x3+2x6", "1x3+2x1", or plain values "3+1+1"; "none" (or
    "0") = no gold cards."""
    if not isinstance(text, str):
        raise RulesError(f"gold must be a string such as '9x3+2x6' or 'none' (COUNTxVALUE "
                         f"groups joined by '+'), got {text!r}")
    if text.strip().lower() in ("none", "0"):
        return ()
    pieces = [p.strip() for p in text.replace("/", "+").split("+")]
    out: list[int] = []
    for p in pieces:
        count, _, value = p.lower().rpartition("x")
        if not (value.isdigit() and (count == "" and "x" not in p.lower()
                                     or count.isdigit())):
            raise RulesError(f"gold={text!r}: {p!r} is not COUNTxVALUE or a value; write "
                             f"e.g. gold=9x3+2x6 (nine cards worth 3, two worth 6) or "
                             f"gold=none")
        out += [int(value)] * min(int(count) if count else 1, MAX_GOLD_CARDS + 1)
    return tuple(out)


def from_params(params: Mapping[str, Any]) -> Rules:
    """Rules from OpenSpiel parameters. `box` (default the published box) names the
    box; an option missing, or at its OpenSpiel default 0 or '', takes that box's
    value at the players given (PARAMETER_DEFAULTS)."""
    unknown = set(params) - set(PARAMETER_DEFAULTS)
    if unknown:
        raise RulesError(f"unknown parameter(s) {sorted(unknown)}: the parameters are "
                         f"{', '.join(PARAMETER_DEFAULTS)}")
    p = {**PARAMETER_DEFAULTS, **params}
    box = box_named(p["box"] if p["box"] != "" else DEFAULT_BOX)
    players = p["players"]
    if not isinstance(players, int) or isinstance(players, bool):
        raise RulesError(f"players must be an integer, got {players!r}")
    base = box_defaults(box.name, players)
    for name in _BOX_DEFAULTED:
        if isinstance(p[name], str) and p[name].strip() == "" or \
                (not isinstance(p[name], (str, bool)) and p[name] == 0):
            p[name] = base[name]
    return Rules(box=box.name, players=players, colours=p["colours"], values=p["values"],
                 copies=p["copies"], gold=parse_gold(p["gold"]),
                 gold_order=str(p["gold_order"]).strip().lower(),
                 hand_size=p["hand_size"], hand_limit=p["hand_limit"],
                 end=str(p["end"]).strip().lower())


def parse_variant(text: "str | Rules") -> Rules:
    """Rules from the string form `BOX[:option=value,...]` (`box`, `box:players=5`,
    `small:players=2,copies=3`); RulesError naming the problem otherwise."""
    if isinstance(text, Rules):
        return text
    if not isinstance(text, str):
        raise RulesError(f"a variant is a string such as 'box:players=4' (got "
                         f"{type(text).__name__})")
    head, _, tail = text.strip().partition(":")
    if "=" in head:
        raise RulesError(f"variant {text!r} names no box; start it with one, e.g. "
                         f"'box:{text.strip()}' (boxes: {', '.join(BOXES)})")
    params: dict[str, Any] = {"box": head.strip() or DEFAULT_BOX}
    box_named(params["box"])
    for item in filter(None, (s.strip() for s in tail.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise RulesError(f"option {item!r} in variant {text!r} has no value; write "
                             f"option=value, e.g. players=4")
        if key not in OPTIONS:
            raise RulesError(f"unknown option {key!r} in variant {text!r}; the options "
                             f"are {', '.join(OPTIONS)}")
        if key in params:
            raise RulesError(f"option {key!r} is given twice in variant {text!r}")
        params[key] = typed_option(key, value)
    return from_params(params)


def typed_option(name: str, text: Any) -> Any:
    """An option's value from text (a command line, a variant string, a grid), typed as
    its OpenSpiel parameter."""
    if name not in PARAMETER_DEFAULTS:
        raise RulesError(f"unknown option {name!r}; the options are {', '.join(OPTIONS)}")
    if isinstance(PARAMETER_DEFAULTS[name], int) and not isinstance(text, int):
        value = str(text).strip()
        if not value.lstrip("-").isdigit():
            raise RulesError(f"{name}={text} is not an integer")
        return int(value)
    if isinstance(PARAMETER_DEFAULTS[name], str):
        return str(text).strip()
    return text
