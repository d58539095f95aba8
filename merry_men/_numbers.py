"""Checked numbers for the dice models: probabilities, values and counts.

Every public function of the package passes its arguments through here, so bad input
fails early with a ValueError that names the argument, the value and the fix.
Rationals (int, Fraction) stay exact Fractions; floats stay floats.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Union

Number = Union[Fraction, float]
"""An exact rational (Fraction) or a float; results keep the type of their inputs."""


def _as_number(value: object, name: str) -> Number:
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise ValueError(f"{name} must be a number (int, float or Fraction), got {value!r}; "
                         f"pass e.g. Fraction(1, 2) for an exact result")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}; pass a finite number")
        return value
    return Fraction(value)


def probability(value: object, name: str = "p") -> Number:
    """`value` as a probability in [0, 1] (Fraction for int/Fraction input, else float)."""
    number = _as_number(value, name)
    if not 0 <= number <= 1:
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}; "
                         f"pass e.g. Fraction(1, 2) (a die that succeeds on half its faces)")
    return number


def amount(value: object, name: str, *, allow_negative: bool = False) -> Number:
    """`value` as a payoff amount (loot value, fine, cost); non-negative unless allowed."""
    number = _as_number(value, name)
    if not allow_negative and number < 0:
        raise ValueError(f"{name} must be >= 0, got {value!r}; give costs as positive "
                         f"amounts (the models subtract them)")
    return number


def count(value: object, name: str, low: int, high: int) -> int:
    """`value` as an integer count in [low, high] (dice, stones, guards, rerolls)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer between {low} and {high}, got {value!r}; "
                         f"pass a whole number")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}; "
                         f"pass a whole number in that range")
    return value


def binomial_pmf(dice: int, hits: int, p: Number) -> Number:
    """P(exactly `hits` successes among `dice` independent dice that each succeed with p)."""
    if hits < 0 or hits > dice:
        return p * 0
    return math.comb(dice, hits) * p ** hits * (1 - p) ** (dice - hits)


def at_least(dice: int, hits: int, p: Number) -> Number:
    """P(at least `hits` successes among `dice` dice); 1 when hits <= 0."""
    if hits <= 0:
        return p * 0 + 1
    return sum((binomial_pmf(dice, k, p) for k in range(hits, dice + 1)), p * 0)


DEFAULT_SUCCESS_PROBABILITY = Fraction(1, 2)
"""p when none is given. The rulebook says what counts ("Erfolg", "Treffer") but not how
many faces of a skill or weapon die show it, so 1/2 is a documented assumption."""
