"""`robinwood simulate` and `robinwood solve`: random rounds of a variant, and an exact
or Monte Carlo CFR solve with progress, checkpoints and --resume."""

from __future__ import annotations

import json
import math
import sys

import click
from tqdm import tqdm

from robinwood.options import (COUNT, MAX_SECONDS, MINUTES, POSITIVE, SECONDS, SEED, Number,
                               build_variant, given, refuse_unless, variant_options)
from common.paths import WritableDir

@click.command()
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


@click.command()
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
    from solver.exact.job import SolveConfig, solve as run_solve

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

    summary = _run_with_bar(bar, lambda: run_solve(config, on_progress=on_progress,
                                                   on_phase=on_phase))
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

    summary = _run_with_bar(bar, lambda: solve_mccfr(
        config, Path(out), max_seconds=seconds, max_iterations=iterations, resume=resume,
        checkpoint_seconds=checkpoint_every, snapshot_seconds=snapshots,
        on_progress=on_progress, on_phase=on_phase))
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


def _run_with_bar(bar, job):
    """Run a solve job under its progress bar: an interruption (a signal, checkpointed)
    is one line and exit status 130, and the bar is closed either way."""
    from solver.exact.job import Interrupted

    try:
        return job()
    except Interrupted as e:
        click.echo(f"robinwood: {e}", err=True)
        sys.exit(130)
    finally:
        bar.close()
