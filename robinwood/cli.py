"""The `robinwood` command line. Bad input prints one line and exits with status 2."""

from __future__ import annotations

import json
import math
import sys

import click
from click.core import ParameterSource
from tqdm import tqdm

from game_def.errors import RobinWoodError
from robinwood.paths import WritableDir, check_writable

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


class _Group(click.Group):
    """Turns every known user error into one line on stderr and exit status 2."""

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except click.exceptions.Abort:
            click.echo("robinwood: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as e:
            click.echo(f"robinwood: error: {e.format_message()}", err=True)
            sys.exit(2)
        except (RobinWoodError, ValueError) as e:
            click.echo(f"robinwood: error: {e}", err=True)
            sys.exit(2)
        except OSError as e:  # a write failing late (disk full, permissions): not input
            where = f": '{e.filename}'" if e.filename else ""
            click.echo(f"robinwood: error: {e.strerror or e}{where}", err=True)
            sys.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="robinwood")
def cli() -> None:
    """Solve and analyse the bluffing card game Robin Wood."""


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


@cli.command()
@variant_options
@click.option("--rounds", type=COUNT, default=None, help="Independent rounds to play.")
@click.option("--matches", type=COUNT, default=None,
              help="Best-of-3 matches (first to two round wins) instead of rounds.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def simulate(variant_text, rounds, matches, seed, as_json, **params):
    """Play uniformly random legal moves and report how the rules fire."""
    from game_def.simulate import memory_bytes, simulate as run
    from solver.jobs import available_memory_bytes

    if rounds is not None and matches is not None:
        raise click.UsageError("give either --rounds or --matches, not both")
    variant = build_variant(variant_text, **params)
    count = matches if matches is not None else (rounds if rounds is not None else 100_000)
    need, have = memory_bytes(variant), int(0.8 * available_memory_bytes())
    if need > have:
        raise click.UsageError(f"simulating {variant} needs about {need / 1024**3:.1f} GiB "
                               f"(--max-turns {variant.max_turns}), more than the "
                               f"{have / 1024**3:.1f} GiB available; lower --max-turns")
    with tqdm(total=count, unit=" matches" if matches else " rounds", disable=as_json or None,
              file=sys.stderr, leave=False) as bar:
        result = run(variant, count, seed, matches=matches is not None, progress=bar.update)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
    else:
        click.echo(format_simulation(result.to_json()))


@cli.command()
@variant_options
@click.option("--algo", default="dcfr", show_default=True,
              help="Exact: cfr, cfr+, lcfr, dcfr or pcfr+. Any deck: mccfr (Monte Carlo CFR "
                   "over the information abstraction, docs/mccfr.md).")
@click.option("--alpha", type=Number(), default=None, help="DCFR alpha (default 1.5).")
@click.option("--beta", type=Number(), default=None, help="DCFR beta (default 0).")
@click.option("--gamma", type=Number(), default=None, help="DCFR gamma (default 2).")
@click.option("--target-exploitability", type=POSITIVE, default=None,
              help="Stop once exploitability (NashConv/2, round-win units) is this low.")
@click.option("--iterations", type=COUNT, default=None,
              help="Stop after this many iterations (mccfr: traversals per seat, a "
                   "multiple of its batch of 200).")
@click.option("--seconds", type=SECONDS, default=None,
              help="Stop after this much solving time.")
@click.option("--minutes", type=MINUTES, default=None,
              help="mccfr: stop after this much training time (summed over resumes).")
@click.option("--levels", type=click.Choice(["fine", "coarse"]), default="fine",
              show_default=True, help="mccfr: abstraction levels (fine: a decision's fine "
              "entry once it is trained enough, its coarse entry before; docs/abstraction.md).")
@click.option("--sure-wins/--no-sure-wins", default=True, show_default=True,
              help="mccfr: take sure wins (a located camp unmasked) by rule instead of "
              "learning them (docs/mccfr.md); --no-sure-wins resumes runs made before it.")
@click.option("--weighting", type=click.Choice(["none", "linear", "discounted"]),
              default="linear", show_default=True,
              help="mccfr: discount of earlier batches (linear CFR or DCFR).")
@click.option("--league-opponents", type=str, default="",
              help="mccfr: comma-separated league players or baseline bots (honest, "
                   "paranoid, heuristic, uniform) that a share of traversals "
                   "meets instead of the other seats' tables (copies of it in every other "
                   "seat at 3-4 players), e.g. tempo,baiter "
                   "(docs/mccfr.md, \"League opponents\"); needs --league-share.")
@click.option("--league-share", type=Number(min=0.0, max=0.99), default=0.0,
              show_default=True,
              help="mccfr: share of traversals against --league-opponents.")
@click.option("--coarse-actions", type=click.Choice(["classes", "letters"]),
              default="classes", show_default=True,
              help="mccfr: what coarse entries act on: the decision's classes, or a fixed "
                   "alphabet of letters per decision (docs/abstraction.md, \"Letters\").")
@click.option("--fine-key", type=click.Choice(["codes", "classes"]), default="codes",
              show_default=True,
              help="mccfr: what fine entries are keyed by: everything the seat knows "
                   "(codes), or, at turn and power decisions, the set of card classes it "
                   "can act on (classes; needs --coarse-actions letters; "
                   "docs/abstraction.md, \"Fine key on classes\").")
@click.option("--shared-world/--lazy-deal", default=False, show_default=True,
              help="mccfr: each traversal deals the hidden cards at its start, so that "
                   "all its action values face one world (less noise in the regrets; "
                   "docs/mccfr.md, \"Shared worlds\").")
@click.option("--workers", type=click.IntRange(1, 1024), default=2, show_default=True,
              help="mccfr: worker threads sharing each batch's chunks (results do not "
                   "depend on it; docs/mccfr.md, \"Workers\").")
@click.option("--chunks", type=click.IntRange(1, 256), default=1, show_default=True,
              help="mccfr: work units per seat and batch (part of the run: tables depend "
                   "on it, not on --workers); 1 is the scheme of runs made before it "
                   "(docs/mccfr.md, \"Workers\").")
@click.option("--max-table-gb", type=Number(min=0.0625), default=8.0, show_default=True,
              help="mccfr: memory cap of the strategy table.")
@click.option("--snapshot-minutes", type=str, default="",
              help="mccfr: comma-separated training times to also save the strategy at "
                   "(learning curves), e.g. 5,15,30.")
@click.option("--out", type=WritableDir(), required=True,
              help="Run directory: strategy, metadata, checkpoint, convergence curve.")
@click.option("--resume", is_flag=True, help="Continue from the checkpoint in --out.")
@click.option("--checkpoint-every", type=SECONDS, default=60.0, show_default=True,
              help="Seconds between atomic checkpoints.")
@click.option("--eval-every", type=Number(min=0, max=MAX_SECONDS), default=2.0,
              show_default=True,
              help="Seconds of solving between exact exploitability measurements.")
@click.option("--eval-every-iterations", type=COUNT, default=None,
              help="Measure exploitability at multiples of this many iterations instead "
                   "(the stopping point then depends on the iterations alone, not on the "
                   "machine's speed: reproducible runs).")
@click.option("--max-memory-gb", type=POSITIVE, default=None,
              help="Refuse trees needing more (default: 80% of available memory).")
@click.option("--symmetry/--no-symmetry", default=True, show_default=True,
              help="Merge interchangeable positions (lossless; see docs/solver.md).")
@click.option("--lock", "lock_texts", multiple=True,
              help="Fix how some decisions are played, e.g. "
                   "'respond claim=Monk: pass=1' or 'seat=1 play=paranoid' (repeatable; "
                   "grammar in docs/locks.md).")
@click.option("--lock-file", type=click.Path(dir_okay=False), default=None,
              help="A TOML file of locks: lock = [\"...\", ...].")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="mccfr: the random seed; recorded with the strategy (the exact "
                   "solvers are deterministic).")
