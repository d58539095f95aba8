"""The OpenSpiel State of Robin des Bois: plain-Python lists of card counts and the rules
of a turn (docs/robin-des-bois-rules.md, interpretations I1..I24).

Cards are counted, not ordered: a hand, the display, a pile, a stash is a list of counts
per card id. Drawing from a pile is a chance node whose outcomes are the card ids left,
weighted by their counts (the same distribution as a shuffled pile, drawn lazily).

Each player's information-state string is grown one token per event (perfect recall by
construction): every player action is public (`1:stash R3 R4 R5`), a card revealed on
the display is public (`show R3`), a card dealt into a hand is seen by its owner only
(`deal R3`; the others read `deal P1 ?`).
"""

from __future__ import annotations

import pyspiel

from . import actions as A
from .rules import DISPLAY_SIZE, Rules

# Phases
DEAL, TAKE, ACT, TARGET, COUNTER, LOSE, DISCARD, REFILL, OVER = range(9)
PHASE_NAMES = ("deal", "take", "act", "target", "counter", "lose", "discard", "refill",
               "over")


class RobinDesBoisState(pyspiel.State):
    """A position: who holds what, what lies where, and where the turn stands."""

    def __init__(self, game):
        super().__init__(game)
        r: Rules = game.rules
        self._r = r
        self._lay: A.ActionLayout = game.layout
        n, t = r.players, r.num_types
        self._hands = [[0] * t for _ in range(n)]
        self._open = [[0] * t for _ in range(n)]    # stealable treasures, face up
        self._safe = [[0] * t for _ in range(n)]    # three of a colour, face down
        self._gold = [0] * n                        # value of gold cards in the stash
        self._gold_taken = 0                        # gold supply: r.gold[gold_taken:]
        self._pile = [r.copies] * t
        self._pile_number = 1                       # 1, or 2 once the second is formed
        self._discard = [0] * t
        self._display = [0] * t
        self._marianne = -1                         # who holds Marianne (-1: nobody yet)
        self._phase = DEAL
        self._dealt = 0                             # setup cards dealt so far
        self._turn = 0                              # whose turn it is
        self._took_two = False
        self._acted = False
        self._set: tuple[int, ...] = ()             # the three cards of a steal
        self._victim = -1
        self._target = -1
        self._seen = [f"P{p}" for p in range(n)] + ["public"]

    # ----- OpenSpiel API -----------------------------------------------------------
    def current_player(self):
        ph = self._phase
        if ph == OVER:
            return pyspiel.PlayerId.TERMINAL
        if ph in (DEAL, REFILL):
            return pyspiel.PlayerId.CHANCE
        if ph == COUNTER:
            return self._victim
        return self._turn

    def is_terminal(self):
        return self._phase == OVER

    def chance_outcomes(self):
        pile = self._pile
        total = sum(pile)
        return [(c, k / total) for c, k in enumerate(pile) if k]

    def _legal_actions(self, player):
        lay, r, ph = self._lay, self._r, self._phase
        hand = self._hands[player]
        out: list[int] = []
        if ph == TAKE:
            cards = [c for c, k in enumerate(self._display) for _ in range(k)]
            singles = sorted(set(cards))
            out += [lay.take((c,)) for c in singles]
            pairs = sorted({(cards[i], cards[j]) for i in range(len(cards))
                            for j in range(i + 1, len(cards))})
            for a, b in pairs:
                hand[a] += 1
                hand[b] += 1
                if self._can_act(player):   # I4: taking two obliges an action
                    out.append(lay.take((a, b)))
                hand[a] -= 1
                hand[b] -= 1
        elif ph == ACT:
            if self._acted or not self._took_two:
                out.append(lay.simple(A.END))
            out += self._stashes(hand)
            if self._victims():
                out += self._steals(hand)
        elif ph == TARGET:
            for v in self._victims():
                out += [lay.rob(v, c) for c, k in enumerate(self._open[v]) if k]
        elif ph == COUNTER:
            value = r.value_of(self._set[0])
            out += [lay.simple(A.COUNTER, c) for c, k in enumerate(hand)
                    if k and r.value_of(c) == value]
            out.append(lay.simple(A.ALLOW))
        elif ph == LOSE:
            out += [lay.simple(A.LOSE, c) for c in sorted(set(self._set))]
        elif ph == DISCARD:
            out += [lay.simple(A.DISCARD, c) for c, k in enumerate(hand) if k]
        return sorted(out)

    def _apply_action(self, action):
        if self._phase in (DEAL, REFILL):
            self._apply_chance(action)
        else:
            self._apply_move(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return self._r.card_name(action)
        return self._lay.to_string(action)

    def returns(self):
        if self._phase != OVER:
            return [0.0] * self._r.players
        return utilities(self.scores())

    def information_state_string(self, player=None):
        if player is None:
            player = self.current_player()
        return self._seen[player]

    def observation_string(self, player=None):
        if player is None:
            player = self.current_player()
        return render(self, player)

    def __str__(self):
        return render(self, None)

    # ----- read-only views (tests, notebooks) --------------------------------------
    def scores(self) -> list[int]:
        """Treasure values (open and safe) plus gold, per player."""
        r = self._r
        return [sum(r.value_of(c) * (self._open[p][c] + self._safe[p][c])
                    for c in range(r.num_types)) + self._gold[p]
                for p in range(r.players)]

    def hand(self, player: int) -> list[str]:
        return self._names(self._hands[player])

    def stash(self, player: int) -> list[str]:
        return self._names(self._open[player])

    def safe(self, player: int) -> list[str]:
        return self._names(self._safe[player])

    def display(self) -> list[str]:
        return self._names(self._display)

    def gold(self, player: int) -> int:
        return self._gold[player]

    @property
    def marianne(self) -> int:
        return self._marianne

    @property
    def pile_number(self) -> int:
        return self._pile_number

    @property
    def pile_size(self) -> int:
        return sum(self._pile)

    @property
    def discard_size(self) -> int:
        return sum(self._discard)

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._phase]

    def _names(self, counts: list[int]) -> list[str]:
        return [self._r.card_name(c) for c, k in enumerate(counts) for _ in range(k)]

    # ----- legality helpers --------------------------------------------------------
    def _victims(self) -> list[int]:
        """Players the current player may rob: not himself, not Marianne's holder (I14),
        with at least one face-up treasure (I12)."""
        return [p for p in range(self._r.players)
                if p != self._turn and p != self._marianne and any(self._open[p])]

    def _stashes(self, hand: list[int]) -> list[int]:
        r, out = self._r, []
        for colour in range(r.colours):
            for low in range(1, r.values - 1):
                c = r.card(colour, low)
                if hand[c] and hand[c + 1] and hand[c + 2]:
                    out.append(self._lay.stash(colour, low))
        return out

    def _steals(self, hand: list[int]) -> list[int]:
        r, lay, out = self._r, self._lay, []
        for value in range(1, r.values + 1):
            have = [hand[r.card(col, value)] for col in range(r.colours)]
            if sum(have) < 3:
                continue
            for s in lay.colour_sets:
                if all(have[col] >= s.count(col) for col in set(s)):
                    out.append(lay.steal(value, s))
        return out

    def _can_act(self, player: int) -> bool:
        """Whether the hand allows a stash, or a steal with someone to rob."""
        hand, r = self._hands[player], self._r
        if self._stashes(hand):
            return True
        if not self._victims():
            return False
        return any(sum(hand[r.card(col, v)] for col in range(r.colours)) >= 3
                   for v in range(1, r.values + 1))

    # ----- transitions -------------------------------------------------------------
    def _record_all(self, token: str) -> None:
        seen = self._seen
        for i in range(len(seen)):
            seen[i] += "; " + token

    def _apply_chance(self, card: int) -> None:
        r = self._r
        self._pile[card] -= 1
        if self._phase == DEAL and self._dealt < r.players * r.hand_size:
            owner = self._dealt // r.hand_size
            self._hands[owner][card] += 1
            name = r.card_name(card)
            for p in range(len(self._seen)):
                self._seen[p] += f"; deal {name}" if p == owner else f"; deal P{owner} ?"
            self._dealt += 1
            return
        self._display[card] += 1
        self._record_all(f"show {r.card_name(card)}")
        self._dealt += 1
        if self._phase == DEAL:
            if self._dealt == r.players * r.hand_size + DISPLAY_SIZE:
                self._phase = TAKE
            return
        self._continue_refill()

    def _continue_refill(self) -> None:
        """After a card is turned or a turn ends: keep refilling, end, or pass on."""
        if sum(self._display) < DISPLAY_SIZE and not any(self._pile) \
                and self._pile_number == 1:
            # I18: the first pile is empty: the discards form the second pile.
            self._pile, self._discard = self._discard, [0] * self._r.num_types
            self._pile_number = 2
            self._record_all("second pile")
        if self._pile_number == 2 and not any(self._pile):
            # I19: the second pile is empty: the game is over (end=pile), or once the
            # last face-up treasure has been taken (end=display): play on without refill
            if not self._r.ends_with_display or not any(self._display):
                self._phase = OVER
                self._record_all("game over")
                return
        elif sum(self._display) < DISPLAY_SIZE:
            self._phase = REFILL
            return
        self._turn = (self._turn + 1) % self._r.players
        self._phase = TAKE
        self._took_two = self._acted = False

    def _apply_move(self, action: int) -> None:
        mover = self.current_player()
        self._record_all(f"{mover}:{self._lay.to_string(action)}")
        kind, args = self._lay.decode(action)
        r, hand = self._r, self._hands[mover]
        if kind in (A.TAKE1, A.TAKE2):
            for c in args:
                self._display[c] -= 1
                hand[c] += 1
            self._took_two = kind == A.TAKE2
            self._phase = ACT
        elif kind == A.STASH:
            for c in args:
                hand[c] -= 1
            self._discard[args[0]] += 1
            self._discard[args[1]] += 1
            self._put_in_stash(mover, args[2])          # I6: keep the highest
            if self._gold_taken < len(r.gold):         # I8, I9: take the best gold card
                self._gold[mover] += r.gold[self._gold_taken]
                self._gold_taken += 1
            self._acted = True
        elif kind == A.STEAL:
            self._set = args
            self._phase = TARGET
        elif kind == A.ROB:
            self._victim, self._target = args
            if len({r.colour_of(c) for c in self._set}) == 3:
                self._succeed()                         # I11: unstoppable
            else:
                self._phase = COUNTER                   # I13: the victim may counter
        elif kind == A.ALLOW:
            self._succeed()
        elif kind == A.COUNTER:
            self._phase = LOSE   # I15: the counter card goes back into the victim's hand
        elif kind == A.LOSE:
            hand[args[0]] -= 1                          # I16: the other two stay in hand
            self._discard[args[0]] += 1
            self._end_steal()
        elif kind == A.END:
            self._phase = DISCARD if sum(hand) > r.hand_limit else REFILL
            if self._phase == REFILL:
                self._continue_refill()
        elif kind == A.DISCARD:
            hand[args[0]] -= 1
            self._discard[args[0]] += 1
            if sum(hand) <= r.hand_limit:
                self._continue_refill()

    def _succeed(self) -> None:
        thief, victim, card = self._turn, self._victim, self._target
        for c in self._set:
            self._hands[thief][c] -= 1
            self._discard[c] += 1
        self._open[victim][card] -= 1
        self._put_in_stash(thief, card)
        self._marianne = victim                         # I14
        self._end_steal()

    def _end_steal(self) -> None:
        self._set, self._victim, self._target = (), -1, -1
        self._acted = True
        self._phase = ACT

    def _put_in_stash(self, player: int, card: int) -> None:
        """A treasure enters a stash face up; three face-up of one colour turn face down
        and become safe (I10)."""
        r, stash = self._r, self._open[player]
        stash[card] += 1
        colour = r.colour_of(card)
        row = range(colour * r.values, (colour + 1) * r.values)
        if sum(stash[c] for c in row) >= 3:
            moved = 0
            for c in row:                               # only the three: exactly 3 here
                while stash[c] and moved < 3:
                    stash[c] -= 1
                    self._safe[player][c] += 1
                    moved += 1


