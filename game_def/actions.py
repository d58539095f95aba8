"""Action ids <-> action strings (docs/game-interface.md). Stable: tests and notebooks use them."""

from __future__ import annotations

from . import _core as k
from .characters import NAMES

CHANCE_PLAYER = k.CHANCE_PLAYER


def num_distinct_actions(num_positions: int) -> int:
    return 4 * num_positions + k.NUM_FIXED_ACTIONS


def player_action_to_string(num_positions: int, action: int) -> str:
    n = num_positions
    if not 0 <= action < num_distinct_actions(n):
        raise ValueError(f"action id {action} out of range 0..{num_distinct_actions(n) - 1}")
    if action < 4 * n:
        verb = ("peek", "use", "reveal", "pick")[action // n]
        return f"{verb} {action % n}"
    offset = action - 4 * n
    if offset == k.A_SILENT:
        return "silent"
    if k.A_ANNOUNCE <= offset < k.A_ANNOUNCE + len(NAMES):
        return f"announce {NAMES[offset - k.A_ANNOUNCE]}"
    if offset >= k.A_NAME:
        return f"name {NAMES[offset - k.A_NAME]}"
    return {k.A_CHALLENGE: "challenge", k.A_PASS: "pass", k.A_KEEP: "keep",
            k.A_SWAP: "swap"}[offset]


def chance_action_to_string(action: int) -> str:
    if 0 <= action < len(NAMES):
        return f"deal {NAMES[action]}"
    if action == k.C_SHUFFLE_KEEP:
        return "shuffle keep"
    if action == k.C_SHUFFLE_SWAP:
        return "shuffle swap"
    if k.C_FASTEST <= action < k.C_FASTEST + k.MAX_PLAYERS:
        return f"fastest {action - k.C_FASTEST}"
    raise ValueError(f"chance action id {action} out of range 0..{k.MAX_CHANCE_OUTCOMES - 1}")


def action_to_string(num_positions: int, player: int, action: int) -> str:
    if player == CHANCE_PLAYER:
        return chance_action_to_string(action)
    return player_action_to_string(num_positions, action)