@click.option("--json", "as_json", is_flag=True, help="Print the final summary as JSON.")
def solve(variant_text, algo, alpha, beta, gamma, target_exploitability, iterations,
          seconds, minutes, levels, sure_wins, weighting, league_opponents, league_share,
          coarse_actions, fine_key, shared_world, workers, chunks, max_table_gb,
          snapshot_minutes, out, resume,
          checkpoint_every, eval_every, eval_every_iterations,
          max_memory_gb,
          symmetry, lock_texts, lock_file, seed, as_json, **params):
    """Solve a variant: exactly (CFR family over the full game tree, any player count)
    or by Monte Carlo CFR (--algo mccfr, any player count: one table a seat),
    optionally with locked decisions (--lock, --lock-file; Monte Carlo CFR locks two
    players)."""
    from pathlib import Path

    from solver.exact.cfr import algorithm
    from solver.exact.job import Interrupted, SolveConfig, solve as run_solve

    if not any(v is not None for v in params.values()) and not variant_text:
        raise click.UsageError("name a variant: --deck (e.g. --deck rspx --max-turns 6) "
                               "or --variant 'rspx:max_turns=6'")
    ctx = click.get_current_context()
    if seconds is not None and minutes is not None:
        raise click.UsageError("give the time budget once: --seconds or --minutes, not both")
    if algo == "mccfr":
        refuse_unless(ctx, ["alpha", "beta", "gamma", "target_exploitability", "eval_every",
                            "eval_every_iterations", "max_memory_gb", "symmetry"],
                      "is for the exact solvers; Monte Carlo CFR (--algo mccfr) takes "
                      "--minutes, --seconds or --iterations")
        batch = 200  # MCCFRConfig.batch_iterations
        if iterations is not None and iterations % batch:
            low = max(batch, iterations // batch * batch)
            raise click.BadParameter(
                f"{iterations} is not a multiple of Monte Carlo CFR's batch of {batch} "
                f"traversals per seat; give {low:,}" + (
                    f" or {low + batch:,}" if low < iterations else ""),
                param_hint="--iterations")
    else:
        if eval_every_iterations is not None and given(ctx, "eval_every"):
            raise click.UsageError("give --eval-every (seconds) or --eval-every-iterations, "
                                   "not both")
        refuse_unless(ctx, ["minutes", "levels", "sure_wins", "weighting", "workers",
                            "chunks", "max_table_gb", "snapshot_minutes", "league_opponents",
                            "league_share", "coarse_actions", "fine_key", "shared_world"],
                      f"is for --algo mccfr; the exact solver ({algo}) stops on "
                      f"--seconds, --iterations or --target-exploitability")
    variant = build_variant(variant_text, **params)
    from solver.locks import LockSet, load_lock_file, parse_locks

    locks = LockSet(parse_locks(lock_texts) + (load_lock_file(lock_file) if lock_file
                                               else ()))
    if algo == "mccfr":
        league = tuple(name.strip() for name in league_opponents.split(",") if name.strip())
        return _solve_mccfr(variant, out, iterations, seconds, minutes, levels, sure_wins,
                            weighting, workers, max_table_gb, snapshot_minutes, resume,
                            checkpoint_every, seed, as_json, league, league_share,
                            coarse_actions, shared_world, fine_key, chunks, locks.locks)
    config = SolveConfig(
        variant=variant, algo=algorithm(algo, alpha, beta, gamma), out=Path(out),
        locks=locks,
        target_exploitability=target_exploitability, max_iterations=iterations,
        max_seconds=seconds, eval_every_seconds=eval_every,
        eval_every_iterations=eval_every_iterations,
        checkpoint_seconds=checkpoint_every, seed=seed, resume=resume, symmetric=symmetry,
        max_memory_bytes=int(max_memory_gb * 1024**3) if max_memory_gb else None)
    quiet = as_json
    bar = tqdm(total=None, unit=" it", file=sys.stderr, disable=quiet or None,
               desc="solving", bar_format="{desc}: {n_fmt} it [{elapsed}]{postfix}")

    def on_phase(text):
        if not quiet:
            bar.write(f"robinwood: {text}", file=sys.stderr)

    def on_progress(p):
        bar.n = p.iteration
        bar.set_postfix_str(f"exploitability {p.exploitability:.3g}, "
                            f"{p.iterations_per_second:,.1f} it/s")

    try:
        summary = run_solve(config, on_progress=on_progress, on_phase=on_phase)
    except Interrupted as e:
        bar.close()
        click.echo(f"robinwood: {e}", err=True)
        sys.exit(130)
    bar.close()
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        if summary.get("locks"):
            values = ", ".join(f"{v:+.4f}" for v in summary["values"])
            shift = ", ".join(f"{v:+.4f}" for v in summary["value_shift"])
            locked = "; ".join(f"'{r['text']}' fixes {r['fixed']:,} infosets"
                               + (f" ({r['not_applicable']:,} selected where none of its "
                                  f"actions is legal)" if r["not_applicable"] else "")
                               for r in summary["locks"])
            quality = (f"{locked}; free decisions' exploitability "
                       f"{summary['exploitability']:.3g}, seat values {values}, shift "
                       f"from the unlocked solve {shift}")
        elif summary.get("players", 2) == 2:
            quality = (f"exploitability {summary['exploitability']:.3g}, value for seat 0 "
                       f"{summary['value']:+.4f}")
        else:  # NashConv: the sum of every seat's best-response gain
            values = ", ".join(f"{v:+.4f}" for v in summary["values"])
            quality = f"NashConv {summary['nash_conv']:.3g}, seat values {values}"
        click.echo(f"{summary['variant']} with {summary['algorithm']['name']}: "
                   f"{summary['iterations']} iterations in {summary['seconds']:.1f} s, "
                   f"{quality}, peak memory "
                   f"{summary['peak_memory_bytes'] / 1024**2:,.0f} MiB -> {summary['out']}")


def _solve_mccfr(variant, out, iterations, seconds, minutes, levels, sure_wins, weighting,
                 workers, max_table_gb, snapshot_minutes, resume, checkpoint_every, seed,
                 as_json, league_opponents=(), league_share=0.0, coarse_actions="classes",
                 shared_world=False, fine_key="codes", chunks=8, locks=()):
    from pathlib import Path

    from solver.mccfr.trainer import MCCFRConfig
    from solver.mccfr.job import solve_mccfr
    from solver.exact.job import Interrupted

    if minutes is not None:
        seconds = minutes * 60 if seconds is None else seconds
    try:
        snapshots = tuple(float(m) * 60 for m in snapshot_minutes.split(",") if m.strip())
    except ValueError:
        snapshots = (math.nan,)
    if not all(math.isfinite(m) and m > 0 for m in snapshots):
        raise click.BadParameter(f"{snapshot_minutes!r} is not a comma-separated list of "
                                 f"positive minutes, e.g. 5,15,30",
                                 param_hint="--snapshot-minutes")
    config = MCCFRConfig(variant, levels=levels, sure_wins=sure_wins, weighting=weighting,
                         workers=workers, seed=seed,
                         max_table_bytes=int(max_table_gb * 1024**3),
                         league_opponents=league_opponents, league_share=league_share,
                         coarse_actions=coarse_actions, shared_world=shared_world,
                         fine_key=fine_key, chunks=chunks, locks=locks)
    quiet = as_json
    bar = tqdm(total=seconds, unit="s", file=sys.stderr, disable=quiet or None,
               desc="training", bar_format="{desc}: {percentage:3.0f}%|{bar}| "
               "{n:.0f}/{total_fmt} s [{elapsed}<{remaining}]{postfix}")

    def on_phase(text):
        if not quiet:
            bar.write(f"robinwood: {text}", file=sys.stderr)

    last_line = [0.0]

    def on_progress(p):
        if bar.disable and not quiet and p.seconds - last_line[0] >= 60:
            # not a terminal (a log file): one plain line a minute instead of a bar
            last_line[0] = p.seconds
            click.echo(f"robinwood: {p.seconds:,.0f} s, {p.iterations:,} it, "
                       f"{p.nodes_per_second / 1e3:,.0f}k nodes/s, {p.infosets:,} infosets, "
                       f"table {p.table_bytes / 1024**3:.2f} GiB, process "
                       f"{p.rss_bytes / 1024**3:.2f} GiB", err=True)
        bar.n = min(p.seconds, seconds) if seconds else p.seconds
        bar.set_postfix_str(f"{p.iterations:,} it, {p.nodes_per_second / 1e3:,.0f}k "
                            f"nodes/s, {p.infosets / 1e6:,.2f}M infosets, table "
                            f"{p.table_bytes / 1024**3:.2f} GiB, process "
                            f"{p.rss_bytes / 1024**3:.2f} GiB")
        bar.refresh()

    try:
        summary = solve_mccfr(config, Path(out), max_seconds=seconds,
                              max_iterations=iterations, resume=resume,
                              checkpoint_seconds=checkpoint_every, snapshot_seconds=snapshots,
                              on_progress=on_progress, on_phase=on_phase)
    except Interrupted as e:
        bar.close()
        click.echo(f"robinwood: {e}", err=True)
        sys.exit(130)
    bar.close()
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(f"{summary['variant']} with Monte Carlo CFR: {summary['iterations']:,} "
                   f"iterations per seat in {summary['seconds']:.0f} s, "
                   f"{summary['infosets']:,} infosets, table "
                   f"{summary['table_bytes'] / 1024**3:.2f} GiB"
                   f"{' (full)' if summary['table_full'] else ''} -> {summary['out']}")
        if locks:
            click.echo("locked, played as given in training and in play: " +
                       "; ".join(f"'{lock.text}'" for lock in config.locks))


def _players_of(metadata: dict) -> int:
    import game_def

    try:
        return game_def.parse(metadata.get("variant", "")).players
    except ValueError:
        return 2  # the loader below says what is wrong with the file


def _echo_table_balance(run_dir, as_json: bool) -> None:
    """`robinwood stats` for 3-4 players and teams: analysis.table_balance's tables."""
    import pandas as pd

    from analysis.table_balance import table_balance_from_run

    balance = table_balance_from_run(run_dir)
    if as_json:
        click.echo(json.dumps(balance.to_json(), indent=2))
        return
    click.echo(f"{balance.variant}: {balance.method} balance of the strategy in {run_dir}")
    sides = ", ".join(f"{side} {p:.4f}" for side, p in zip(balance.sides, balance.side_wins))
    with pd.option_context("display.width", 120, "display.float_format", "{:.4f}".format):
        click.echo(f"\nseats (plays: turn order from the first player; value: +1 a win; wins: its side)\n"
                   f"{balance.seats().to_string()}")
        click.echo(f"\nwins: {sides}, draw (turn cap) {balance.totals['draws']:.4f}")
        click.echo(f"\nrates per round\n{balance.rates().to_string()}")


def _exploit_table(run_dir, as_json: bool) -> None:
    """`robinwood exploit` for an exact 3-4 player or team run: the strategy in each seat
    against copies of every table player, exactly (solver.evaluation.table_strength);
    writes RUN_DIR/table_strength.json."""
    from pathlib import Path

    import pandas as pd

    from analysis.exact import load_exact_run
    from solver.evaluation.table_strength import table_strength
    from solver.store import atomic_write_bytes

    variant, tree, strategy, _ = load_exact_run(run_dir)  # never symmetric beyond 2
    if not as_json:
        click.echo(f"robinwood: {variant}: the strategy in each seat against copies of "
                   f"each table player, exactly", err=True)
    result = table_strength(variant, tree, strategy)
    data = {"variant": str(variant), "fair_share": result.fair_share,
            "rows": result.rows.to_dict(orient="records"),
            "summary": json.loads(result.summary().to_json(orient="index"))}
    atomic_write_bytes(Path(run_dir) / "table_strength.json",
                       json.dumps(data, indent=2).encode())
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    with pd.option_context("display.width", 120, "display.max_columns", 20,
                           "display.float_format", "{:.4f}".format):
        click.echo(f"per seat (self_play_share: the seat's share when every seat plays "
                   f"the strategy)\n{result.rows.to_string(index=False)}\n\n"
                   f"per opponent (fair share {result.fair_share:.4f})\n"
                   f"{result.summary().to_string()}")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the tables as JSON.")
def stats(run_dir, as_json):
    """Reach-weighted statistics of the strategy in RUN_DIR (exact for exact solves,
    100,000 sampled self-play rounds for Monte Carlo CFR runs): what each peeked card
    leads to announce, bluff and challenge rates, outcomes. For 3-4 players and teams:
    each seat's value, wins and chance of being eliminated first, and the round's
    rates (exact solves: exactly; Monte Carlo CFR runs: 20,000 self-play rounds)."""
    import pandas as pd

    from analysis import profile_statistics_from_run
    from solver.store import read_metadata

    metadata = read_metadata(run_dir)
    if _players_of(metadata) > 2:
        _echo_table_balance(run_dir, as_json)
        return
    if metadata.get("kind") == "mccfr":
        from analysis.sampled import profile_statistics_sampled

        st = profile_statistics_sampled(run_dir, rounds=100_000, seed=0)
    else:
        st = profile_statistics_from_run(run_dir)
    tables = {
        "announcement matrix: P(action | peeked card); reach = peeks per round":
            st.announcement_matrix(),
        "bluff rates per announced character": st.bluff_rates(),
        "challenge rates per announced character": st.challenge_rates(),
        "outcomes (seat 0's view)": st.outcomes(),
    }
    if as_json:
        click.echo(json.dumps({"variant": str(st.variant), **{
            title: json.loads(frame.to_json(orient="index"))
            for title, frame in tables.items()}}, indent=2))
        return
    kind = "exact" if st.rounds_sampled is None else f"sampled ({st.rounds_sampled:,} rounds)"
    click.echo(f"{st.variant}: {kind} statistics of the strategy in {run_dir}")
    with pd.option_context("display.width", 120, "display.max_columns", 20,
                           "display.float_format", "{:.4f}".format):
        for title, frame in tables.items():
            click.echo(f"\n{title}\n{frame.to_string()}")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--compare", "other", type=click.Path(file_okay=False), default=None,
              help="Another run directory: its tables side by side, with differences.")
