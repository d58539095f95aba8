"""Robin Wood as an OpenSpiel game (`robin_wood`), with state transitions in the numba core.

Laid out like OpenSpiel's `python/games/kuhn_poker.py`: a GameType, a GameInfo built
from the parameters, a Game, a State and an Observer. The State holds the core's int64
array plus one observation string per player, grown one token per event, so that
information-state strings are perfect-recall by construction and cheap to clone.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from . import _core as k
from . import actions as act
from . import core
from .characters import NAMES, Character
from .errors import VariantError
from .variant import PARAMETER_DEFAULTS, Variant, from_params

GAME_NAME = "robin_wood"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Robin Wood",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(PARAMETER_DEFAULTS),
)


def max_game_length(variant: Variant) -> int:
    """Upper bound on player moves: per turn a peek, an announcement, one response per
    opponent and at most max(n, 2) power moves (reveals, picks, keep/swap, name)."""
    per_turn = 2 + (variant.players - 1) + max(variant.num_positions, 2)
    return variant.max_turns * per_turn


class RobinWoodGame(pyspiel.Game):
    """One Robin Wood round for a variant given as OpenSpiel parameters."""

    def __init__(self, params=None):
        self.variant = from_params(params or {})
        self.rules = core.rules_array(self.variant)
        self.rules.flags.writeable = False
        v = self.variant
        info = pyspiel.GameInfo(
            num_distinct_actions=act.num_distinct_actions(v.num_positions),
            max_chance_outcomes=k.MAX_CHANCE_OUTCOMES,
            num_players=v.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(v),
        )
        # The canonical parameters (named deck, '+'-joined lists) make str(game)
        # round-trip through pyspiel.load_game.
        super().__init__(_GAME_TYPE, info, v.to_params())
        # OpenSpiel clones a Python state by constructing a new one and deep-copying its
        # attributes, so everything a new state needs is prepared once, here.
        self.key = str(v)
        _RULES_BY_KEY[self.key] = self.rules
        self.initial_state_array = core.initial_state(self.rules)
        self.initial_seen = tuple(f"P{p}" for p in range(v.players)) + ("public",)

    def new_initial_state(self):
        return RobinWoodState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return RobinWoodObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
            self.variant)


# States keep only a key to their rules: State.clone deep-copies attributes.
_RULES_BY_KEY: dict[str, np.ndarray] = {}


class RobinWoodState(pyspiel.State):
    """A position in a round: the core's state array plus what each player has seen."""

    def __init__(self, game: RobinWoodGame):
        super().__init__(game)
        self._key = game.key
        self._n = int(game.rules[k.R_N])
        self._state = game.initial_state_array.copy()
        # One growing observation record per player, plus the public one (last).
        self._seen = list(game.initial_seen)

    # ----- OpenSpiel API -----------------------------------------------------------
    @property
    def _rules(self) -> np.ndarray:
        return _RULES_BY_KEY[self._key]

    def current_player(self):
        return int(k._current_player(self._state))

    def _legal_actions(self, player):
        return core.legal_actions(self._state, self._rules).tolist()

    def chance_outcomes(self):
        return core.chance_outcomes(self._state, self._rules)

    def _apply_action(self, action):
        state, rules = self._state, self._rules
        mover = int(k._current_player(state))
        actor = int(state[k.S_ACTOR])
        scope = int(k._action_scope(state, rules, action))
        if scope != k.SCOPE_NONE:
            text = act.action_to_string(self._n, mover, action)
            token = text if mover == k.CHANCE_PLAYER else f"{mover}:{text}"
            self._record(scope, actor, token)
        k._apply_action(state, rules, action)
        seen = int(state[k.S_SEEN_SCOPE])
        if seen != k.SCOPE_NONE:
            card = NAMES[int(state[k.S_SEEN_CHAR])]
            self._record(seen, actor, f"{int(state[k.S_SEEN_POS])}={card}")

    def _record(self, scope: int, actor: int, token: str) -> None:
        seen = self._seen
        if scope == k.SCOPE_ALL:
            for i in range(len(seen)):
                seen[i] += "; " + token
        elif scope == k.SCOPE_ACTOR:
            seen[actor] += "; " + token
        else:  # SCOPE_TEAM: the actor and the partner opposite
            seen[actor] += "; " + token
            seen[(actor + 2) % 4] += "; " + token

    def _action_to_string(self, player, action):
        return act.action_to_string(self._n, player, action)

    def is_terminal(self):
        return bool(self._state[k.S_PHASE] == k.PH_TERMINAL)

    def returns(self):
        return core.returns(self._state, self._rules).tolist()

    def information_state_string(self, player=None):
        if player is None:
            player = self.current_player()
        return self._seen[player]

    def __str__(self):
        return render_board(self._state, self._rules)

    # ----- read-only views for tests, analysis and notebooks ------------------------
    @property
    def strikes(self) -> tuple[int, ...]:
        return tuple(int(x) for x in self._state[k.S_STRIKES:k.S_STRIKES + len(self._seen) - 1])

    @property
    def face_up(self) -> tuple[bool, ...]:
        return tuple(bool(x) for x in self._state[k.S_FACEUP:k.S_FACEUP + self._n])

    @property
    def cards(self) -> tuple[str | None, ...]:
        """Card per position (None while undealt): the truth, which no player sees whole."""
        return core.cards(self._state, self._rules)

    @property
    def turns_played(self) -> int:
        return int(self._state[k.S_TURN])

    @property
    def events(self) -> frozenset[str]:
        return core.events(self._state)

    @property
    def core_state(self) -> np.ndarray:
        """A copy of the core's state array (for solvers and debugging)."""
        return self._state.copy()

    def public_observation_string(self) -> str:
        """Everything every player has observed, in order."""
        return self._seen[-1]


