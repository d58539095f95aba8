"""What a sweep needs from a game, as one narrow description (SweepGame): how its
variants are written and changed, which methods measure a variant and how each is
chosen and run, which metrics it reports and how the report draws them.

The grid, the plan, the executors, the store, the value of a rule and the report are
written once against this description; each game's lives in its own module
(sweep.robin_wood, sweep.treasure) and sweep.catalogue names them. This module imports
no other part of the package, so every part can use the types.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping

DEFAULT_GAME = "robin_wood"


@dataclasses.dataclass(frozen=True)
class Headline:
    """A metric drawn as the balance figure's bars: its axis label and whether it is a
    probability (drawn in per cent) or a signed value."""

    metric: str
    label: str
    probability: bool = False


@dataclasses.dataclass(frozen=True)
class BarGroup:
    """Metrics drawn side by side per variant (the bluff and challenge rates, the
    steals and counters): a figure key, its caption, title and y label."""

    key: str
    caption: str
    title: str
    series: Mapping[str, str]      # metric -> legend label
    ylabel: str
    probability: bool = True       # y from 0 to 1


@dataclasses.dataclass(frozen=True)
class SweepGame:
    """What the sweep package needs from a game.

    parse(text) -> a variant: str(variant) is its canonical text (the sweep's key),
    variant.replace(**{option: value_text}) a changed copy, variant.to_params() its
    options' values; bad text raises variant_error with a one-line message.
    settings(**fields) -> the game's solve settings (to_json(), method, rounds-like
    fields), raising a one-line GridError on bad values.
    choose(point, settings, memory_budget, count) -> (method, counted nodes or None,
    bytes needed); methods[method](task, out) -> the job's measured dict (sweep.job).
    """

    name: str
    title: str
    options: tuple[str, ...]
    default_base: str
    parse: Callable[[str], Any]
    variant_error: type[Exception]
    settings: Callable[..., Any]
    choose: Callable[..., tuple[str, int | None, int]]
    methods: Mapping[str, Callable]
    metrics: Mapping[str, str]                 # glossary, in reading order
    headlines: tuple[Headline, ...]            # the first one the table has is drawn
    groups: tuple[BarGroup, ...]
    length: tuple[Headline, ...]               # the round- or game-length panels
    effect_metrics: Mapping[str, str]          # metric -> short title
    effect_words: tuple[tuple[str, str], ...]  # (metric, words) for the summary
    method_words: Mapping[str, str]            # method -> how its numbers were measured
    method_names: Mapping[str, str]            # method -> legend label
    grid_example: str = "strikes=1,2"
    balance_title: str = "Balance: the first player's edge per variant"
    balance_caption: str = "First player's value per variant"
    length_title: str = "Round length and turn cap per variant"
    length_caption: str = "Round length and turn-cap rate per variant"
    # Balance against the fair share: when an option of fair_axes (the table size)
    # varies, the fair share itself moves, so a raw win rate mixes the rule's effect
    # with 1/N falling; fair_headline (a seat's win share minus its fair share) is then
    # the balance headline, ahead of `headlines`.
    fair_headline: Headline | None = None
    fair_axes: tuple[str, ...] = ()
    # complete(table) -> the table with the metrics a table written before they existed
    # lacks, derived from the ones it has (or the table itself)
    complete: Callable[[Any], Any] | None = None


def balance_caption(game: SweepGame, options) -> str:
    """The balance figure's caption: what its bars show, the fair-share headline's
    label when a table-size option varies, else the game's own caption."""
    first = balance_headlines(game, options)[0]
    if game.fair_headline is not None and first is game.fair_headline:
        return f"{first.label[0].upper()}{first.label[1:]}, per variant"
    return game.balance_caption


def balance_headlines(game: SweepGame, options) -> tuple[Headline, ...]:
    """The balance headlines in order of preference for a grid varying `options`: the
    fair-share headline first when an option of game.fair_axes varies."""
    if game.fair_headline is not None and set(options) & set(game.fair_axes):
        return (game.fair_headline,) + game.headlines
    return game.headlines


def complete_table(game: SweepGame, table):
    """The table with the game's derived metrics filled in (game.complete)."""
    return table if game.complete is None else game.complete(table)
