"""`robinwood sweep`: every variant of a grid solved (or played, for Robin des Bois) on a
process pool or Ray, into a sweep folder with its table, the value of each rule and a
report (the sweep package does the work)."""

from __future__ import annotations

import sys

import click

from robinwood.options import COUNT, POSITIVE, SECONDS, SEED, Number
from common.paths import WritableDir, check_writable

@click.command()
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
