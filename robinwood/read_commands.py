"""`robinwood stats`, `report`, `explore` and `play`: reading a solved strategy in the
terminal, as report pages, in the browser, or by playing against it."""

from __future__ import annotations

import json

import click

from game_def.errors import RobinWoodError
from robinwood.options import COUNT, SEED
from common.paths import WritableDir, check_writable

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


@click.command()
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
    from solver.store import players_of, read_metadata

    metadata = read_metadata(run_dir)
    if players_of(run_dir) > 2:
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


@click.command()
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

    from analysis.report import write_report
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
    index = write_report(run_dir, out, other, parquet=parquet, rounds=rounds, seed=seed)
    click.echo(f"report written to {index} ({time.perf_counter() - start:.1f} s); "
               f"also {index.parent / 'report.md'}")


@click.command()
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


@click.command()
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
