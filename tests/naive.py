"""The plain-Python twin of the Robin Wood rules, written from docs/rules.md and
docs/game-interface.md only (never from game_def/_core.py or game_def/game.py).

Slow and obvious on purpose: lists, dicts and one method per rule clause. The
differential test (tests/test_twin_differential.py) walks random trajectories through
this twin and the numba core in lockstep and asserts that they agree on every node.
"""

from __future__ import annotations

import copy

from game_def.characters import Character as C
from game_def.variant import Variant, parse

CHANCE = -1      # pyspiel.PlayerId.CHANCE
TERMINAL = -4    # pyspiel.PlayerId.TERMINAL

ROBIN_CAMP = (C.ROBIN, C.COMPANION)
SHERIFF_CAMP = (C.SHERIFF, C.DEPUTY)

# Chance action ids (docs/game-interface.md "Chance action ids").
SHUFFLE_KEEP = 10
SHUFFLE_SWAP = 11
FASTEST = 12


class NaiveGame:
    """One variant of Robin Wood; makes initial states."""

    def __init__(self, variant: "Variant | str"):
        self.variant = parse(variant)
        self.n = self.variant.num_positions

    # Player action ids (docs/game-interface.md "Player action ids").
    def peek(self, p): return p
    def use(self, p): return self.n + p
    def reveal(self, p): return 2 * self.n + p
    def pick(self, p): return 3 * self.n + p
    def silent(self): return 4 * self.n
    def announce(self, c): return 4 * self.n + 1 + int(c)
    def challenge(self): return 4 * self.n + 11
    def pass_(self): return 4 * self.n + 12
    def keep(self): return 4 * self.n + 13
    def swap(self): return 4 * self.n + 14
    def name(self, c): return 4 * self.n + 15 + int(c)

    def num_distinct_actions(self) -> int:
        return 4 * self.n + 25

    def new_initial_state(self) -> "NaiveState":
        return NaiveState(self)