def utilities(scores: list[int]) -> list[float]:
    """Zero-sum ranking utility (I22): each of the k best scores gets (n-k)/(k(n-1)),
    everyone else -1/(n-1); two players: +1/-1, a tie 0; everyone tied: all 0."""
    n, best = len(scores), max(scores)
    k = scores.count(best)
    if k == n:
        return [0.0] * n
    win, lose = (n - k) / (k * (n - 1)), -1.0 / (n - 1)
    return [win if s == best else lose for s in scores]


def render(state: RobinDesBoisState, viewer: int | None) -> str:
    """The table now (no history). viewer None: the whole truth; a player: his own hand,
    other hands as sizes, safe treasures as counts (face down); -1: public view."""
    s, r = state, state._r
    parts = [f"P{viewer}" if viewer is not None and viewer >= 0 else
             ("public" if viewer is not None else "truth"),
             f"phase {PHASE_NAMES[s._phase]} turn {s._turn}",
             "display " + " ".join(s.display())]
    for p in range(r.players):
        if viewer is None or viewer == p:
            hand = "hand " + " ".join(s.hand(p))
        else:
            hand = f"hand {sum(s._hands[p])} cards"
        safe = (" ".join(s.safe(p)) if viewer is None else f"{sum(s._safe[p])} cards")
        parts.append(f"{p}: {hand}; stash {' '.join(s.stash(p))}; safe {safe}; "
                     f"gold {s._gold[p]}")
    parts.append(f"marianne {s._marianne} pile{s._pile_number} {sum(s._pile)} "
                 f"discard {sum(s._discard)} gold left {len(r.gold) - s._gold_taken}")
    if s._set:
        parts.append("steal " + " ".join(r.card_name(c) for c in s._set)
                     + (f" from {s._victim} {r.card_name(s._target)}" if s._victim >= 0
                        else ""))
    return " | ".join(parts)
