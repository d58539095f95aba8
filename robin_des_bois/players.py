"""Players of Robin des Bois: four scripted rule sets and a determinized Monte Carlo
search (docs/robin-des-bois-rules.md, "Players and strength").

A player is a callable `player(view) -> action id`. A `View` holds only what the acting
player knows: the public table (display, discard pile, stashes face up and safe, gold,
Marianne, hand sizes, pile size, the steal under way, where the turn stands), his own
hand, and the second draw pile once formed (it is the old discard pile, every card of
which was discarded in public, less the cards since turned face up). Other hands and the
first pile are blank in it; `unseen` counts the cards they hold together. Build a view
from the OpenSpiel state or from the fast core with `view_of(state)`, or let
`choose(player, state)` do it:

    import pyspiel, robin_des_bois
    from robin_des_bois.players import choose, make_player
    state = pyspiel.load_game("robin_des_bois", {"players": 4}).new_initial_state()
    ...  # deal
    action = choose(make_player("thief"), state)

Scripted players (`SCRIPTED`): random, greedy_stasher, thief, defender (rules in each
class). `MonteCarloSearch(samples)` re-deals the unseen cards uniformly `samples` times,
plays every legal action then a greedy rollout on the numba core in each deal, and picks
the best mean return.
"""

from __future__ import annotations

import random
from typing import Callable

import numpy as np

from . import _core as k
from . import actions as A
from .actions import ActionLayout
from .rules import Rules

PHASE_NAMES = ("deal", "take", "act", "target", "counter", "lose", "discard", "refill",
               "over")


# ===== what a player knows ================================================================
class View:
    """The acting player's knowledge, as a core-layout array with every hidden field blank.

    arr: int64 state array (`_core.S_*`): other hands hold only cards known to be there
    (the set of a steal under way), the first pile's cards are blank (its size is kept);
    unseen[c]: copies of card c in other hands or the first pile, together."""

    def __init__(self, rules: Rules, layout: ActionLayout, player: int, arr: np.ndarray,
                 legal: list[int]):
        self.rules, self.layout, self.player, self.arr = rules, layout, player, arr
        self.legal = legal
        t = rules.num_types
        placed = np.zeros(t, dtype=np.int64)
        for block in (k.S_PILE, k.S_DISCARD, k.S_DISPLAY):
            placed += arr[block:block + t]
        for p in range(k.MAX_PLAYERS):
            for block in (k.S_HANDS, k.S_OPEN, k.S_SAFE):
                placed += arr[block + p * k.MAX_TYPES:block + p * k.MAX_TYPES + t]
        self.unseen = rules.copies - placed
        if (self.unseen < 0).any():
            raise ValueError("inconsistent view: more cards placed than the box holds")

    # ----- readers (counts per card id) ----------------------------------------------
    def _block(self, base: int, p: int = 0) -> list[int]:
        start = base + p * k.MAX_TYPES
        return [int(x) for x in self.arr[start:start + self.rules.num_types]]

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.arr[k.S_PHASE])]

    def hand(self) -> list[int]:
        return self._block(k.S_HANDS, self.player)

    def display(self) -> list[int]:
        return self._block(k.S_DISPLAY)

    def stash(self, p: int) -> list[int]:
        """Player p's face-up (stealable) treasures."""
        return self._block(k.S_OPEN, p)

    def score(self, p: int) -> int:
        r = self.rules
        return int(self.arr[k.S_GOLD + p]) + sum(
            r.value_of(c) * (a + b) for c, (a, b) in
            enumerate(zip(self.stash(p), self._block(k.S_SAFE, p))))

    def steal_set(self) -> list[int]:
        return [int(c) for c in self.arr[k.S_SET:k.S_SET + 3] if c >= 0]

    def decode(self, action: int):
        return self.layout.decode(action)


def _view_from_core(cs, player: int, legal: list[int]) -> View:
    s = cs._state.copy()
    _blank_hidden(s, cs.rules, player)
    return View(cs.rules, _layout(cs.rules), player, s, legal)


_LAYOUTS: dict[Rules, ActionLayout] = {}


def _layout(rules: Rules) -> ActionLayout:
    lay = _LAYOUTS.get(rules)
    if lay is None:
        lay = _LAYOUTS[rules] = ActionLayout(rules)
    return lay


