"""Rounds replayed from a deal, and the games people are playing against the strategy.

A deal is a full layout (one character per position, the Traitors at the last
positions, as the lazy deal puts them). The game itself still deals lazily: when a card
is first looked at, the chance outcome is the layout's card there, and the layout
follows every exchange (the Deputy's shuffle, the Witch's swap), so a round stays the
solved game's round. The Deputy's blind shuffle is drawn from a seeded generator, one
draw per step, so a deal, a seed and the players' actions fix the whole round.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
import threading

import pyspiel

import game_def
from game_def import kernels as k
from game_def.characters import NAMES, Character, parse_character
from game_def.errors import IllegalActionError, RobinWoodError

from . import board as bd
from .run import Decision, ExploredRun


class BadRequest(RobinWoodError):
    """A request the explorer cannot serve: the message says what to send instead."""


# ----- deals -------------------------------------------------------------------------
def random_layout(variant, rng: random.Random) -> list[str]:
    """A uniformly random deal: the face-down cards shuffled, the Traitors last (a
    variant with a fixed layout has only that deal)."""
    if variant.layout is not None:
        return [c.label for c in variant.layout]
    cards = [c for c in Character for _ in range(variant.counts[c]) if c != Character.TRAITOR]
    rng.shuffle(cards)
    return [c.label for c in cards] + ["Traitor"] * variant.counts[Character.TRAITOR]


def check_layout(variant, names) -> list[str]:
    """The layout as canonical names, or BadRequest saying what a deal must hold."""
    n = variant.num_positions
    if not isinstance(names, list) or len(names) != n:
        raise BadRequest(f"a deal is a list of {n} character names, one per position")
    try:
        cards = [parse_character(str(x), where="deal") for x in names]
    except RobinWoodError as e:
        raise BadRequest(str(e)) from None
    want = sorted(c for c in Character for _ in range(variant.counts[c]))
    if sorted(cards) != want:
        raise BadRequest(f"the deal must hold exactly the deck {variant.deck} "
                         f"({', '.join(c.label for c in want)})")
    if variant.layout is not None:
        fixed = [c.label for c in variant.layout]
        if [c.label for c in cards] != fixed:
            raise BadRequest(f"this run was solved for one fixed deal, {'+'.join(fixed)}: "
                             f"it is the only deal it can show")
        return fixed
    traitors = variant.counts[Character.TRAITOR]
    if traitors and any(c != Character.TRAITOR for c in cards[n - traitors:]):
        raise BadRequest(f"the Traitor starts face up at the last position ({n - 1}); "
                         f"put it there")
    return [c.label for c in cards]


class DealTracker:
    """The deal, kept up to date with exchanges, resolving the game's chance nodes."""

    def __init__(self, layout: list[str], seed: int):
        self.layout = list(layout)
        self.seed = seed

    def chance_outcome(self, state: pyspiel.State) -> int:
        """The outcome the deal (or the seeded shuffle) gives at a chance node."""
        s = state.core_state
        outcomes = state.chance_outcomes()
        if int(s[k.S_PHASE]) == k.PH_DEAL:
            card = NAMES.index(self.layout[int(s[k.S_DEAL_POS])])
            if card not in [a for a, _ in outcomes]:
                raise RuntimeError(f"deal {self.layout} out of step with the game at "
                                   f"{state.history()}")
            return card
        rng = random.Random(f"{self.seed}:{len(state.history())}")
        x, total = rng.random(), 0.0
        for a, p in outcomes:
            total += p
            if x < total:
                return a
        return outcomes[-1][0]

    def before(self, state: pyspiel.State, action: int) -> None:
        """Follow the exchange `action` makes, if any (call before applying it)."""
        s = state.core_state
        phase = int(s[k.S_PHASE])
        n = state.get_game().variant.num_positions
        if phase == k.PH_SHUFFLE and action == k.C_SHUFFLE_SWAP:
            self._swap(int(s[k.S_PICK]), int(s[k.S_PICK2]))
        elif phase == k.PH_WITCH_CHOICE and action == 4 * n + k.A_SWAP:
            self._swap(int(s[k.S_POWER_POS]), int(s[k.S_PICK]))

    def _swap(self, a: int, b: int) -> None:
        self.layout[a], self.layout[b] = self.layout[b], self.layout[a]

    def apply(self, state: pyspiel.State, action: int) -> None:
        self.before(state, action)
        state.apply_action(action)

    def advance(self, state: pyspiel.State) -> None:
        """Resolve chance nodes until a decision or the end."""
        while state.is_chance_node():
            self.apply(state, self.chance_outcome(state))


