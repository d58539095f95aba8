"""What every `robinwood` command shares: the option types that refuse bad input in one
line (finite numbers in a range, non-empty text, counts, seeds, time budgets), the
variant options and how they build a variant, and the --fallback option."""

from __future__ import annotations

import math

import click
from click.core import ParameterSource

# Counts of rounds, matches and iterations: far beyond any job that ends, and well
# inside the 64-bit integers the kernels count in.
MAX_COUNT = 10**12
# Seeds: what the numba random generators take (32 bits); a larger seed would be cut.
SEED = click.IntRange(0, 2**32 - 1)
COUNT = click.IntRange(1, MAX_COUNT)


class Number(click.FloatRange):
    """A finite number in a range (click's FloatRange lets nan and inf through)."""

    def convert(self, value, param, ctx):
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number; give a number "
                      f"{self._describe_range()}" if self.min is not None
                      or self.max is not None else f"{value!r} is not a finite number",
                      param, ctx)
        return super().convert(number, param, ctx)


POSITIVE = Number(min=0, min_open=True)
# Time budgets: up to 10^7 seconds (about 115 days) or 10^5 minutes (69 days), so that
# a mistyped exponent is refused rather than started.
MAX_SECONDS, MAX_MINUTES = 10**7, 10**5
SECONDS = Number(min=0, min_open=True, max=MAX_SECONDS)
MINUTES = Number(min=0, min_open=True, max=MAX_MINUTES)


class Text(click.ParamType):
    """A string that may not be empty (an empty --deck would silently mean standard)."""

    name = "text"

    def __init__(self, example: str):
        self.example = example

    def convert(self, value, param, ctx):
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{value!r} is empty; give {self.example}", param, ctx)
        return value


def given(ctx: click.Context, name: str) -> bool:
    """Whether the option `name` was given on the command line (not its default)."""
    return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)


def refuse_unless(ctx: click.Context, names: list[str], why: str) -> None:
    """A usage error naming the first of `names` given on the command line."""
    for name in names:
        if given(ctx, name):
            opt = next(p for p in ctx.command.params if p.name == name)
            raise click.UsageError(f"{'/'.join(opt.opts + opt.secondary_opts)} {why}")


def variant_options(fn):
    """The game parameters every command accepts (docs/rules.md "Options")."""
    opts = [
        click.option("--variant", "variant_text", default=None,
                     type=Text("a variant such as 'rspx:max_turns=6'"),
                     help="A whole variant string, e.g. 'rspx:max_turns=6'; the options "
                          "below override it."),
        click.option("--deck", default=None,
                     type=Text("a named deck (standard, team, rspx, rspmx, duel6, duel7, "
                               "duel8) or names joined by '+'"),
                     help="Named deck (standard, team, rspx, rspmx, duel6, duel7, duel8) "
                          "or character names joined by '+'."),
        click.option("--players", type=int, default=None, help="2, 3 or 4."),
        click.option("--teams", is_flag=True, default=None, help="Two teams of two."),
        click.option("--strikes", type=int, default=None, help="Strikes that eliminate."),
        click.option("--max-turns", type=int, default=None, help="Turn cap (a draw)."),
        click.option("--first-player", type=int, default=None, help="Seat that starts."),
        click.option("--challenge-order", default=None, type=Text("clockwise or random"),
                     help="clockwise or random."),
        click.option("--traitor-strikes-on-reveal", is_flag=True, default=None,
                     help="A Traitor turned up by Robin/Sheriff adds a strike."),
        click.option("--layout", default=None,
                     type=Text("the deck's cards joined by '+', e.g. "
                               "Robin+Sheriff+Peasant+Traitor"),
                     help="Fixed deal: names joined by '+'."),
    ]
    for opt in reversed(opts):
        fn = opt(fn)
    return fn


def build_variant(variant_text, **params):
    """The variant named by --variant, with any explicit options applied on top."""
    from game_def.variant import from_params, parse

    given = {k: v for k, v in params.items() if v is not None}
    if not variant_text:
        return from_params(given)
    variant = parse(variant_text)
    return variant.replace(**given) if given else variant


class FallbackType(click.ParamType):
    """--fallback: `auto`, `none`, a league player, or `player:visits=N,turn_visits=M`."""

    name = "fallback"

    def convert(self, value, param, ctx):
        from solver.players.agents import AgentError, parse_fallback

        if not isinstance(value, str):
            return value
        try:
            return parse_fallback(value)
        except AgentError as e:
            self.fail(str(e), param, ctx)


def player_names(text: str, param) -> tuple[str, ...]:
    """A comma-separated list of the local best response's continuations: bot and
    league player names, or `self` (the strategy itself), each checked."""
    from solver.evaluation.lbr import SELF
    from solver.players.agents import BOT_NAMES

    names = tuple(filter(None, (name.strip() for name in text.split(","))))
    unknown = [name for name in names if name not in BOT_NAMES + (SELF,)]
    if not names or unknown:
        raise click.BadParameter(f"{', '.join(unknown) or 'nothing'} is not a bot or "
                                 f"league player: choose from {', '.join(BOT_NAMES)}, "
                                 f"or {SELF} (the strategy itself)", param=param)
    return names


# solver.players.agents.AUTO_FALLBACK, the --fallback default (not imported here, so
# that the CLI starts without loading the kernels; tests/test_fallback.py checks it)
DEFAULT_FALLBACK_TEXT = "auto"


# solver.evaluation.strength.LBR_CONTINUATIONS, as `robinwood exploit` takes it (not
# imported, for the same reason; tests/test_lbr.py checks it)
DEFAULT_LBR_CONTINUATIONS_TEXT = "baiter,tempo,self"


def fallback_option(fn):
    """The rules a Monte Carlo CFR table plays where it has not learned."""
    return click.option(
        "--fallback", type=FallbackType(), default=DEFAULT_FALLBACK_TEXT, show_default=True,
        help="Where a Monte Carlo CFR table has not learned (an entry with fewer updates "
             "than the threshold for its kind, or none), this player's rules move "
             "instead; 'auto' is sound:visits=all,turn_visits=1000 (the sound default, "
             "docs/sound-play.md, at every announcement and response, and at turns and "
             "powers whose entry has fewer than 1,000 updates) at every table size; "
             "'none' plays the table alone (uniform where it has no entry); "
             "'counter:visits=50,turn_visits=500' sets the thresholds, 'all' for every "
             "such decision (docs/mccfr.md)."
    )(fn)
