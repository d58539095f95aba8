"""The sound default's value model from Python (docs/sound-play.md): a seat's value of a
round from the strikes at the table, and the break-even belief above which it
challenges a claim. The player itself is the kernel solver.scripted._sound, loaded as
the bot "sound" (solver.players.agents.bot)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from game_def import kernels as k
from game_def.core import rules_array
from game_def.errors import RobinWoodError
from game_def.variant import Variant

from ._sound import _break_even, _value


def _lives(variant: Variant, strikes: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    if len(strikes) != variant.players:
        raise RobinWoodError(f"give one strike count per seat of {variant} "
                             f"({variant.players}), got {len(strikes)}")
    if any(not 0 <= s < variant.strikes for s in strikes):
        raise RobinWoodError(f"strikes {tuple(strikes)} must each be from 0 to "
                             f"{variant.strikes - 1} (a seat with {variant.strikes} is out)")
    lives = np.zeros(k.MAX_PLAYERS)
    lives[:variant.players] = [variant.strikes - s for s in strikes]
    return rules_array(variant), lives


def round_value(variant: Variant, strikes: Sequence[int], seat: int) -> float:
    """`seat`'s value of a round of `variant` at these strikes per seat, when each side
    wins with its share of the table's lives (payoff units)."""
    rules, lives = _lives(variant, strikes)
    return float(_value(rules, lives, seat))


def break_even(variant: Variant, strikes: Sequence[int], seat: int, claimant: int,
               power_cost: float = 0.0) -> float:
    """The belief that `claimant`'s claim is false above which `seat` gains by
    challenging it, at these strikes per seat; `power_cost` is what the claim's power
    costs `seat` when it runs (0 for the Peasant)."""
    if seat == claimant or not (0 <= seat < variant.players and
                                0 <= claimant < variant.players):
        raise RobinWoodError(f"seat {seat} and claimant {claimant} must be two seats of "
                             f"{variant}")
    rules, lives = _lives(variant, strikes)
    return float(_break_even(rules, lives, seat, claimant, float(power_cost)))


def claim_break_even(variant: Variant, claimed: int, seat: int = 1,
                     claimant: int = 0, strikes: Sequence[int] | None = None) -> float:
    """The break-even of a challenge of a claim of `claimed` (a character) at these
    strikes per seat (none: the start of a round), with the sound default's own value
    of the claim's power (docs/sound-play.md): nothing for a Peasant or a Traitor, its
    tempo setting for the Companion, its power setting for the Monk, Witch, Deputy and
    Innkeeper. NaN for the leaders, whose power's cost is the unmasking's chance, which
    depends on the state."""
    from ._sound import P_POWER_VALUE, P_TEMPO, SOUND_DEFAULTS

    if claimed in (k.ROBIN, k.SHERIFF):
        return float("nan")
    cost = {k.COMPANION: SOUND_DEFAULTS[P_TEMPO], k.MONK: SOUND_DEFAULTS[P_POWER_VALUE],
            k.WITCH: SOUND_DEFAULTS[P_POWER_VALUE], k.DEPUTY: SOUND_DEFAULTS[P_POWER_VALUE],
            k.INNKEEPER: SOUND_DEFAULTS[P_POWER_VALUE]}.get(claimed, 0.0)
    if strikes is None:
        strikes = (0,) * variant.players
    return break_even(variant, strikes, seat, claimant, float(cost))