def parse_action(state: pyspiel.State, text) -> int:
    """The id of the legal action `text` at state (a decision or a chance node)."""
    if not isinstance(text, str):
        raise BadRequest(f"an action is a string such as 'peek 0' (got {text!r})")
    if state.is_terminal():
        raise IllegalActionError(f"cannot play {text!r}: the round is over")
    player = state.current_player()
    ids = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
           else state.legal_actions())
    by_text = {state.action_to_string(player, a): a for a in ids}
    wanted = " ".join(text.split())
    if wanted not in by_text:
        raise IllegalActionError(f"{text!r} is not legal here; legal: {', '.join(by_text)}")
    return by_text[wanted]


def replay(run: ExploredRun, layout: list[str], actions, seed: int = 0):
    """The state after `actions` (strings, chance included or left out: the deal fills
    in what is missing) from `layout`, chance nodes then resolved; and the tracker."""
    if not isinstance(actions, list):
        raise BadRequest("actions is a list of action strings, e.g. ['peek 0']")
    tracker = DealTracker(layout, seed)
    state = run.game.new_initial_state()
    for i, text in enumerate(actions):
        given_chance = isinstance(text, str) and text.split(" ")[0] in ("deal", "shuffle",
                                                                         "fastest")
        if not (given_chance and state.is_chance_node()):
            tracker.advance(state)  # chance the list leaves out comes from the deal
        a = parse_action(state, text)
        if state.is_chance_node() and int(state.core_state[k.S_PHASE]) == k.PH_DEAL:
            if a != tracker.chance_outcome(state):
                raise IllegalActionError(
                    f"step {i}: {text!r} contradicts the deal, which holds the "
                    f"{tracker.layout[int(state.core_state[k.S_DEAL_POS])]} there")
        tracker.apply(state, a)
    tracker.advance(state)
    return state, tracker


def decision_view(run: ExploredRun, state: pyspiel.State, *, strategy: bool = True) -> dict:
    """The legal actions at a decision; with the strategy's numbers when `strategy`."""
    mover = state.current_player()
    d: Decision | None = run.decision(state) if strategy else None
    actions = []
    for a in state.legal_actions():
        text = state.action_to_string(mover, a)
        row = {"id": int(a), "text": text, "label": bd.action_label(text, state)}
        if d is not None:
            row["prob"] = d.probabilities[a]
            row["ev"] = None if d.action_values is None else d.action_values[a]
        actions.append(row)
    out = {"mover": mover, "actions": actions}
    if d is not None:
        out.update(reach=d.reach, situation_reach=d.situation_reach, value=d.value,
                   strategy_value=d.strategy_value,
                   visits=d.visits, entry=d.entry, played_by=d.played_by,
                   locked_by=d.locked_by,
                   info_state=state.information_state_string(mover))
    return out


def browse_view(run: ExploredRun, layout, actions, seed=0) -> dict:
    """Everything the Browse tab shows after `actions` from `layout`."""
    layout = check_layout(run.variant, layout)
    if not isinstance(seed, int):
        raise BadRequest("seed must be a whole number")
    state, tracker = replay(run, layout, actions, seed)
    history = bd.history_lines(state)
    strings = [h["text"] for h in history]
    out = {
        "layout": layout, "seed": seed, "actions": strings, "history": history,
        "board": bd.board(state, None, truth=tracker.layout),
        "views": {str(p): bd.board(state, p) for p in range(run.players)},
        "decision": None if state.is_terminal() else decision_view(run, state),
        "value": run.situation_value(state),
        "replay": replay_snippet(run, strings),
    }
    return out


def replay_snippet(run: ExploredRun, strings: list[str]) -> str:
    args = "".join(f", {s!r}" for s in strings)
    return (f"import game_def\ngame = game_def.load_game({str(run.variant)!r})\n"
            f"state = game_def.play(game{args})")


# ----- playing against the strategy --------------------------------------------------
def check_seat(variant, seat) -> int:
    """The human's seat, or BadRequest naming the seats this table has."""
    players = variant.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        if players == 2:
            raise BadRequest(f"seat must be 0 (you play first) or 1 (got {seat!r})")
        raise BadRequest(f"seat must be 0 to {players - 1} at this table of {players} "
                         f"({variant}; {variant.first_player} plays first) (got {seat!r})")
    return seat


