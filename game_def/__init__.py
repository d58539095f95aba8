"""Robin Wood's rules as data and as the OpenSpiel game `robin_wood` (registered on import).

    import game_def
    game = game_def.load_game("rspx:max_turns=6")
    state = game_def.play(game, "peek 0", "announce Sheriff", "challenge")
"""

from __future__ import annotations

from typing import Any

import pyspiel

from .characters import Character
from .decks import NAMED_DECKS
from .errors import IllegalActionError, RobinWoodError, VariantError
from .game import GAME_NAME, RobinWoodGame, RobinWoodState
from .variant import Variant, from_params, parse

__all__ = [
    "Character", "GAME_NAME", "IllegalActionError", "NAMED_DECKS", "RobinWoodError",
    "RobinWoodGame", "RobinWoodState", "Variant", "VariantError", "from_params",
    "load_game", "parse", "play",
]


def load_game(spec: "str | Variant | None" = None, **params: Any) -> pyspiel.Game:
    """The `robin_wood` game for a variant string (`rspx:max_turns=6`), a Variant, or
    keyword parameters (`load_game(deck="rspx", max_turns=6)`); both combine, keywords win.
    """
    variant = parse(spec) if spec is not None else Variant()
    if params:
        variant = variant.replace(**params)
    return pyspiel.load_game(GAME_NAME, variant.to_params())


def play(game_or_state: "pyspiel.Game | pyspiel.State", *actions: str) -> pyspiel.State:
    """Apply action strings in order, from a new round (game) or a copy of a state.

    Raises IllegalActionError naming the action and listing the legal ones.
    """
    if isinstance(game_or_state, pyspiel.Game):
        state = game_or_state.new_initial_state()
    else:
        state = game_or_state.clone()
    for text in actions:
        apply_action_string(state, text)
    return state


def apply_action_string(state: pyspiel.State, text: str) -> int:
    """Apply one action given as its string, in place; return its id."""
    if state.is_terminal():
        raise IllegalActionError(f"cannot apply {text!r}: the round is over")
    player = state.current_player()
    ids = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
           else state.legal_actions())
    by_text = {state.action_to_string(player, a): a for a in ids}
    wanted = " ".join(str(text).split())
    if wanted not in by_text:
        raise IllegalActionError(
            f"{text!r} is not legal here (history: {_history(state)}); "
            f"legal: {', '.join(by_text)}")
    state.apply_action(by_text[wanted])
    return by_text[wanted]


def _history(state: pyspiel.State) -> str:
    replay = state.get_game().new_initial_state()
    words = []
    for a in state.history():
        words.append(replay.action_to_string(replay.current_player(), a))
        replay.apply_action(a)
    return ", ".join(words) or "start"
