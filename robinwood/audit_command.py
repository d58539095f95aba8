"""`robinwood audit VARIANT`: a designer's page on a variant's balance (the seats
against their fair share, what each mechanic is worth by restricted play, the skill
ladder), written to reports/<name>/; the work is analysis.audit's (exact) or
analysis.audit_sampled's (Monte Carlo CFR and play, with --resume)."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import click

from common.paths import WritableDir, check_writable


def default_name(variant: str) -> str:
    """reports/audit-<variant, as a folder name>."""
    return "audit-" + re.sub(r"[^A-Za-z0-9._-]+", "_", variant).strip("_")


@click.command()
@click.argument("variant")
@click.option("--out", type=WritableDir(), default=None,
              help="Folder for the page and tables (default reports/audit-<variant>).")
@click.option("--exploitability", type=click.FloatRange(0, 1, min_open=True,
                                                                  max_open=True),
              default=1e-4, show_default=True,
              help="Exploitability the exact solves on the position-symmetric tree stop "
                   "at (values are bracketed by it).")
@click.option("--full-exploitability", "full_target",
              type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=1e-3, show_default=True,
              help="The same on the full tree (the skill ladder's equilibrium, "
                   "restrictions that aim at positions).")
@click.option("--target", "band", default=None,
              help="Search the rule changes that bring a sweep metric into a band, "
                   "e.g. 'starter_edge in [-0.02,0.02]': every single change, then "
                   "pairs of the nearest (swept exactly beside an exact audit; by "
                   "Monte Carlo CFR at --iterations and --rounds, with intervals, "
                   "beside a sampled one).")
@click.option("--pairs", type=click.IntRange(0, 12), default=None,
              help="With --target: pair the K single changes nearest the band (default "
                   "4; 0 searches single changes only).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Sweep workers for --target.")
@click.option("--method", type=click.Choice(["auto", "exact", "sampled"]), default="auto",
              show_default=True,
              help="exact: DCFR on the whole tree (two players, up to 20 million nodes); "
                   "sampled: Monte Carlo CFR and play; auto: exact where it fits.")
@click.option("--iterations", type=click.IntRange(1, 10**9), default=2400,
              show_default=True,
              help="sampled: Monte Carlo CFR traversals a seat for the free game (the "
                   "defaults fit `robinwood audit standard` in 45 minutes on 2 cores; "
                   "raise them for narrower intervals).")
@click.option("--restricted-iterations", type=click.IntRange(1, 10**9), default=600,
              show_default=True,
              help="sampled: traversals a seat for each restricted game and for the "
                   "free game it is compared with (at most --iterations; one training "
                   "a restriction and side, the audit's time at 3-4 seats).")
@click.option("--rounds", type=click.IntRange(100, 10**9), default=6000,
              show_default=True,
              help="sampled: self-play rounds for the seats and each restriction.")
@click.option("--ladder-rounds", type=click.IntRange(10, 10**9), default=300,
              show_default=True,
              help="sampled: rounds a seat for each pair of the skill ladder.")
@click.option("--search-rounds", type=click.IntRange(0, 10**9), default=None,
              help="sampled, two seats: rounds a seat of the free table with play-time "
                   "search against each player of the skill ladder (default 30: about 6 "
                   "minutes on the printed deck; 0 leaves it out).")
@click.option("--restrictions", default=None,
              help="sampled: comma-separated restriction names to run (default all).")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True,
              help="sampled: the training seed (play uses seeds apart from it).")
@click.option("--fallback", default="auto", show_default=True,
              help="sampled: where the tables play fallback rules, as `robinwood solve "
                   "--fallback` (auto: the sound default at every claim and response).")
@click.option("--work", type=WritableDir(), default=None,
              help="sampled: folder for the trained tables and finished pieces "
                   "(default runs/audit-<variant>).")
@click.option("--resume", is_flag=True,
              help="sampled: continue an interrupted audit from its --work folder.")
@click.option("--rewrite", is_flag=True,
              help="Write the page in --out again from its own tables, measuring "
                   "nothing (after an upgrade changes the page's words or formats).")
def audit(variant, out, exploitability, full_target, band, pairs, workers, method,
          iterations, restricted_iterations, rounds, ladder_rounds, search_rounds,
          restrictions, seed, fallback, work, resume, rewrite):
    """Audit VARIANT (e.g. 'rspmx:max_turns=3', 'standard', 'standard:players=3'): who
    is favoured and by how much, what each mechanic is worth to the seat forbidden it,
    whether skill pays. Exact for two-player variants whose tree fits (up to 20 million
    nodes); by Monte Carlo CFR and play otherwise (progress lines, --resume)."""
    from analysis.audit import choose_method
    from analysis.audit_page import write_audit

    if rewrite:
        _rewrite(variant, out)
        return
    method, parsed = choose_method(variant, method)   # one line before any work
    if search_rounds and method == "exact":
        raise click.UsageError("--search-rounds adds play-time search to a sampled "
                               "audit's ladder: add --method sampled, or leave it out")
    from analysis.audit_sampled import searchable

    if search_rounds and not searchable(parsed):
        raise click.UsageError(f"--search-rounds needs two seats (play-time search plays "
                               f"two-player rounds), not {parsed}: leave it out")
    target = None
    if band is not None:
        from sweep.band import DEFAULT_PAIRS, parse_target

        target = parse_target(band)
        pairs = DEFAULT_PAIRS if pairs is None else pairs
    elif pairs is not None:
        raise click.UsageError("--pairs needs --target 'METRIC in [LO,HI]' (it pairs the "
                               "single changes nearest that band)")
    if out is None:
        out = str(Path("reports") / default_name(variant))
        check_writable(out, "--out")
    start = time.perf_counter()

    def say(line):
        click.echo(f"[{time.perf_counter() - start:7.1f} s] {line}", err=True)

    band_search = None
    if target is not None:  # beside the sections (method exact): both cores busy at once
        from common.background import Background
        from sweep.band import band_search as search

        click.echo(f"band search: {target} (beside the audit's sections)", err=True)
        band_search = Background(search, variant, target, Path(out) / "band",
                                 workers=workers, pairs=pairs, name="band search",
                                 say=say, seed=seed,
                                 settings=_band_settings(method, iterations, rounds))
    try:
        result = _measure(variant, method, exploitability, full_target, iterations,
                          restricted_iterations, rounds, ladder_rounds, search_rounds,
                          restrictions, seed, fallback, work, resume, say)
    except BaseException:
        if band_search is not None:
            band_search.cancel()
        raise
    found = None if band_search is None else (str(target), band_search.result())
    page = write_audit(result, out, found)
    click.echo(f"{page}\n{Path(out) / 'report.md'}")


def _band_settings(method: str, iterations: int, rounds: int):
    """How the band search solves each variant: the sweep's defaults beside an exact
    audit (exact wherever the tree fits); beside a sampled one, as the audit itself
    does: Monte Carlo CFR at the audit's budget in traversals (reproducible from the
    seed, unlike a budget in seconds) and its self-play rounds, so that every row has
    its interval and compares with the audit's own figures."""
    if method == "exact":
        return None
    from sweep.grid import SolveSettings

    return SolveSettings(method="mccfr", mccfr_iterations=iterations, mccfr_seconds=None,
                         rounds=rounds)