@dataclasses.dataclass
class ReviewedDecision:
    """One of the human's decisions, with what the strategy would have done there."""

    turn: int
    situation: str
    info_state: str
    chosen: str
    actions: list[dict]      # text, label, prob, ev (exact runs)
    chosen_prob: float
    chosen_ev: float | None
    strategy_ev: float | None
    cost: float | None       # strategy_ev - chosen_ev: what the choice gave away
    visits: int | None
    # exact runs: False where the strategy itself never plays into this situation (its
    # own reach is 0), so its probabilities there were never trained
    on_path: bool | None


@dataclasses.dataclass
class RoundRecord:
    layout: list[str]
    human_seat: int
    seed: int
    state: pyspiel.State
    tracker: DealTracker
    review: list[ReviewedDecision] = dataclasses.field(default_factory=list)
    # three or four players: the chair (place at the table, fixed for a match) of game
    # seat s is (s + rotation) % players, so that the round's starter is the solved
    # game's first player
    rotation: int = 0


class PlayGame:
    """A round or a best-of-3 match (first to two round wins) against the strategy.

    The strategy plays every seat the human does not (in team mode the human's partner
    too); its moves are drawn from its probabilities. A round is always the solved game
    (its first player starts), so in a match the seats follow who starts, by the
    rulebook's rule (docs/rules.md, "The match"): with two players the loser of a round
    starts the next (after a draw, the player who did not start); with three or four the
    seat left of the player whose turn ended the round (teams: the first player of the
    losing team from there). With three or four players the players keep their places
    (chairs) and the game's seats turn round the table. Rounds are capped at 20 in a match.
    """

    MAX_ROUNDS = 20

    def __init__(self, run: ExploredRun, human_seat: int = 0, match: bool = False,
                 seed: int | None = None, search: bool = False):
        check_seat(run.variant, human_seat)
        if search and run.kind != "mccfr":
            raise BadRequest("search plays a Monte Carlo CFR table: an exact strategy is "
                             "already an equilibrium (play it without search)")
        if search and "search" in run.two_player_only:
            raise BadRequest(run.two_player_only["search"])
        self.run = run
        # the AI with play-time search (docs/search.md) instead of the table's draws
        self.searcher = run.searcher() if search else None
        self.match = bool(match)
        self.seed = secrets.randbits(32) if seed is None else int(seed)
        self.rng = random.Random(self.seed)
        self.rounds: list[RoundRecord] = []
        self.wins = {"you": 0, "ai": 0}
        self.players = run.players
        self.teams = bool(run.variant.teams)
        self.chair = human_seat                  # the human's place for the whole game
        self.side_wins = [0] * len(self.sides)   # round wins per side (three or four)
        self.draws = 0
        self.lock = threading.Lock()
        self._start_round(human_seat)

    # -- rounds --
    @property
    def current(self) -> RoundRecord:
        return self.rounds[-1]

    @property
    def names(self) -> dict[int, str]:
        """Each seat of the current round by who sits there: You, AI (two players),
        Partner and AI <chair> (three or four)."""
        h = self.current.human_seat
        if self.players == 2:
            return {h: "You", 1 - h: "AI"}
        return {s: self.chair_name(self.chair_of(s)) for s in range(self.players)}

    def chair_of(self, seat: int) -> int:
        """The place at the table of the current round's game seat `seat`."""
        return (seat + self.current.rotation) % self.players

    def chair_name(self, chair: int) -> str:
        """Who sits at `chair`: You, your Partner (team mode) or AI <chair>."""
        if chair == self.chair:
            return "You"
        if self.teams and chair == bd.partner(self.chair):
            return "Partner"
        return f"AI {chair}"

    @property
    def sides(self) -> list[tuple[int, ...]]:
        """Who wins a round together, by chairs: each player, or each team (0+2, 1+3)."""
        if self.teams:
            return [(0, 2), (1, 3)]
        return [(c,) for c in range(self.players)]

    def side_of(self, chair: int) -> int:
        """The side (index of `sides`) that wins with `chair`."""
        return chair % 2 if self.teams else chair

    def side_label(self, side: int) -> str:
        """'You', 'AI 2', or a team's two names ('You and Partner', 'AI 1 and AI 3')."""
        names = sorted((self.chair_name(c) for c in self.sides[side]),
                       key=lambda name: name != "You")
        return " and ".join(names)

    def _start_round(self, human_seat: int, rotation: int = 0) -> None:
        layout = random_layout(self.run.variant, self.rng)
        seed = self.rng.randrange(1 << 31)
        tracker = DealTracker(layout, seed)
        state = self.run.game.new_initial_state()
        self.rounds.append(RoundRecord(layout, human_seat, seed, state, tracker,
                                       rotation=rotation))
        self._ai_moves()

    def _ai_moves(self) -> None:
        r = self.current
        state = r.state
        while not state.is_terminal():
            if state.is_chance_node():
                r.tracker.advance(state)
                continue
            if state.current_player() == r.human_seat:
                return
            if self.searcher is not None:
                from solver.search import search_action

                a = search_action(self.searcher, state.history(), self.rng.randrange(1 << 62))
            else:
                probs = self.run.probabilities(state)
                actions = sorted(probs)
                a = self.rng.choices(actions, [probs[x] for x in actions])[0]
            r.tracker.apply(state, a)
        self._round_over()

    def _round_over(self) -> None:
        r = self.current
        winner = int(r.state.core_state[k.S_WINNER])
        if winner < 0:
            self.draws += 1
        elif self.players == 2:
            self.wins["you" if winner == r.human_seat else "ai"] += 1
        else:
            self.side_wins[self.side_of(self.chair_of(winner))] += 1

    def round_result(self) -> dict | None:
        """Who won the finished round: the text, the winners' names (a team's two) and
        whether the human's side won (None: a draw); None while it is played."""
        state = self.current.state
        if not state.is_terminal():
            return None
        names = self.names
        winner = int(state.core_state[k.S_WINNER])
        if winner < 0:
            return {"text": bd.result_text(state, names), "winners": [], "you_won": None}
        seats = [winner, bd.partner(winner)] if self.teams else [winner]
        you = self.current.human_seat in seats
        return {"text": bd.result_text(state, names),
                "winners": sorted((names[s] for s in seats),
                                  key=lambda n: (n != "You", n != "Partner", n)),
                "you_won": you}

    @property
    def round_over(self) -> bool:
        return self.current.state.is_terminal()

    @property
    def over(self) -> bool:
        if not self.round_over:
            return False
        if not self.match:
            return True
        most = max(self.wins.values()) if self.players == 2 else max(self.side_wins)
        return most >= 2 or len(self.rounds) >= self.MAX_ROUNDS

    def move(self, text) -> None:
        """The human plays `text` (an action string); the strategy answers."""
        r = self.current
        state = r.state
        if state.is_terminal():
            raise IllegalActionError("the round is over: start the next round "
                                     "(or a new game)")
        if state.current_player() != r.human_seat:
            raise IllegalActionError("it is not your turn")
        a = parse_action(state, text)
        r.review.append(self._review(state, a))
        r.tracker.apply(state, a)
        self._ai_moves()

    def next_round(self) -> None:
        if not self.match:
            raise IllegalActionError("this game is a single round: start a new game")
        if not self.round_over:
            raise IllegalActionError("the round is still being played")
        if self.over:
            raise IllegalActionError("the match is over: start a new game")
        if self.players > 2:
            self._next_table_round()
            return
        r = self.current
        first = self.run.variant.first_player
        winner = int(r.state.core_state[k.S_WINNER])
        human_started = r.human_seat == first
        if winner < 0:       # a draw: the player who did not start starts
            human_starts = not human_started
        else:                # the loser starts
            human_starts = winner != r.human_seat
        self._start_round(first if human_starts else 1 - first)

    def _next_table_round(self) -> None:
        """Three or four players: the next starter by the rulebook (docs/rules.md, "The
        match"), then the seats turned so that the starter holds the first player's."""
        s = self.current.state.core_state
        ender = self.chair_of(int(s[k.S_ENDER]))
        winner = int(s[k.S_WINNER])
        starter = (ender + 1) % self.players
        if self.teams and winner >= 0:   # the losing team's first player from there
            losing = 1 - self.side_of(self.chair_of(winner))
            starter = next(c for c in ((ender + i) % 4 for i in range(1, 5))
                           if self.side_of(c) == losing)
        rotation = (starter - self.run.variant.first_player) % self.players
        self._start_round((self.chair - rotation) % self.players, rotation)

    def match_result(self) -> str:
        """The finished match in a sentence."""
        if self.players == 2:
            w = self.wins
            return ("You won the match" if w["you"] > w["ai"] else
                    "The AI won the match" if w["ai"] > w["you"] else "The match is drawn")
        best = max(self.side_wins)
        leaders = [i for i, w in enumerate(self.side_wins) if w == best]
        if best == 0 or len(leaders) > 1:
            return "The match is drawn"
        if leaders[0] == self.side_of(self.chair):
            return "Your team won the match" if self.teams else "You won the match"
        return f"{self.side_label(leaders[0])} won the match"

    def tally(self) -> list[dict]:
        """Round wins per side (three or four players): each player, or each team; the
        human's side first, then the others in turn order."""
        mine = self.side_of(self.chair)
        rows = [{"side": self.side_label(i), "wins": w, "you": i == mine}
                for i, w in enumerate(self.side_wins)]
        return sorted(rows, key=lambda row: not row["you"])

    def _review(self, state: pyspiel.State, action: int) -> ReviewedDecision:
        d = self.run.decision(state)
        mover = state.current_player()
        rows = []
        for a in state.legal_actions():
            text = state.action_to_string(mover, a)
            rows.append({"text": text, "label": bd.action_label(text, state),
                         "prob": d.probabilities[a],
                         "ev": None if d.action_values is None else d.action_values[a],
                         "chosen": a == action})
        chosen_ev = None if d.action_values is None else d.action_values[action]
        cost = None if chosen_ev is None else d.strategy_value - chosen_ev
        return ReviewedDecision(
            turn=int(state.core_state[k.S_TURN]) + 1,
            situation=_situation_text(bd.board(state, mover, names=self.names)),
            info_state=state.information_state_string(mover),
            chosen=state.action_to_string(mover, action), actions=rows,
            chosen_prob=d.probabilities[action], chosen_ev=chosen_ev,
            strategy_ev=d.strategy_value, cost=cost, visits=d.visits,
            on_path=None if d.situation_reach is None else d.situation_reach > 0)

    # -- views --
    def view(self) -> dict:
        r = self.current
        state = r.state
        human = r.human_seat
        names = self.names
        out = {
            "mode": "match" if self.match else "round",
            "search": self.searcher is not None,
            "round": len(self.rounds), "wins": dict(self.wins),
            "you_start": human == self.run.variant.first_player, "seat": human,
            "round_over": self.round_over, "over": self.over,
            "players": self.players, "teams": self.teams,
            "names": {str(seat): name for seat, name in names.items()},
            "starter": names[self.run.variant.first_player],
            "board": bd.board(state, human, names=names),
            "log": bd.viewer_lines(state, human, names),
            "decision": None, "reveal": None,
        }
        if not state.is_terminal() and state.current_player() == human:
            out["decision"] = decision_view(self.run, state, strategy=False)
        if self.round_over:
            history = bd.history_lines(state, names)
            # the seeds fix the deals: shown once the game is over, never before
            out["reveal"] = {
                "seed": self.seed if self.over else None,
                "layout": r.layout, "final_layout": r.tracker.layout,
                "board": bd.board(state, None, truth=r.tracker.layout, names=names),
                "history": history, "actions": [h["text"] for h in history],
                "review": [dataclasses.asdict(x) for x in r.review],
                "total_cost": (sum(x.cost for x in r.review)
                               if r.review and all(x.cost is not None for x in r.review)
                               else None),
            }
            out["round_result"] = self.round_result()
            if self.over and self.match:
                out["match_result"] = self.match_result()
        if self.players > 2:
            out.update(self._table_tally())
        return out

    def _table_tally(self) -> dict:
        """Three or four players: the tally by side, the draws, and `wins` as your
        side's round wins against every other side's together."""
        mine = self.side_of(self.chair)
        return {"tally": self.tally(), "draws": self.draws,
                "wins": {"you": self.side_wins[mine],
                         "ai": sum(self.side_wins) - self.side_wins[mine]}}


def _situation_text(board: dict) -> str:
    """The phase line, with the cards the mover holds (a peek, the Witch's two)."""
    held = [f"the {p['holding']} at {p['pos']}" for p in board["positions"] if p["holding"]]
    return board["phase"] + (f" (holding {' and '.join(held)})" if held else "")


class PlayStore:
    """The games being played on this server, by id (in memory, most recent 200)."""

    LIMIT = 200

    def __init__(self):
        self._games: dict[str, PlayGame] = {}
        self._lock = threading.Lock()

    def new(self, game: PlayGame) -> str:
        gid = secrets.token_hex(8)
        with self._lock:
            self._games[gid] = game
            while len(self._games) > self.LIMIT:
                self._games.pop(next(iter(self._games)))
        return gid

    def get(self, gid: str) -> PlayGame:
        with self._lock:
            game = self._games.get(gid)
        if game is None:
            raise KeyError(gid)
        return game