@click.option("--out", type=WritableDir(), default=None,
              help="Output folder (default: reports/<name of RUN_DIR>).")
@click.option("--parquet", is_flag=True, help="Write tables/ as Parquet instead of CSV.")
@click.option("--rounds", type=COUNT, default=None,
              help="Self-play rounds for sampled (MCCFR) statistics (default 100000; "
                   "20000 at 3-4 players and in teams).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the sampled self-play.")
def report(run_dir, other, out, parquet, rounds, seed):
    """Write reports/<name>/: index.html, report.md, PNG figures and tables/ for the
    strategy solved into RUN_DIR."""
    import time

    from analysis.report import players_of_run, write_report
    from solver.store import read_metadata

    # Every input is checked before any work: both runs must hold a finished strategy.
    for path, hint in ((run_dir, "RUN_DIR"), (other, "--compare")):
        if path is not None:
            try:
                read_metadata(path)
            except RobinWoodError as e:
                raise click.BadParameter(str(e), param_hint=hint) from None
    if out is None:  # write_report's default
        from pathlib import Path

        check_writable(Path("reports") / Path(run_dir).resolve().name, "--out",
                       what="the default output folder, reports/<name of RUN_DIR>")
    start = time.perf_counter()
    if players_of_run(run_dir) > 2:  # 3-4 players, teams
        from analysis.table_report import write_table_report

        index = write_table_report(run_dir, out, parquet=parquet, compare_dir=other,
                                   rounds=rounds, seed=seed)
    else:
        index = write_report(run_dir, out, other, parquet=parquet, rounds=rounds, seed=seed)
    click.echo(f"report written to {index} ({time.perf_counter() - start:.1f} s); "
               f"also {index.parent / 'report.md'}")