def _measure(variant, method, exploitability, full_target, iterations,
             restricted_iterations, rounds, ladder_rounds, search_rounds, restrictions,
             seed, fallback, work, resume, say):
    """The audit's sections: analysis.audit's exact ones, or analysis.audit_sampled's
    (exits 130 with a line on how to resume when interrupted)."""
    from analysis.audit import audit as run_audit

    if method == "exact":
        return run_audit(variant, target=exploitability, full_target=full_target,
                         progress=say)
    from analysis.audit_sampled import SampledSettings, sampled_audit
    from solver.jobs import Interrupted

    names = None if restrictions is None else tuple(
        r.strip() for r in restrictions.split(",") if r.strip())
    more = {} if search_rounds is None else {"search_rounds": search_rounds}
    settings = SampledSettings(iterations=iterations,
                               restricted_iterations=restricted_iterations, rounds=rounds,
                               ladder_rounds=ladder_rounds, seed=seed, **more,
                               restrictions=names, fallback=fallback)
    if work is None:
        work = str(Path("runs") / default_name(variant))
        check_writable(work, "--work")
    try:
        return sampled_audit(variant, work, settings, resume=resume, progress=say)
    except Interrupted:
        click.echo(f"robinwood: interrupted; what finished is kept in {work}: run "
                   f"the same command with --resume to continue", err=True)
        sys.exit(130)


def _rewrite(variant: str, out) -> None:
    """--rewrite: the page in `out` written again from its tables (analysis.audit_page)."""
    from analysis.audit import AuditError
    from analysis.audit_page import read_audit, write_audit
    from game_def.errors import VariantError
    from game_def.variant import parse

    folder = Path(out) if out is not None else Path("reports") / default_name(variant)
    try:
        audit, band, generated = read_audit(folder)
    except AuditError as e:
        raise click.ClickException(str(e)) from None
    try:
        named = parse(variant)
    except VariantError as e:
        raise click.ClickException(str(e)) from None
    if str(audit.variant) != str(named):
        raise click.ClickException(f"{folder} audits {audit.variant}, not {variant}: name "
                                   f"that variant, or the page's folder with --out")
    page = write_audit(audit, folder, band, generated)
    click.echo(f"{page}\n{folder / 'report.md'}")