def _blank_hidden(s: np.ndarray, rules: Rules, player: int) -> None:
    """Blank other hands (keep their sizes and the public set of a steal under way) and
    the first pile's cards (keep its size)."""
    t = rules.num_types
    for p in range(rules.players):
        if p != player:
            s[k.S_HANDS + p * k.MAX_TYPES:k.S_HANDS + p * k.MAX_TYPES + t] = 0
    turn = int(s[k.S_TURN])
    if s[k.S_SET] >= 0 and turn != player:
        for c in s[k.S_SET:k.S_SET + 3]:
            s[k.S_HANDS + turn * k.MAX_TYPES + c] += 1
    if s[k.S_PILE_NUMBER] == 1:
        s[k.S_PILE:k.S_PILE + t] = 0


def _view_from_openspiel(state, player: int, legal: list[int]) -> View:
    """The same view from the OpenSpiel state's public fields and `player`'s own hand
    (other hands are read for their sizes only)."""
    r = state._r
    t = r.num_types
    s = np.zeros(k.S_SIZE, dtype=np.int64)
    s[k.S_PHASE], s[k.S_TURN], s[k.S_DEALT] = state._phase, state._turn, state._dealt
    s[k.S_TOOK_TWO], s[k.S_ACTED] = int(state._took_two), int(state._acted)
    s[k.S_SET:k.S_SET + 3] = list(state._set) + [-1] * (3 - len(state._set))
    s[k.S_VICTIM], s[k.S_TARGET] = state._victim, state._target
    s[k.S_MARIANNE], s[k.S_GOLD_TAKEN] = state._marianne, state._gold_taken
    s[k.S_PILE_NUMBER] = state._pile_number
    s[k.S_PILE_TOTAL] = sum(state._pile)
    s[k.S_DISCARD_TOTAL] = sum(state._discard)
    s[k.S_DISPLAY_TOTAL] = sum(state._display)
    s[k.S_PILE:k.S_PILE + t] = state._pile            # blanked below unless pile 2
    s[k.S_DISCARD:k.S_DISCARD + t] = state._discard
    s[k.S_DISPLAY:k.S_DISPLAY + t] = state._display
    for p in range(r.players):
        s[k.S_HAND_TOTAL + p] = sum(state._hands[p])
        s[k.S_OPEN_TOTAL + p] = sum(state._open[p])
        s[k.S_GOLD + p] = state._gold[p]
        s[k.S_OPEN + p * k.MAX_TYPES:k.S_OPEN + p * k.MAX_TYPES + t] = state._open[p]
        s[k.S_SAFE + p * k.MAX_TYPES:k.S_SAFE + p * k.MAX_TYPES + t] = state._safe[p]
    s[k.S_HANDS + player * k.MAX_TYPES:k.S_HANDS + player * k.MAX_TYPES + t] = \
        state._hands[player]
    _blank_hidden(s, r, player)
    return View(r, state._lay, player, s, legal)


def view_of(state) -> View:
    """The acting player's view of an OpenSpiel `robin_des_bois` state or a CoreState."""
    player = state.current_player()
    if player < 0:
        raise ValueError("no player acts at a chance node or at the end of the game")
    legal = list(state.legal_actions())
    if hasattr(state, "_lay"):
        return _view_from_openspiel(state, player, legal)
    return _view_from_core(state, player, legal)


def choose(player: Callable[[View], int], state) -> int:
    """The action `player` picks in `state` (OpenSpiel or CoreState), from its view."""
    return player(view_of(state))


# ===== hand arithmetic ======================================================================
def _stash_top(view: View, action: int) -> int:
    return view.rules.value_of(view.decode(action)[1][2])


def _runs(rules: Rules, hand: list[int]) -> list[int]:
    """Top values of the runs of three a hand can stash."""
    out = []
    for col in range(rules.colours):
        for low in range(1, rules.values - 1):
            c = rules.card(col, low)
            if hand[c] and hand[c + 1] and hand[c + 2]:
                out.append(low + 2)
    return out


def _sets(rules: Rules, hand: list[int]) -> list[tuple[int, int]]:
    """(value, distinct colours) of every value held three or more times."""
    out = []
    for v in range(1, rules.values + 1):
        cards = [hand[rules.card(col, v)] for col in range(rules.colours)]
        if sum(cards) >= 3:
            out.append((v, sum(1 for x in cards if x)))
    return out


def _potential(rules: Rules, hand: list[int], card: int) -> int:
    """Same-colour cards of the hand within two values of `card` (run material)."""
    col, v = rules.colour_of(card), rules.value_of(card)
    return sum(hand[rules.card(col, w)] for w in range(max(1, v - 2),
                                                         min(rules.values, v + 2) + 1)
               if w != v)