@cli.command()
@click.option("--grid", "grid_text", default=None,
              help="Options and their values, e.g. \"deck=rspx,rspmx strikes=1,2 "
                   "traitor_strikes_on_reveal=false,true max_turns=6\".")
@click.option("--grid-file", type=click.Path(dir_okay=False), default=None,
              help="A TOML grid file instead (docs/sweeps.md).")
@click.option("--game", type=click.Choice(["robin_wood", "robin_des_bois"]), default=None,
              help="The game swept (default robin_wood; robin_des_bois: the treasure "
                   "game's box parameters, each variant played, docs/sweeps.md).")
@click.option("--base", default=None,
              help="The variant the grid changes (default standard, or robin_des_bois's "
                   "defaults; a grid file's own).")
@click.option("--name", default=None, help="Sweep name: output in sweeps/<name>/.")
@click.option("--out", type=WritableDir(), default=None,
              help="Output folder instead of sweeps/<name>/.")
@click.option("--executor", type=click.Choice(["process", "ray"]), default="process",
              show_default=True, help="A local process pool, or Ray tasks.")
@click.option("--address", default=None,
              help="Ray cluster address (default RAY_ADDRESS, else a local Ray).")
@click.option("--workers", type=click.IntRange(1, 1024), default=None,
              help="Process pool: worker processes (default: the cores).")
@click.option("--memory-gb", type=POSITIVE, default=None,
              help="Memory the sweep may use at once (default 80% of available): decides "
                   "exact or Monte Carlo CFR, and which jobs run together.")
@click.option("--method", type=click.Choice(["auto", "exact", "mccfr", "play", "random"]),
              default=None, help="auto (default): exact if the tree fits, else Monte Carlo "
                                 "CFR (any table size); random: random play only. "
                                 "robin_des_bois: auto or play (--seat-player in every "
                                 "seat), random.")
@click.option("--seat-player", default=None,
              help="robin_des_bois: the player in every seat (search, the default and "
                   "strongest; greedy_stasher, thief, defender, random).")
@click.option("--target-exploitability", type=POSITIVE, default=None,
              help="Exact: stop at this exploitability (default 1e-3).")
@click.option("--mccfr-seconds", type=SECONDS, default=None,
              help="Monte Carlo CFR training time per variant (default 60).")
@click.option("--mccfr-iterations", type=COUNT, default=None,
              help="Monte Carlo CFR traversals per seat instead (reproducible; a "
                   "multiple of its batch of 200).")
@click.option("--mccfr-table-gb", type=Number(min=0.0625), default=None,
              help="Monte Carlo CFR table cap per variant (default 2).")
@click.option("--rounds", type=COUNT, default=None,
              help="Sampled rounds for MCCFR statistics and random play (default 20000); "
                   "robin_des_bois: games per variant (default 400 with search, 2000 with "
                   "a scripted player, 20000 random).")
@click.option("--seed", type=SEED, default=None, help="Sweep seed (default 0).")
@click.option("--lock-def", "lock_defs", multiple=True,
              help="Name a set of locked decisions for a lock axis: --grid 'lock=none,monk' "
                   "--lock-def 'monk=respond claim=Monk: pass=1' (repeatable; docs/locks.md).")