class NaiveState:
    """A node of the game tree, kept as plain Python values."""

    def __init__(self, game: NaiveGame):
        v = game.variant
        self.game = game
        self.v = v
        self.n = n = v.num_positions
        # card[p]: the Character at position p, or None while undealt (lazy deal).
        # face_up[p]: whether position p lies face up.
        if v.layout is not None:
            self.card = [C(c) for c in v.layout]
            self.pool = {c: 0 for c in C}
        else:
            traitors = v.counts[C.TRAITOR]
            self.card = [None] * (n - traitors) + [C.TRAITOR] * traitors
            self.pool = {c: v.counts[c] for c in C}
            self.pool[C.TRAITOR] = 0
        self.face_up = [c == C.TRAITOR for c in self.card]
        self.strikes = [0] * v.players
        self.alive = [True] * v.players
        self.turns_ended = 0
        self.actor = v.first_player
        # What each seat has observed, one token per event (perfect recall).
        self.tokens = [[] for _ in range(v.players)]
        # The history as (player, action) pairs and as action strings.
        self.history = []
        self.returns_ = [0.0] * v.players
        self.terminal = False

        # The phase says who moves and what is legal.
        #   turn          actor: peek / use
        #   after_peek    actor: silent / announce
        #   fastest       chance: who among `responders` reacts next (random order)
        #   respond       `responder`: challenge / pass
        #   reveal        actor: reveal (Robin / Sheriff power)
        #   deputy1/2     actor: pick
        #   shuffle       chance: shuffle keep / swap
        #   monk          actor: pick
        #   witch_pick    actor: pick (not the Witch card)
        #   witch_choice  actor: keep / swap
        #   inn_pick      actor: pick
        #   inn_name      actor: name
        #   deal          chance: deal the card at `deal_pos`, then `after_deal`
        #   terminal
        self.phase = "turn"
        self.peeked = None          # position peeked this turn
        self.announced = None       # character announced this turn
        self.responders = []        # seats not yet asked whether they challenge
        self.responder = None       # seat asked now
        self.camp = None            # camp being unmasked (Robin / Sheriff power)
        self.first_pick = None      # Deputy's first position
        self.witch_card = None      # position of the Witch card (announced or used)
        self.witch_pick = None      # position the Witch took
        self.deal_pos = None
        self.deal_return = None     # phase that asked for the deal
        self.after_deal = None      # name of the method that continues after a deal

    # ----- OpenSpiel-like interface ------------------------------------------------------
    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self.phase in ("deal", "shuffle", "fastest"):
            return CHANCE
        if self.phase == "respond":
            return self.responder
        return self.actor

    def is_terminal(self) -> bool:
        return self.terminal

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def legal_actions(self, player=None) -> list:
        if self.terminal or self.is_chance_node():
            return []
        g, n = self.game, self.n
        ph = self.phase
        if ph == "turn":
            acts = [g.peek(p) for p in range(n) if not self.face_up[p]]
            acts += [g.use(p) for p in range(n)
                     if self.face_up[p] and self.card[p] != C.TRAITOR]
        elif ph == "after_peek":
            acts = [] if self.card[self.peeked] == C.TRICKSTER else [g.silent()]
            acts += [g.announce(c) for c in self.v.announceable]
        elif ph == "respond":
            acts = [g.challenge(), g.pass_()]
        elif ph == "reveal":
            acts = [g.reveal(p) for p in range(n) if not self.face_up[p]]
        elif ph in ("deputy1", "monk", "inn_pick"):
            acts = [g.pick(p) for p in range(n)]
        elif ph == "deputy2":
            acts = [g.pick(p) for p in range(n) if p != self.first_pick]
        elif ph == "witch_pick":
            acts = [g.pick(p) for p in range(n) if p != self.witch_card]
        elif ph == "witch_choice":
            acts = [g.keep(), g.swap()]
        elif ph == "inn_name":
            acts = [g.name(c) for c in self.v.in_deck]
        else:
            raise AssertionError(f"no player acts in phase {ph}")
        return sorted(acts)

    def chance_outcomes(self) -> list:
        if self.phase == "deal":
            total = sum(self.pool.values())
            return [(int(c), self.pool[c] / total) for c in C if self.pool[c] > 0]
        if self.phase == "shuffle":
            return [(SHUFFLE_KEEP, 0.5), (SHUFFLE_SWAP, 0.5)]
        if self.phase == "fastest":
            k = len(self.responders)
            return [(FASTEST + q, 1.0 / k) for q in sorted(self.responders)]
        return []

    def returns(self) -> list:
        return list(self.returns_)

    def information_state_string(self, player: int) -> str:
        return "".join([f"P{player}"] + [f"; {t}" for t in self.tokens[player]])

    def clone(self) -> "NaiveState":
        game = self.game
        self.game = None
        try:
            other = copy.deepcopy(self)
        finally:
            self.game = game
        other.game = game
        return other

    def action_to_string(self, player: int, action: int) -> str:
        n = self.n
        if player == CHANCE:
            if action < 10:
                return f"deal {C(action).label}"
            if action == SHUFFLE_KEEP:
                return "shuffle keep"
            if action == SHUFFLE_SWAP:
                return "shuffle swap"
            return f"fastest {action - FASTEST}"
        if action < n:
            return f"peek {action}"
        if action < 2 * n:
            return f"use {action - n}"
        if action < 3 * n:
            return f"reveal {action - 2 * n}"
        if action < 4 * n:
            return f"pick {action - 3 * n}"
        k = action - 4 * n
        if k == 0:
            return "silent"
        if 1 <= k <= 10:
            return f"announce {C(k - 1).label}"
        if k == 11:
            return "challenge"
        if k == 12:
            return "pass"
        if k == 13:
            return "keep"
        if k == 14:
            return "swap"
        return f"name {C(k - 15).label}"

    def history_strings(self) -> list:
        return [self.action_to_string(p, a) for p, a in self.history]

    def __str__(self) -> str:
        cards = " ".join(("?" if c is None else c.label) + ("^" if up else "")
                         for c, up in zip(self.card, self.face_up))
        return (f"[{cards}] strikes={self.strikes} turns={self.turns_ended} "
                f"actor={self.actor} phase={self.phase}")

    # ----- observations ------------------------------------------------------------------
    def _tell(self, seats, token: str) -> None:
        for s in seats:
            self.tokens[s].append(token)

    def _everybody(self):
        return range(self.v.players)

    def _partner(self, seat: int) -> int:
        return (seat + 2) % 4

    # ----- transitions -------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        action = int(action)
        player = self.current_player()
        if player == TERMINAL:
            raise ValueError("the game is over")
        if player == CHANCE:
            legal = [a for a, _ in self.chance_outcomes()]
        else:
            legal = self.legal_actions()
        if action not in legal:
            raise ValueError(f"illegal action {action} "
                             f"({self.action_to_string(player, action)}) in {self}")
        self.history.append((player, action))
        if player == CHANCE:
            self._apply_chance(action)
        else:
            self._apply_player(player, action)

    def _apply_chance(self, action: int) -> None:
        if self.phase == "deal":
            c = C(action)
            self.card[self.deal_pos] = c
            self.pool[c] -= 1
            self.deal_pos = None
            self.phase = self.deal_return     # back to the step that needed the card
            getattr(self, self.after_deal)()
        elif self.phase == "shuffle":
            a, b = self.first_pick, self.second_pick
            if action == SHUFFLE_SWAP:
                self.card[a], self.card[b] = self.card[b], self.card[a]
            self.face_up[a] = self.face_up[b] = False
            self._end_turn()
        elif self.phase == "fastest":
            q = action - FASTEST
            self._tell(self._everybody(), f"fastest {q}")
            self.responder = q
            self.phase = "respond"
        else:
            raise AssertionError(self.phase)

    def _apply_player(self, s: int, action: int) -> None:
        n = self.n
        text = self.action_to_string(s, action)
        ph = self.phase
        # Who observes the action itself: everybody except the Witch's keep/swap (actor
        # only) and the Innkeeper's pick/name (actor and partner only).
        if ph == "witch_choice":
            self._tell([s], f"{s}:{text}")
        elif ph in ("inn_pick", "inn_name"):
            self._tell([s, self._partner(s)], f"{s}:{text}")
        else:
            self._tell(self._everybody(), f"{s}:{text}")

        if ph == "turn":
            if action < n:
                self.peeked = action
                self._need_identity(action, "_peek_known")
            else:
                p = action - n
                self._run_power(self.card[p], p)
        elif ph == "after_peek":
            if action == 4 * n:      # silent: the card stays face down, the turn ends
                self._end_turn()
            else:
                self.announced = C(action - 4 * n - 1)
                self._start_challenges()
        elif ph == "respond":
            if action == 4 * n + 11:
                self._challenged(s)
            else:
                self.responders.remove(s)
                self.responder = None
                self._next_responder()
        elif ph == "reveal":
            p = action - 2 * n
            self.reveal_pos = p
            self._need_identity(p, "_reveal_known")
        elif ph == "deputy1":
            self.first_pick = action - 3 * n
            self.phase = "deputy2"
        elif ph == "deputy2":
            self.second_pick = action - 3 * n
            self.phase = "shuffle"
        elif ph == "monk":
            p = action - 3 * n
            self.monk_pos = p
            if self.face_up[p]:
                self.face_up[p] = False     # face up to face down: nothing is seen
                self._end_turn()
            else:
                self._need_identity(p, "_monk_known")
        elif ph == "witch_pick":
            p = action - 3 * n
            self.witch_pick = p
            self._need_identity(p, "_witch_known")
        elif ph == "witch_choice":
            a, b = self.witch_card, self.witch_pick
            if action == 4 * n + 14:
                self.card[a], self.card[b] = self.card[b], self.card[a]
            self.face_up[a] = self.face_up[b] = False
            self._end_turn()
        elif ph == "inn_pick":
            self.phase = "inn_name"
        elif ph == "inn_name":
            self._end_turn()
        else:
            raise AssertionError(ph)

    # A face-down card's identity is drawn from the undealt pool the first time it is
    # needed (docs/rules.md "Deal").
    def _need_identity(self, p: int, then: str) -> None:
        if self.card[p] is None:
            self.deal_return = self.phase
            self.phase = "deal"
            self.deal_pos = p
            self.after_deal = then
        else:
            getattr(self, then)()

    def _peek_known(self) -> None:
        p, c, s = self.peeked, self.card[self.peeked], self.actor
        if c == C.TRAITOR:
            # The Traitor goes face up for good, all see it, the peeker takes a strike.
            self.face_up[p] = True
            self._tell(self._everybody(), f"{p}={c.label}")
            if self._strike(s, 1):
                return
            self._end_turn()
        else:
            self._tell([s], f"{p}={c.label}")
            self.phase = "after_peek"

    def _start_challenges(self) -> None:
        # Every other live player, clockwise from the announcer's left.
        P = self.v.players
        self.responders = [(self.actor + k) % P for k in range(1, P)
                           if self.alive[(self.actor + k) % P]]
        self.responder = None
        self._next_responder()

    def _next_responder(self) -> None:
        if not self.responders:
            # Not challenged: the card stays face down and the power runs.
            self._run_power(self.announced, self.peeked)
        elif self.v.challenge_order == "random" and len(self.responders) >= 2:
            self.phase = "fastest"
        else:
            self.responder = self.responders[0]
            self.phase = "respond"

    def _challenged(self, challenger: int) -> None:
        p, c = self.peeked, self.card[self.peeked]
        self.face_up[p] = True
        self._tell(self._everybody(), f"{p}={c.label}")
        self.responders = []
        self.responder = None
        if c == self.announced:
            if self._strike(challenger, 1):
                return
            self._run_power(self.announced, p)
        else:
            if self._strike(self.actor, 1):
                return
            self._end_turn()

    def _run_power(self, c: C, pos: int) -> None:
        if c in (C.ROBIN, C.SHERIFF):
            self.camp = SHERIFF_CAMP if c == C.ROBIN else ROBIN_CAMP
            if self._camp_unmasked():
                self._win(self.actor)
            else:
                self.phase = "reveal"
        elif c == C.COMPANION:
            self._end_turn(again=True)
        elif c == C.DEPUTY:
            self.phase = "deputy1"
        elif c == C.MONK:
            self.phase = "monk"
        elif c == C.WITCH:
            self.witch_card = pos
            self.phase = "witch_pick"
        elif c == C.INNKEEPER:
            if self.alive[self._partner(self.actor)]:
                self.phase = "inn_pick"
            else:
                self._end_turn()        # partner eliminated: the power does nothing
        elif c in (C.PEASANT, C.TRICKSTER):
            self._end_turn()
        else:
            raise AssertionError(f"no power for {c!r}")

    def _camp_unmasked(self) -> bool:
        total = sum(self.v.counts[c] for c in self.camp)
        up = sum(1 for p in range(self.n) if self.face_up[p] and self.card[p] in self.camp)
        return up == total

    def _reveal_known(self) -> None:
        p = self.reveal_pos
        c = self.card[p]
        self.face_up[p] = True
        self._tell(self._everybody(), f"{p}={c.label}")
        if c in self.camp:
            if self._camp_unmasked():
                self._win(self.actor)
            # else: reveal again
        else:
            k = 2 if (c == C.TRAITOR and self.v.traitor_strikes_on_reveal) else 1
            if self._strike(self.actor, k):
                return
            self._end_turn()

    def _monk_known(self) -> None:
        p = self.monk_pos
        self.face_up[p] = True
        self._tell(self._everybody(), f"{p}={self.card[p].label}")
        self._end_turn()

    def _witch_known(self) -> None:
        p = self.witch_pick
        self._tell([self.actor], f"{p}={self.card[p].label}")
        self.phase = "witch_choice"

    # ----- strikes, turns and the end of the round ---------------------------------------
    def _strike(self, seat: int, k: int) -> bool:
        """Give `seat` k strikes; True when that ends the round (one player/team left)."""
        self.strikes[seat] += k
        if self.strikes[seat] >= self.v.strikes:
            self.alive[seat] = False
        live = [s for s in range(self.v.players) if self.alive[s]]
        if self.v.teams:
            if len({s % 2 for s in live}) == 1:
                self._win(live[0])
                return True
        elif len(live) == 1:
            self._win(live[0])
            return True
        return False

    def _end_turn(self, again: bool = False) -> None:
        self.turns_ended += 1
        self.peeked = self.announced = self.camp = None
        self.first_pick = self.witch_card = self.witch_pick = None
        if self.turns_ended >= self.v.max_turns:
            self._finish([0.0] * self.v.players)
            return
        if not again:
            P = self.v.players
            nxt = (self.actor + 1) % P
            while not self.alive[nxt]:
                nxt = (nxt + 1) % P
            self.actor = nxt
        self.phase = "turn"

    def _win(self, seat: int) -> None:
        P = self.v.players
        if self.v.teams:
            r = [1.0 if s % 2 == seat % 2 else -1.0 for s in range(P)]
        elif P == 2:
            r = [1.0 if s == seat else -1.0 for s in range(P)]
        else:
            r = [1.0 if s == seat else -1.0 / (P - 1) for s in range(P)]
        self._finish(r)

    def _finish(self, returns) -> None:
        self.returns_ = list(returns)
        self.terminal = True
        self.phase = "terminal"