def _can_rob(view: View) -> bool:
    me, mar = view.player, int(view.arr[k.S_MARIANNE])
    return any(p != me and p != mar and any(view.stash(p))
               for p in range(view.rules.players))


def _by_kind(view: View) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for a in view.legal:
        out.setdefault(view.layout.kind_of[a], []).append(a)
    return out


def _greedy_take(view: View, allow_steal_takes: bool = False) -> int:
    """The take that makes the best run possible (two cards preferred at equal value),
    else the single card with the most run material, higher value first."""
    r, hand = view.rules, view.hand()
    best, best_key = view.legal[0], None
    for a in view.legal:
        kind, cards = view.decode(a)
        if kind not in (A.TAKE1, A.TAKE2):
            continue
        new = list(hand)
        for c in cards:
            new[c] += 1
        runs = _runs(r, new)
        if kind == A.TAKE2 and not runs and not allow_steal_takes:
            continue                       # a take of two that would oblige a steal
        if runs:
            key = (2, max(runs), len(cards))
        else:
            key = (1, _potential(r, hand, cards[0]), r.value_of(cards[0]))
        if best_key is None or key > best_key:
            best, best_key = a, key
    return best


def _rob_highest(view: View) -> int:
    """The highest-value treasure; among equals, from the leading player."""
    def key(a):
        victim, card = view.decode(a)[1]
        return (view.rules.value_of(card), view.score(victim))
    return max(view.legal, key=key)


def _counter_or_allow(view: View) -> int:
    kinds = _by_kind(view)
    return kinds[A.COUNTER][0] if A.COUNTER in kinds else kinds[A.ALLOW][0]


def _discard_by(view: View, key) -> int:
    return min(view.legal, key=lambda a: key(view.decode(a)[1][0]))


# ===== scripted players =====================================================================
class ScriptedPlayer:
    """Base: `__call__(view)` dispatches on the phase to `take`, `act`, `target`,
    `counter`, `lose`, `discard`; a phase with one legal action just plays it."""

    name = "scripted"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, view: View) -> int:
        if len(view.legal) == 1:
            return view.legal[0]
        return getattr(self, view.phase)(view)

    def take(self, view):
        return _greedy_take(view)

    def act(self, view):
        kinds = _by_kind(view)
        if A.STASH in kinds:
            return max(kinds[A.STASH], key=lambda a: _stash_top(view, a))
        if A.END in kinds:
            return kinds[A.END][0]
        return kinds[A.STEAL][0]           # took two: an action is owed

    def target(self, view):
        return _rob_highest(view)

    def counter(self, view):
        return _counter_or_allow(view)

    def lose(self, view):
        return view.legal[0]

    def discard(self, view):
        hand, r = view.hand(), view.rules
        return _discard_by(view, lambda c: (_potential(r, hand, c), r.value_of(c)))


class RandomPlayer(ScriptedPlayer):
    """Uniform among the legal actions."""

    name = "random"

    def __call__(self, view):
        return self.rng.choice(view.legal)


class GreedyStasher(ScriptedPlayer):
    """Takes what makes the highest run (two cards when they make one; never two that
    would oblige a steal), stashes the highest run as soon as it holds one, never steals
    unless taking two obliged it, ends; counters when it can (the card stays in hand);
    discards the cards with the least run material, lowest first."""

    name = "greedy_stasher"


class Thief(ScriptedPlayer):
    """Steals whenever it holds a set and someone can be robbed (three colours first, so
    that it cannot be countered), robbing the highest treasure; otherwise takes the card
    that makes a set, else as the greedy stasher; stashes when it cannot steal; counters
    when it can; discards cards of the values it holds fewest of."""

    name = "thief"

    def take(self, view):
        r, hand = view.rules, view.hand()
        if _can_rob(view) and not _sets(r, hand):
            best, best_key = None, None
            for a in view.legal:
                kind, cards = view.decode(a)
                new = list(hand)
                for c in cards:
                    new[c] += 1
                sets = _sets(r, new)
                if sets:
                    key = (max(colours for _, colours in sets), len(cards))
                    if best_key is None or key > best_key:
                        best, best_key = a, key
            if best is not None:
                return best
        return _greedy_take(view, allow_steal_takes=True)

    def act(self, view):
        kinds = _by_kind(view)
        if A.STEAL in kinds:
            r = view.rules
            return max(kinds[A.STEAL], key=lambda a: (
                len({r.colour_of(c) for c in view.decode(a)[1]}), -a))
        return super().act(view)

    def discard(self, view):
        hand, r = view.hand(), view.rules
        per_value = [sum(hand[r.card(col, v)] for col in range(r.colours))
                     for v in range(1, r.values + 1)]
        return _discard_by(view, lambda c: (per_value[r.value_of(c) - 1], r.value_of(c)))