@click.option("--no-report", is_flag=True, help="Write the table only.")
def sweep(grid_text, grid_file, game, base, name, out, executor, address, workers, memory_gb,
          method, seat_player, target_exploitability, mccfr_seconds, mccfr_iterations,
          mccfr_table_gb, rounds, seed, lock_defs, no_report):
    """Solve every variant of a grid and compare them: sweeps/<name>/ holds a run per
    variant, table.csv (one row per variant and metric), the value of each rule and a
    report. Rerunning skips finished variants. With --game robin_des_bois the grid is
    the treasure game's box parameters and every variant is played."""
    from sweep.catalogue import game_named, load_toml, spec_from_text
    from sweep.grid import game_settings, parse_lock_defs
    from sweep.run import run_sweep

    if (grid_text is None) == (grid_file is None):
        raise click.UsageError("give the grid with --grid 'option=v1,v2 ...' or "
                               "--grid-file FILE.toml (one of them)")
    if grid_file is not None and game is not None:
        raise click.UsageError("--game goes in the grid file (game = \"...\")")
    treasure = game == "robin_des_bois"
    if treasure:
        for flag, value in (("--target-exploitability", target_exploitability),
                            ("--mccfr-seconds", mccfr_seconds),
                            ("--mccfr-iterations", mccfr_iterations),
                            ("--mccfr-table-gb", mccfr_table_gb), ("--lock-def", lock_defs)):
            if value:
                raise click.UsageError(f"{flag} is for Robin Wood's solvers; Robin des "
                                       f"Bois is played (--method, --seat-player, --rounds)")
        if method in ("exact", "mccfr"):
            raise click.BadParameter(f"{method} solves Robin Wood; Robin des Bois takes "
                                     f"auto, play or random", param_hint="--method")
    elif seat_player is not None and grid_file is None:
        raise click.UsageError("--seat-player is for --game robin_des_bois; Robin Wood's "
                               "variants are solved")
    elif method == "play":
        raise click.BadParameter("play is Robin des Bois's method (--game robin_des_bois); "
                                 "Robin Wood takes auto, exact, mccfr or random",
                                 param_hint="--method")
    if mccfr_iterations is not None and mccfr_iterations % 200:
        raise click.BadParameter(f"{mccfr_iterations} is not a multiple of Monte Carlo "
                                 f"CFR's batch of 200 traversals per seat",
                                 param_hint="--mccfr-iterations")
    overrides = {k: v for k, v in {
        "method": method, "exact_target": target_exploitability,
        "mccfr_seconds": mccfr_seconds, "mccfr_iterations": mccfr_iterations,
        "mccfr_table_gb": mccfr_table_gb, "rounds": rounds,
        "player": seat_player}.items() if v is not None}
    if mccfr_iterations is not None and mccfr_seconds is None:
        overrides["mccfr_seconds"] = None
    if grid_file is not None:
        if base is not None:
            raise click.UsageError("--base goes in the grid file (base = \"...\")")
        if lock_defs:
            raise click.UsageError("--lock-def goes in the grid file ([locks] table)")
        spec = load_toml(grid_file, name=name, seed=seed, settings_overrides=overrides)
    else:
        game = game or "robin_wood"
        spec = spec_from_text(grid_text, base, name, seed or 0,
                              game_settings(game_named(game), overrides, "the options"),
                              parse_lock_defs(lock_defs), game)
    if out is None:  # run_sweep's default
        check_writable(f"sweeps/{spec.name}", "--out", what="the sweep's folder, "
                       "sweeps/<name>", fix="choose another --name, or give --out")
    memory = int(memory_gb * 1024**3) if memory_gb is not None else None
    result = run_sweep(spec, out, executor=executor, workers=workers, memory_budget=memory,
                       address=address, report=not no_report)
    click.echo(f"{result.table_path}" + (f"\n{result.report}" if result.report else ""))
    if result.failed:
        sys.exit(1)


def format_simulation(r: dict) -> str:
    unit = r["mode"]
    lines = [f"variant {r['variant']}: {r['count']} random {unit}, seed {r['seed']} "
             f"({r['seconds']:.2f} s)", ""]
    lines.append(f"{'side':<10} {'win rate':>9}   95% CI")
    for w in r["win_rates"]:
        lo, hi = w["ci95"]
        lines.append(f"{w['side']:<10} {w['rate']:>9.4f}   [{lo:.4f}, {hi:.4f}]")
    d = r["draw_rate"]
    lines.append(f"{'draw':<10} {d['rate']:>9.4f}   [{d['ci95'][0]:.4f}, {d['ci95'][1]:.4f}]")
    rl = r["round_length_turns"]
    lines += ["", f"round length (turns) over {r['rounds_played']} rounds: mean "
              f"{rl['mean']:.2f}, q05 {rl['q05']:.0f}, q25 {rl['q25']:.0f}, median "
              f"{rl['q50']:.0f}, q75 {rl['q75']:.0f}, q95 {rl['q95']:.0f}, max {rl['max']}",
              "", f"{'rule fired':<18} {'total':>10} {'per round':>10}"]
    for name, total in r["rules_fired"].items():
        lines.append(f"{name:<18} {total:>10} {r['rules_fired_per_round'][name]:>10.3f}")
    return "\n".join(lines)


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


def _player_names(text: str, param) -> tuple[str, ...]:
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
             "than its fine_visits, 1,000 at turns and powers by default, or none), this "
             "league player's rules move instead; 'auto' is baiter:turn_visits=1000 at "
             "two seats, claim_counter:turn_visits=1000 at three or four and in teams; "
             "'none' plays the table alone (uniform where it has no entry); "
             "'counter:visits=50,turn_visits=500' sets the thresholds (docs/mccfr.md)."
    )(fn)