_PHASE_NAMES = ("turn", "after_peek", "respond", "order", "reveal", "pick", "witch_choice",
                "shuffle", "name", "deal", "terminal")


def render_board(state: np.ndarray, rules: np.ndarray, viewer: int | None = None) -> str:
    """The table: face-up cards by name, face-down as '?' (the truth when viewer is None)."""
    n = int(rules[k.R_N])
    cells = []
    for p in range(n):
        c = int(state[k.S_CARD + p])
        up = bool(state[k.S_FACEUP + p])
        if up:
            cells.append(f"{p}:{NAMES[c]}")
        elif viewer is None:
            cells.append(f"{p}:({NAMES[c] if c >= 0 else '?'})")
        else:
            cells.append(f"{p}:?")
    players = int(rules[k.R_PLAYERS])
    strikes = ",".join(str(int(s)) for s in state[k.S_STRIKES:k.S_STRIKES + players])
    phase = _PHASE_NAMES[int(state[k.S_PHASE])]
    return (f"turn {int(state[k.S_TURN])}/{int(rules[k.R_MAX_TURNS])} "
            f"actor {int(state[k.S_ACTOR])} phase {phase} strikes {strikes} | "
            + " ".join(cells))


class RobinWoodObserver:
    """Observations for OpenSpiel (PyObserver protocol, see open_spiel/python/observation.py).

    perfect_recall=True: the player's (or the public) observation record, as a string.
    perfect_recall=False: the current view, as a string and a tensor.
    """

    def __init__(self, iig_obs_type, params, variant: Variant):
        if params:
            raise VariantError(f"observation parameters are not supported (got {params})")
        self._perfect_recall = iig_obs_type.perfect_recall
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise VariantError("observations with every player's private information are "
                               "not supported; use SINGLE_PLAYER or NONE")
        players, n, c = variant.players, variant.num_positions, k.NUM_CHARACTERS
        pieces = [] if self._perfect_recall else [
            ("player", players, (players,)),
            ("phase", len(_PHASE_NAMES), (len(_PHASE_NAMES),)),
            ("actor", players, (players,)),
            ("responder", players, (players,)),
            ("turn", 1, (1,)),
            ("strikes", players * (variant.strikes + 1), (players, variant.strikes + 1)),
            ("board", n * (c + 1), (n, c + 1)),
            ("peeked", n, (n,)),
            ("announced", c, (c,)),
            ("power", c, (c,)),
            ("picked", n, (n,)),
        ]
        if pieces and self._private:
            pieces.append(("in_hand", n * c, (n, c)))
        size = sum(s for _, s, _ in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        i = 0
        for name, s, shape in pieces:
            self.dict[name] = self.tensor[i:i + s].reshape(shape)
            i += s

    def set_from(self, state: RobinWoodState, player: int) -> None:
        self.tensor.fill(0)
        if self._perfect_recall:
            return
        s, rules, d = state._state, state._rules, self.dict
        n, players = state._n, int(rules[k.R_PLAYERS])
        d["player"][player] = 1
        d["phase"][int(s[k.S_PHASE])] = 1
        d["actor"][int(s[k.S_ACTOR])] = 1
        if s[k.S_PHASE] == k.PH_RESPOND:
            d["responder"][int(s[k.S_RESPONDER])] = 1
        d["turn"][0] = s[k.S_TURN] / rules[k.R_MAX_TURNS]
        for seat in range(players):
            d["strikes"][seat, min(int(s[k.S_STRIKES + seat]), int(rules[k.R_STRIKES]))] = 1
        for p in range(n):
            if s[k.S_FACEUP + p]:
                d["board"][p, int(s[k.S_CARD + p])] = 1
            else:
                d["board"][p, k.NUM_CHARACTERS] = 1
        if s[k.S_PEEK_POS] >= 0:
            d["peeked"][int(s[k.S_PEEK_POS])] = 1
        if s[k.S_ANNOUNCED] >= 0:
            d["announced"][int(s[k.S_ANNOUNCED])] = 1
        if s[k.S_POWER] >= 0:
            d["power"][int(s[k.S_POWER])] = 1
        for field in (k.S_PICK, k.S_PICK2):
            if s[field] >= 0 and not _team_secret(s):
                d["picked"][int(s[field])] = 1
        if self._private:
            for p, c in _in_hand(s, player):
                d["in_hand"][p, c] = 1

    def string_from(self, state: RobinWoodState, player: int) -> str:
        if self._perfect_recall:
            return state._seen[player] if self._private else state._seen[-1]
        s, rules = state._state, state._rules
        parts = [f"P{player}", render_board(s, rules, viewer=player)]
        if s[k.S_PEEK_POS] >= 0:
            parts.append(f"peeked {int(s[k.S_PEEK_POS])}")
        if s[k.S_ANNOUNCED] >= 0:
            parts.append(f"announced {NAMES[int(s[k.S_ANNOUNCED])]}")
        if s[k.S_POWER] >= 0:
            parts.append(f"power {NAMES[int(s[k.S_POWER])]}")
        if s[k.S_PHASE] == k.PH_RESPOND:
            parts.append(f"responder {int(s[k.S_RESPONDER])}")
        if self._private:
            hand = _in_hand(s, player)
            if hand:
                parts.append("hand " + " ".join(f"{p}={NAMES[c]}" for p, c in hand))
        return " | ".join(parts)


def _team_secret(s: np.ndarray) -> bool:
    return s[k.S_POWER] == Character.INNKEEPER


def _in_hand(s: np.ndarray, player: int) -> list[tuple[int, int]]:
    """Cards `player` is holding right now: the peeked card, the Witch's two cards."""
    if player != s[k.S_ACTOR]:
        return []
    phase = s[k.S_PHASE]
    if phase == k.PH_AFTER_PEEK:
        p = int(s[k.S_PEEK_POS])
        return [(p, int(s[k.S_CARD + p]))]
    if phase == k.PH_WITCH_CHOICE:
        a, b = int(s[k.S_POWER_POS]), int(s[k.S_PICK])
        return [(a, int(s[k.S_CARD + a])), (b, int(s[k.S_CARD + b]))]
    return []


pyspiel.register_game(_GAME_TYPE, RobinWoodGame)