class Defender(ScriptedPlayer):
    """Counters whenever it can; keeps counter cards (one card of every value it holds:
    discards duplicates of a value first, and of two runs prefers the one that spends no
    last card of a value); stashes safely (first the run whose colour makes three face-up
    treasures, which turns them face down); never steals unless taking two obliged it."""

    name = "defender"

    def act(self, view):
        kinds = _by_kind(view)
        if A.STASH in kinds:
            r, hand, mine = view.rules, view.hand(), view.stash(view.player)
            per_value = [sum(hand[r.card(col, v)] for col in range(r.colours))
                         for v in range(1, r.values + 1)]

            def key(a):
                cards = view.decode(a)[1]
                col = r.colour_of(cards[0])
                face_up = sum(mine[r.card(col, v)] for v in range(1, r.values + 1))
                last = sum(1 for c in cards if per_value[r.value_of(c) - 1] == 1)
                return (face_up == 2, -last, r.value_of(cards[2]))
            return max(kinds[A.STASH], key=key)
        return super().act(view)

    def discard(self, view):
        hand, r = view.hand(), view.rules
        per_value = [sum(hand[r.card(col, v)] for col in range(r.colours))
                     for v in range(1, r.values + 1)]
        return _discard_by(view, lambda c: (per_value[r.value_of(c) - 1] == 1,
                                            _potential(r, hand, c), r.value_of(c)))


SCRIPTED: dict[str, type[ScriptedPlayer]] = {
    cls.name: cls for cls in (RandomPlayer, GreedyStasher, Thief, Defender)}


# ===== search ===============================================================================
class MonteCarloSearch:
    """Determinized Monte Carlo search on the numba core.

    For each decision with two or more legal actions: `samples` times, deal the unseen
    cards uniformly (other hands to their known sizes, the rest to the first pile; the
    set of a steal under way stays in the thief's hand), then for every legal action play
    it and a greedy rollout to the end (every seat: stash the highest run, else steal,
    else end; rob the highest treasure; counter when possible; random takes, losses and
    discards). Pick the action with the best mean of (return + margin_weight * (own score
    - best other score)); the margin term only breaks near-ties. Budget per decision:
    samples * (legal actions) rollouts.

    Not peeking: it reads only the View (its hand and public fields); the hidden cards
    are re-dealt uniformly, ignoring what play revealed about them (a counter shown, a
    card taken from the display, a set returned to a countered thief)."""

    name = "search"

    def __init__(self, samples: int = 32, seed: int = 0, margin_weight: float = 0.01):
        if samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        self.samples, self.margin_weight = int(samples), float(margin_weight)
        self._rules_arr: dict[Rules, np.ndarray] = {}
        from . import _players_core  # noqa: F401  (compile or load the kernels)
        k._seed(int(seed) % 2**32)

    def values(self, view: View) -> np.ndarray:
        """Mean value of each legal action (in view.legal order)."""
        from ._players_core import _evaluate

        rules_arr = self._rules_arr.get(view.rules)
        if rules_arr is None:
            rules_arr = self._rules_arr[view.rules] = k.rules_array(view.rules, view.layout)
        candidates = np.array(view.legal, dtype=np.int64)
        totals = np.zeros(len(candidates), dtype=np.float64)
        unseen = np.zeros(k.MAX_TYPES, dtype=np.int64)
        unseen[:view.rules.num_types] = view.unseen
        _evaluate(view.arr, rules_arr, view.player, unseen, candidates, self.samples,
                  self.margin_weight, totals)
        return totals / self.samples

    def __call__(self, view: View) -> int:
        if len(view.legal) == 1:
            return view.legal[0]
        return view.legal[int(np.argmax(self.values(view)))]


def make_player(name: str, seed: int = 0, samples: int = 32):
    """A player by name: one of SCRIPTED, or `search` (MonteCarloSearch(samples)). The
    default budget, 32 re-deals a decision, is the one measured at the published box:
    with 16 the search did not beat three-player thieves (docs/robin-des-bois-rules.md,
    "Players and strength")."""
    if name == "search":
        return MonteCarloSearch(samples=samples, seed=seed)
    if name not in SCRIPTED:
        raise ValueError(f"unknown player {name!r}: use one of "
                         f"{', '.join(list(SCRIPTED) + ['search'])}")
    return SCRIPTED[name](seed)