@cli.command()
@click.argument("agent_a")
@click.argument("agent_b")
@variant_options
@click.option("--rounds", type=COUNT, default=10_000, show_default=True,
              help="Rounds per seat assignment (each agent plays both seats).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@fallback_option
def tournament(agent_a, agent_b, variant_text, rounds, seed, as_json, fallback, **params):
    """AGENT_A against AGENT_B in both seats, with 95% intervals. An agent is a bot
    (uniform, honest, paranoid, heuristic[:bluff=0.3,challenge_below=0.3]), a league
    player (docs/bots.md: truthful_challenger, silent, counter, leader_bluffer,
    threshold_challenger[:t=0.5], baiter, tempo) or a Monte Carlo CFR run directory
    (whose variant is then the default)."""
    import pandas as pd

    from solver.players.agents import load_agent
    from solver.evaluation.tournament import head_to_head

    a, b = load_agent(agent_a, fallback), load_agent(agent_b, fallback)
    given = variant_text or any(v is not None for v in params.values())
    trained = a.variant or b.variant
    if given:
        variant = build_variant(variant_text, **params)
    elif trained is not None:
        variant = trained
    else:
        raise click.UsageError("two bots play any variant: name one with --deck or "
                               "--variant (e.g. --deck standard)")
    result = head_to_head(variant, a, b, rounds=rounds, seed=seed)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
        return
    frame = result.table()
    click.echo(f"{a.name} against {b.name} on {variant}, {rounds:,} rounds per seat "
               f"(seat = where {a.name} sat):")
    with pd.option_context("display.width", 140, "display.max_columns", 20,
                           "display.float_format", "{:.4f}".format):
        click.echo(frame.drop(columns=["a", "b"]).to_string())
    click.echo(f"{a.name}'s mean payoff over both seats: {result.value:+.4f}")


@cli.command()
@click.argument("agent")
@click.argument("opponents", nargs=-1)
@variant_options
@click.option("--rounds", type=COUNT, default=20_000, show_default=True,
              help="Rounds per seat against each opponent.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@fallback_option
def league(agent, opponents, variant_text, rounds, seed, as_json, fallback, **params):
    """AGENT (a bot or a Monte Carlo CFR run directory) against every league player
    (docs/bots.md), or against OPPONENTS if given: each opponent's seat-averaged gain
    with its 95% interval. Each gain is a lower bound on AGENT's exploitability in
    expectation; the largest of them overstates its own opponent's gain (it was chosen
    as the largest), which `robinwood exploit` corrects by replaying it on fresh rounds."""
    import pandas as pd

    from solver.players.agents import load_agent
    from solver.evaluation.league import play_league

    a = load_agent(agent, fallback)
    given = variant_text or any(v is not None for v in params.values())
    if given:
        variant = build_variant(variant_text, **params)
    elif a.variant is not None:
        variant = a.variant
    else:
        raise click.UsageError("a bot plays any variant: name one with --deck or "
                               "--variant (e.g. --deck standard)")
    frame = play_league(a, variant, rounds=rounds, seed=seed, opponents=opponents or None)
    if as_json:
        click.echo(json.dumps({**frame.attrs, "opponents": frame.reset_index().to_dict(
            orient="records")}, indent=2))
        return
    click.echo(f"{a.name} against the league on {variant}, {rounds:,} rounds per seat "
               f"(value: {a.name}'s seat-averaged payoff; gain: the opponent's):")
    with pd.option_context("display.width", 140, "display.max_columns", 20,
                           "display.float_format", "{:+.4f}".format):
        click.echo(frame[["value", "value_lo", "value_hi", "seat0_value", "seat1_value",
                          "gain"]].to_string())
    at = frame.attrs
    click.echo(f"strongest: {at['strongest']}, gain {at['gain']:+.4f} +/- "
               f"{at['half_width']:.4f} (95%), the largest of {len(frame)} noisy gains, "
               f"which overstates it: `robinwood exploit` replays it on fresh rounds")


def _exploit_table_play(run_dir, rounds, seed, as_json, fallback) -> None:
    """`robinwood exploit` for a Monte Carlo CFR run of 3-4 players or teams: the
    strategy in each seat (pair) against copies of every scripted player, by play
    (solver.evaluation.table_play), then against copies of each held-out player (never
    a training opponent), reported apart; writes RUN_DIR/table_strength.json."""
    from pathlib import Path

    import pandas as pd

    from solver.evaluation.table_play import table_coverage, table_play
    from solver.players.agents import load_table_agent
    from solver.scripted import HELD_OUT_NAMES
    from solver.store import atomic_write_bytes

    strategy = load_table_agent(run_dir, fallback)
    say = (lambda text: None) if as_json else (
        lambda text: click.echo(f"robinwood: {text}", err=True))
    result = table_play(strategy.variant, strategy, rounds=rounds, seed=seed, progress=say)
    held_out = table_play(strategy.variant, strategy, opponents=HELD_OUT_NAMES,
                          rounds=rounds, seed=seed + 1, progress=say)
    # against copies of the rules it plays where its table has not learned: whether the
    # table adds anything to them (docs/nplayer.md)
    own = (None if strategy.fallback is None else
           table_play(strategy.variant, strategy, opponents=(strategy.fallback.player,),
                      rounds=rounds, seed=seed + 2, progress=say))
    coverage = table_coverage(strategy, rounds=rounds, seed=seed + 3)
    summary = result.summary()

    def part(frame, part_seed, rows=None):   # one measured part of table_strength.json
        out = {} if rows is None else {"rows": rows.to_json()["rows"]}
        return {**out, "seed": part_seed,
                "summary": json.loads(frame.to_json(orient="index"))}

    data = result.to_json()
    data["fallback"] = None if strategy.fallback is None else str(strategy.fallback)
    data["coverage"] = {"rounds": rounds, **part(coverage, seed + 3)}
    data["rounds"] = rounds
    data["seed"] = seed
    data["summary"] = json.loads(summary.to_json(orient="index"))
    data["held_out"] = part(held_out.summary(), seed + 1, held_out)
    if own is not None:
        data["fallback_rules"] = part(own.summary(), seed + 2, own)
    atomic_write_bytes(Path(run_dir) / "table_strength.json",
                       json.dumps(data, indent=2).encode())
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    with pd.option_context("display.width", 140, "display.max_columns", 20,
                           "display.float_format", "{:.4f}".format):
        click.echo(f"{strategy.name} in each seat against copies of each scripted player, "
                   f"{rounds:,} rounds a seat (share of rounds won, a draw counting "
                   f"{result.fair_share:.4f}; fair share {result.fair_share:.4f}; 95% "
                   f"intervals)\n{summary.to_string()}")
        click.echo(f"held-out players (never training opponents), the same way:\n"
                   f"{held_out.summary().to_string()}")
        click.echo(f"coverage: share of {strategy.name}'s decisions on an entry with at "
                   f"least {strategy.min_visits:,} updates (learned), fewer (thin) or none "
                   f"(unlearned), in self-play, {rounds:,} rounds; "
                   f"{_fallback_words(strategy)}:\n{coverage.to_string()}")
        if own is not None:
            click.echo(f"against copies of those rules (does the table add to them?):\n"
                       f"{own.summary().to_string()}")
    for name, table in (("scripted", summary), ("held-out", held_out.summary())):
        every = int(table["beats_fair_share_in_every_seat"].sum())
        mean = int(table["beats_fair_share"].sum())
        click.echo(f"above the fair share with 95% confidence ({name}): against {mean} "
                   f"of {len(table)} players seat-averaged, {every} of {len(table)} in "
                   f"every seat")


@cli.command()
@click.argument("run_dir", type=WritableDir(writes="strength.json"))
@click.option("--minutes", type=MINUTES, default=None,
              help="Train an exploiter for this long in each seat (the two seats train "
                   "at once, one per core).")
@click.option("--iterations", type=COUNT, default=None,
              help="... or for this many traversals per seat.")
@click.option("--rounds", type=COUNT, default=20_000, show_default=True,
              help="Rounds per seat against each opponent.")
@click.option("--lbr-rounds", type=click.IntRange(0, MAX_COUNT), default=1000,
              show_default=True,
              help="Rounds per seat for the local best response (docs/lbr.md); 0 skips "
                   "it.")
@click.option("--lbr-continuations", default=DEFAULT_LBR_CONTINUATIONS_TEXT,
              show_default=True,
              callback=lambda ctx, param, value: _player_names(value, param),
              help="The local best response runs once for each of these players as its "
                   "continuation (bots or league players, or self: the strategy itself; "
                   "comma-separated).")
@click.option("--holdout-rounds", type=COUNT, default=None,
              help="Rounds per seat of the held-out replay of the strongest opponent "
                   "(default: as many as it was chosen on, --rounds or --lbr-rounds).")
@click.option("--seed", type=click.IntRange(0, 2**32 - 3), default=0, show_default=True,
              help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@fallback_option
def exploit(run_dir, minutes, iterations, rounds, lbr_rounds, lbr_continuations,
            holdout_rounds, seed, as_json, fallback):
    """How exploitable the Monte Carlo CFR strategy in RUN_DIR is at least: every
    baseline bot and league player against it, the local best response, and a trained
    exploiter when given a budget. Prints each opponent's seat-averaged gain with its
    95% interval; the strongest of them replayed on fresh rounds (its gain there is the
    stated lower bound on exploitability: the largest gain itself overstates); and how
    many of the strategy's decisions landed on trained table entries; writes
    RUN_DIR/strength.json."""
    from pathlib import Path

    import pandas as pd

    from solver.players.agents import load_table_agent
    from solver.store import atomic_write_bytes, read_metadata
    from solver.evaluation.strength import measure

    if minutes is not None and iterations is not None:
        raise click.UsageError("give the exploiter one budget: --minutes or --iterations, "
                               "not both")
    metadata = read_metadata(run_dir)
    if metadata.get("kind") != "mccfr" and _players_of(metadata) > 2:
        return _exploit_table(run_dir, as_json)
    if _players_of(metadata) > 2:
        if minutes is not None or iterations is not None:
            raise click.UsageError("the trained exploiter plays two-player rounds; at 3-4 "
                                   "players and in teams drop --minutes/--iterations")
        return _exploit_table_play(run_dir, rounds, seed, as_json, fallback)
    strategy = load_table_agent(run_dir, fallback)

    def say(text):
        if not as_json:
            click.echo(f"robinwood: {text}", err=True)

    report = measure(strategy, rounds=rounds, seed=seed,
                     exploiter_seconds=minutes * 60 if minutes else None,
                     exploiter_iterations=iterations, lbr_rounds=lbr_rounds,
                     lbr_continuations=lbr_continuations, holdout_rounds=holdout_rounds,
                     say=say)
    data = report.to_json()
    atomic_write_bytes(Path(run_dir) / "strength.json", json.dumps(data, indent=2).encode())
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    with pd.option_context("display.width", 140, "display.max_columns", 20,
                           "display.float_format", "{:+.4f}".format):
        click.echo(f"opponents' gains against {strategy.name} on the selection sample "
                   f"({rounds:,} rounds a seat; payoff units, win +1, loss -1; 95% "
                   f"intervals):")
        click.echo(report.table().to_string())
        click.echo("")
    with pd.option_context("display.width", 140, "display.float_format", "{:.3f}".format):
        click.echo(f"coverage: share of {strategy.name}'s decisions on an entry with at "
                   f"least {strategy.min_visits} updates (learned), fewer (thin), or none "
                   f"(unlearned), in self-play; {_fallback_words(strategy)}:")
        click.echo(report.coverage["self-play"].to_string())
        click.echo("")
    beaten = {method: [o for o in report.opponents if o.method == method]
              for method in ("league", "held-out")}
    click.echo("beats " + " and ".join(
        f"{sum(o.gain + o.half_width < 0 for o in rows)} of {len(rows)} {words}"
        for (method, rows), words in zip(beaten.items(), (
            "league players", "held-out players (never met in training)")))
        + " with 95% confidence")
    bound, every = report.bound, report.simultaneous
    kind = "" if bound.opponent_method in bound.opponent else f" ({bound.opponent_method})"
    click.echo(f"strongest on the selection sample: {bound.opponent}{kind}, "
               f"{bound.selection_gain:+.4f} +/- {bound.selection_half_width:.4f}: the "
               f"largest of {bound.candidates} noisy gains, which overstates on average")
    click.echo(f"lower bound on exploitability (held-out): {bound.gain:+.4f} +/- "
               f"{bound.half_width:.4f} (95%), {bound.opponent} replayed on "
               f"{bound.rounds:,} fresh rounds a seat (seed {bound.seed})")
    click.echo(f"all {every.candidates} opponents at once (Bonferroni, 95%): exploitability "
               f"at least {every.lower:+.4f}, by {every.opponent}")
    click.echo(f"{report.unlearned_self_play:.2%} of self-play decisions found no table "
               f"entry")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--continuation", default="baiter", show_default=True,
              callback=lambda ctx, param, value: _player_names(value, param)[0],
              help="The bot or league player (or self: the strategy itself) the local "
                   "best response plays wherever it does not look ahead.")
@click.option("--rounds", type=COUNT, default=1000, show_default=True,
              help="Rounds per seat for each row.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@fallback_option
def leaks(run_dir, continuation, rounds, seed, as_json, fallback):
    """Where the Monte Carlo CFR strategy in RUN_DIR can be exploited: the local best
    response's gain when it looks ahead at one kind of decision only (turn, after_peek,
    respond, power) and plays its continuation elsewhere, beside the continuation alone
    and the full local best response (docs/lbr.md, "Where a strategy leaks")."""
    import pandas as pd

    from solver.evaluation.lbr import leaks as find_leaks
    from solver.players.agents import load_table_agent

    strategy = load_table_agent(run_dir, fallback)
    frame = find_leaks(strategy, continuation=continuation, rounds=rounds, seed=seed)
    if as_json:
        click.echo(json.dumps({**frame.attrs, "rows": frame.reset_index().to_dict(
            orient="records")}, indent=2))
        return
    click.echo(f"local best response against {strategy.name}, continuing as "
               f"{continuation}, {rounds:,} rounds a seat per row\n(gain: its seat-averaged "
               f"payoff, a lower bound on exploitability, with its 95% interval; added: "
               f"beyond the continuation alone):")
    shown = pd.DataFrame({
        "gain": [f"{g:+.3f} ± {h:.3f}" for g, h in zip(frame["gain"], frame["half_width"])],
        "added": [f"{a:+.3f}" for a in frame["added"]],
        "decisions looked ahead": frame["decisions"]}, index=frame.index)
    click.echo(shown.to_string())


def _fallback_words(agent) -> str:
    if agent.fallback is None:
        return "unlearned decisions are played uniformly"
    return f"thin and unlearned decisions are played by the {agent.fallback.player}'s rules"


@cli.command()
@click.argument("run_dir", type=WritableDir(writes="search.json"))
@click.argument("opponents", nargs=-1)
@click.option("--rounds", type=click.IntRange(1, 10**7), default=500, show_default=True,
              help="Rounds per seat of the searcher against each opponent.")
@click.option("--blueprint-rounds", type=click.IntRange(1, 10**9), default=20_000,
              show_default=True, help="Rounds per seat of the blueprint alone.")
@click.option("--particles", type=click.IntRange(1, 100_000), default=128,
              show_default=True,
              help="Particles in the searcher's belief (and the --lbr-rounds LBR's).")
@click.option("--rollouts", type=click.IntRange(1, 100_000), default=24,
              show_default=True,
              help="Rollouts per scored action (the searcher's and the LBR's).")
@click.option("--kinds", default="turn,power", show_default=True,
              help="Decisions the search takes (turn, after_peek, respond, power); the "
                   "blueprint plays the others.")
@click.option("--lbr-rounds", type=click.IntRange(0, 10**7), default=0, show_default=True,
              help="Rounds per seat of a local best response that models the searcher by "
                   "its blueprint, against the searcher and against the blueprint: a "
                   "lower bound on the searcher's exploitability (0: skip).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@fallback_option
def search(run_dir, opponents, rounds, blueprint_rounds, particles, rollouts, kinds,
           lbr_rounds, seed, as_json, fallback):
    """The Monte Carlo CFR strategy in RUN_DIR with play-time search (docs/search.md)
    against every bot and league player and against its own table ("blueprint"), or
    against OPPONENTS; beside it the blueprint without search (the table with its
    --fallback rules). Writes RUN_DIR/search.json."""
    from pathlib import Path

    import pandas as pd

    from solver.evaluation.search_strength import search_league
    from solver.players.agents import BOT_NAMES, AgentError, load_agent, load_table_agent
    from solver.search import SearchConfig, Searcher
    from solver.store import atomic_write_bytes

    # every input checked before any work; click has checked the counts, so a setting
    # SearchConfig refuses is a decision kind
    try:
        config = SearchConfig(particles=particles, rollouts=rollouts,
                              kinds=tuple(filter(None, map(str.strip, kinds.split(",")))))
    except AgentError as e:
        raise click.BadParameter(str(e), param_hint="--kinds") from None
    for name in opponents:
        if name != "blueprint":
            load_agent(name)
    searcher = Searcher(load_table_agent(run_dir, fallback), config)
    names = list(opponents) or list(BOT_NAMES) + ["blueprint"]
    with tqdm(total=len(names), desc="search", unit="opponent", disable=as_json,
              file=sys.stderr) as bar:
        def progress(name):
            bar.set_postfix_str(name)
            bar.update(1)

        frame = search_league(searcher, names, rounds=rounds,
                              blueprint_rounds=blueprint_rounds, seed=seed,
                              progress=progress)
    data = {**frame.attrs, "opponents": frame.reset_index().to_dict(orient="records")}
    bounds = []
    if lbr_rounds:
        from solver.evaluation.search_lbr import against_blueprint, search_lbr

        for opponent in (searcher, against_blueprint(searcher)):
            if not as_json:
                click.echo(f"robinwood: local best response against {opponent.name} "
                           f"({lbr_rounds:,} rounds a seat)", err=True)
            bounds.append(search_lbr(opponent, rounds=lbr_rounds, seed=seed,
                                     particles=particles, rollouts=rollouts))
        data["local_best_response"] = [b.to_json() for b in bounds]
    atomic_write_bytes(Path(run_dir) / "search.json", json.dumps(data, indent=2).encode())
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{searcher.name} (search: {rounds:,} rounds a seat) and its blueprint "
               f"without search ({blueprint_rounds:,}): seat-averaged payoffs, 95% "
               f"intervals")
    with pd.option_context("display.width", 140, "display.max_columns", 20,
                           "display.float_format", "{:+.3f}".format):
        click.echo(frame[["search", "search_lo", "search_hi", "blueprint", "blueprint_lo",
                          "blueprint_hi", "difference"]].to_string())
    at = frame.attrs
    click.echo(f"worst opponent with search: {at['worst']}, {at['worst_value']:+.3f} (95% "
               f"upper end {at['worst_hi']:+.3f})")
    for b in bounds:
        click.echo(f"local best response modelling it by its blueprint, against "
                   f"{b.opponent}: gains {b.gain:+.3f} +/- {b.half_width:.3f} (95%)")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True,
              help="Port to serve on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (0.0.0.0 shares it on the network).")
@click.option("--open", "open_browser", is_flag=True, help="Open it in the web browser.")
def explore(run_dir, port, host, open_browser):
    """Explore the strategy in RUN_DIR in the browser: step through rounds with its
    probabilities (and exact values), its report's tables with example situations, and
    play against it (docs/explorer.md)."""
    from explorer.app import serve

    serve(run_dir, host, port, open_browser, echo=lambda text: click.echo(text, err=True))


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--seat", type=int, default=0, show_default=True,
              help="Your seat, 0 to players-1 (the variant's first_player, 0 by default, "
                   "plays first); the strategy plays every other seat (in team mode your "
                   "partner, seat+2, too).")
@click.option("--match", is_flag=True, help="Best of 3 (first to two round wins).")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the deals and the AI's draws.")
@click.option("--search", is_flag=True,
              help="The AI plays its Monte Carlo CFR table with play-time search "
                   "(docs/search.md).")
def play(run_dir, seat, match, seed, search):
    """Play a round (or a best-of-3 match) against the strategy in RUN_DIR in the
    terminal, at any table size (the strategy in every other seat); at the end every card
    is revealed, the winner (team) shown and each of your decisions reviewed against the
    strategy."""
    from explorer.run import load_run
    from explorer.terminal import play_in_terminal

    run = load_run(run_dir)
    if not 0 <= seat < run.players:
        raise click.BadParameter(f"{seat} is not a seat of {run.variant}: give 0 to "
                                 f"{run.players - 1} ({run.variant.first_player} plays "
                                 f"first)", param_hint="--seat")
    if search and run.kind != "mccfr":
        raise click.BadParameter(f"{run_dir} holds an exact strategy (an equilibrium): "
                                 f"search plays Monte Carlo CFR tables", param_hint="--search")
    if search and "search" in run.two_player_only:
        raise click.BadParameter(run.two_player_only["search"], param_hint="--search")
    play_in_terminal(run, seat, match, seed, echo=click.echo,
                     prompt=lambda text, default=None: click.prompt(
                         text, default=default, show_default=False), search=search)


def main() -> None:
    cli(prog_name="robinwood")


if __name__ == "__main__":
    main()
