"""Action ids <-> (kind, arguments) <-> readable strings, fixed by the Rules.

Grammar (player actions; T = colours*values cards, V values, C colours, P players):

    take X            take one card X of the Sheriff's display         T ids
    take X Y          take two cards (X <= Y in card order)            T(T+1)/2 ids
    end               end the turn                                     1 id
    stash X1 X2 X3    lay a run of one colour, e.g. `stash R3 R4 R5`   C(V-2) ids
    steal X Y Z       lay three cards of one value, e.g. `steal R3 R3 G3`  V*C(C+2,3) ids
    rob P X           after `steal`: take treasure X from player P's stash  P*T ids
    counter X         the robbed player shows X (same value as the set)     T ids
    allow             the robbed player does not counter                    1 id
    lose X            a countered thief discards X from the set             T ids
    discard X         hand limit: discard X at the end of the turn          T ids

Chance outcomes are card ids 0..T-1, written as the card (`R3`). Cards are written
colour letter + value; inside a string they are in card order (colour, then value).
"""

from __future__ import annotations

import itertools

from .rules import Rules

TAKE1, TAKE2, END, STASH, STEAL, ROB, COUNTER, ALLOW, LOSE, DISCARD = range(10)
KIND_NAMES = ("take", "take", "end", "stash", "steal", "rob", "counter", "allow", "lose",
              "discard")


class ActionLayout:
    """The action id space of one Rules: contiguous blocks, one per kind."""

    def __init__(self, rules: Rules):
        self.rules = rules
        t, c, v, p = rules.num_types, rules.colours, rules.values, rules.players
        self.pairs = [(a, b) for a in range(t) for b in range(a, t)]
        self.pair_id = {pair: i for i, pair in enumerate(self.pairs)}
        self.colour_sets = list(itertools.combinations_with_replacement(range(c), 3))
        self.colour_set_id = {s: i for i, s in enumerate(self.colour_sets)}
        sizes = [t, len(self.pairs), 1, c * (v - 2), v * len(self.colour_sets), p * t, t, 1,
                 t, t]
        self.offsets = list(itertools.accumulate([0] + sizes))
        self.num_distinct_actions = self.offsets[-1]
        self.kind_of = []
        for kind, size in enumerate(sizes):
            self.kind_of += [kind] * size
        self._strings = [self._make_string(a) for a in range(self.num_distinct_actions)]
        self._ids = {s: a for a, s in enumerate(self._strings)}

    def __deepcopy__(self, memo: dict) -> "ActionLayout":
        return self  # immutable after construction; shared by every state

    # ----- encode ------------------------------------------------------------------
    def take(self, cards: tuple[int, ...]) -> int:
        if len(cards) == 1:
            return self.offsets[TAKE1] + cards[0]
        return self.offsets[TAKE2] + self.pair_id[tuple(sorted(cards))]

    def stash(self, colour: int, low: int) -> int:
        """The run colour, low..low+2 (low is a value, 1-based)."""
        return self.offsets[STASH] + colour * (self.rules.values - 2) + (low - 1)

    def steal(self, value: int, colours: tuple[int, int, int]) -> int:
        return (self.offsets[STEAL] + (value - 1) * len(self.colour_sets)
                + self.colour_set_id[tuple(sorted(colours))])

    def rob(self, victim: int, card: int) -> int:
        return self.offsets[ROB] + victim * self.rules.num_types + card

    def simple(self, kind: int, card: int = 0) -> int:
        """END, ALLOW (no card) or COUNTER, LOSE, DISCARD of a card."""
        return self.offsets[kind] + card

    # ----- decode ------------------------------------------------------------------
    def decode(self, action: int) -> tuple[int, tuple[int, ...]]:
        """(kind, args): take -> cards; stash -> the three cards; steal -> the three
        cards; rob -> (victim, card); counter/lose/discard -> (card,); end/allow -> ()."""
        kind = self.kind_of[action]
        i = action - self.offsets[kind]
        r = self.rules
        if kind == TAKE1:
            return kind, (i,)
        if kind == TAKE2:
            return kind, self.pairs[i]
        if kind == STASH:
            colour, low = divmod(i, r.values - 2)
            return kind, tuple(r.card(colour, low + 1 + k) for k in range(3))
        if kind == STEAL:
            value, s = divmod(i, len(self.colour_sets))
            return kind, tuple(r.card(col, value + 1) for col in self.colour_sets[s])
        if kind == ROB:
            return kind, divmod(i, r.num_types)
        if kind in (COUNTER, LOSE, DISCARD):
            return kind, (i,)
        return kind, ()

    # ----- strings -----------------------------------------------------------------
    def _make_string(self, action: int) -> str:
        kind, args = self.decode(action)
        name = self.rules.card_name
        if kind == ROB:
            return f"rob {args[0]} {name(args[1])}"
        return " ".join([KIND_NAMES[kind]] + [name(x) for x in args])

    def to_string(self, action: int) -> str:
        return self._strings[action]

    def from_string(self, text: str) -> int:
        """The id of a player action string (whitespace and letter case normalised)."""
        words = text.split()
        if words and words[0].lower() in KIND_NAMES:
            words[0] = words[0].lower()
        key = " ".join(w if i == 0 or w.isdigit() else w.upper()
                       for i, w in enumerate(words))
        try:
            return self._ids[key]
        except KeyError:
            raise ValueError(f"unknown action {text!r}: actions are take X [Y], end, "
                             f"stash X Y Z, steal X Y Z, rob P X, counter X, allow, "
                             f"lose X, discard X (cards like R3)") from None
