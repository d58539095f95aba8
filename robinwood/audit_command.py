"""`robinwood audit VARIANT`: a designer's page on a variant's balance (the seats
against their fair share, what each mechanic is worth by restricted play, the skill
ladder), written to reports/<name>/; the work is analysis.audit's."""

from __future__ import annotations

import re
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
                   "pairs of the nearest (swept exactly).")
@click.option("--pairs", type=click.IntRange(0, 12), default=None,
              help="With --target: pair the K single changes nearest the band (default "
                   "4; 0 searches single changes only).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Sweep workers for --target.")
def audit(variant, out, exploitability, full_target, band, pairs, workers):
    """Audit VARIANT (e.g. 'rspmx:max_turns=3'): who is favoured and by how much, what
    each mechanic is worth to the seat forbidden it, whether skill pays; exact, for
    two-player variants whose tree fits (up to 20 million nodes) so far."""
    from analysis.audit import audit as run_audit, check_variant
    from analysis.audit_page import write_audit

    check_variant(variant)   # one line before any work
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
    result = run_audit(variant, target=exploitability, full_target=full_target,
                       progress=lambda line: click.echo(
                           f"[{time.perf_counter() - start:6.1f} s] {line}", err=True))
    found = None
    if target is not None:
        from sweep.band import band_search

        click.echo(f"band search: {target}", err=True)
        found = (str(target), band_search(variant, target, Path(out) / "band",
                                          workers=workers, pairs=pairs,
                                          say=lambda line: click.echo(line, err=True)))
    page = write_audit(result, out, found)
    click.echo(f"{page}\n{Path(out) / 'report.md'}")
