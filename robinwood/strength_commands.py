"""`robinwood tournament`, `league`, `exploit`, `leaks` and `search`: how strong a
strategy is against bots, league players, held-out players, the local best response and
a trained exploiter, and with play-time search. The measuring is the library's
(solver.evaluation); these commands parse, check and print."""

from __future__ import annotations

import json
import sys

import click
from tqdm import tqdm

from robinwood.options import (COUNT, MAX_COUNT, MINUTES, SEED, DEFAULT_LBR_CONTINUATIONS_TEXT,
                               build_variant, fallback_option, player_names, variant_options)
from common.paths import WritableDir

def _echo_exact_table(result) -> None:
    """`robinwood exploit` on an exact 3-4 player or team strategy, in the terminal."""
    import pandas as pd

    table = result.exact
    with pd.option_context("display.width", 120, "display.max_columns", 20,
                           "display.float_format", "{:.4f}".format):
        click.echo(f"per seat (self_play_share: the seat's share when every seat plays "
                   f"the strategy)\n{table.rows.to_string(index=False)}\n\n"
                   f"per opponent (fair share {table.fair_share:.4f})\n"
                   f"{table.summary().to_string()}")


def _played_variant(variant_text, params, trained, who: str):
    """The variant named on the command line, else the one a run was trained on; bots
    alone play any variant, so they need one named."""
    if variant_text or any(v is not None for v in params.values()):
        return build_variant(variant_text, **params)
    if trained is not None:
        return trained
    raise click.UsageError(f"{who} play{'s' if who == 'a bot' else ''} any variant: name "
                           f"one with --deck or --variant (e.g. --deck standard)")


@click.command()
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
    variant = _played_variant(variant_text, params, a.variant or b.variant, "two bots")
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


@click.command()
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
    variant = _played_variant(variant_text, params, a.variant, "a bot")
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


def _echo_table_play(result, rounds: int) -> None:
    """`robinwood exploit` on a Monte Carlo CFR table of 3-4 players or teams, in the
    terminal: each part of table_strength.json, then how many players it beats."""
    import pandas as pd

    parts = result.by_play
    strategy, summary = parts.strategy, parts.scripted.summary()
    held_out = parts.held_out.summary()
    with pd.option_context("display.width", 140, "display.max_columns", 20,
                           "display.float_format", "{:.4f}".format):
        fair = parts.scripted.fair_share
        click.echo(f"{strategy.name} in each seat against copies of each scripted player, "
                   f"{rounds:,} rounds a seat (share of rounds won, a draw counting "
                   f"{fair:.4f}; fair share {fair:.4f}; 95% "
                   f"intervals)\n{summary.to_string()}")
        click.echo(f"held-out players (never training opponents), the same way:\n"
                   f"{held_out.to_string()}")
        click.echo(f"coverage: share of {strategy.name}'s decisions the table played "
                   f"from an entry with at least {strategy.min_visits:,} updates "
                   f"(learned), on an entry with fewer or below the fallback's threshold "
                   f"(thin) or none (unlearned), in self-play, {rounds:,} rounds; "
                   f"{_fallback_words(strategy)}:\n{parts.coverage.to_string()}")
        if parts.fallback_rules is not None:
            click.echo(f"against copies of those rules (does the table add to them?):\n"
                       f"{parts.fallback_rules.summary().to_string()}")
    for name, table in (("scripted", summary), ("held-out", held_out)):
        every = int(table["beats_fair_share_in_every_seat"].sum())
        mean = int(table["beats_fair_share"].sum())
        click.echo(f"above the fair share with 95% confidence ({name}): against {mean} "
                   f"of {len(table)} players seat-averaged, {every} of {len(table)} in "
                   f"every seat")


@click.command()
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
              callback=lambda ctx, param, value: player_names(value, param),
              help="The local best response runs once for each of these players as its "
                   "continuation (bots or league players, or self: the strategy itself; "
                   "comma-separated).")
@click.option("--holdout-rounds", type=COUNT, default=None,
              help="Rounds per seat of the held-out replay of the strongest opponent "
                   "(default: as many as it was chosen on, --rounds or --lbr-rounds).")
@click.option("--lbr-split", type=click.Choice(["replay", "every"]), default="replay",
              show_default=True,
              help="Which local best responses split their gain by decision: the "
                   "held-out replay of the strongest, or every run (each costs about "
                   "half as much again).")
@click.option("--seed", type=click.IntRange(0, 2**32 - 3), default=0, show_default=True,
              help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@fallback_option
def exploit(run_dir, minutes, iterations, rounds, lbr_rounds, lbr_continuations,
            holdout_rounds, lbr_split, seed, as_json, fallback):
    """How exploitable the Monte Carlo CFR strategy in RUN_DIR is at least: every
    baseline bot and league player against it, the local best response, and a trained
    exploiter when given a budget. Prints each opponent's seat-averaged gain with its
    95% interval; the strongest of them replayed on fresh rounds (its gain there is the
    stated lower bound on exploitability: the largest gain itself overstates); and how
    many of the strategy's decisions landed on trained table entries; writes
    RUN_DIR/strength.json."""
    import pandas as pd

    from solver.evaluation.run_strength import measure_run
    from solver.store import players_of

    if minutes is not None and iterations is not None:
        raise click.UsageError("give the exploiter one budget: --minutes or --iterations, "
                               "not both")
    if players_of(run_dir) > 2 and (minutes is not None or iterations is not None):
        raise click.UsageError("the trained exploiter plays two-player rounds; at 3-4 "
                               "players and in teams drop --minutes/--iterations")

    def say(text):
        if not as_json:
            click.echo(f"robinwood: {text}", err=True)

    result = measure_run(run_dir, rounds=rounds, seed=seed, fallback=fallback,
                         exploiter_seconds=minutes * 60 if minutes else None,
                         exploiter_iterations=iterations, lbr_rounds=lbr_rounds,
                         lbr_continuations=lbr_continuations,
                         holdout_rounds=holdout_rounds, split_runs=lbr_split, say=say)
    if as_json:
        click.echo(json.dumps(result.data, indent=2))
        return
    if result.exact is not None:
        return _echo_exact_table(result)
    if result.by_play is not None:
        return _echo_table_play(result, rounds)
    strategy, report = result.strategy, result.two_player
    with pd.option_context("display.width", 140, "display.max_columns", 20,
                           "display.float_format", "{:+.4f}".format):
        click.echo(f"opponents' gains against {strategy.name} on the selection sample "
                   f"({rounds:,} rounds a seat; payoff units, win +1, loss -1; 95% "
                   f"intervals):")
        click.echo(report.table().to_string())
        click.echo("")
    with pd.option_context("display.width", 140, "display.float_format", "{:.3f}".format):
        click.echo(f"coverage: share of {strategy.name}'s decisions the table played "
                   f"from an entry with at least {strategy.min_visits} updates (learned), "
                   f"on an entry with fewer or below the fallback's threshold (thin), or "
                   f"none (unlearned), in self-play; {_fallback_words(strategy)}:")
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
    if report.lbr_by_decision is not None:
        click.echo("")
        _echo_lbr_split(report.lbr_by_decision)


def _echo_lbr_split(split: dict) -> None:
    """Where the strongest local best response gains over its continuation, by decision
    (strength.json's lbr_by_decision), largest first."""
    from solver.evaluation.strength import by_decision_table

    table = by_decision_table(split["rows"])
    sample = ("its held-out replay" if split["sample"] == "held-out replay"
              else "the selection sample")
    click.echo(f"where {split['opponent']} gains over its continuation, by decision "
               f"({sample}, {split['rounds']:,} rounds a seat; the advantage of its "
               f"action over the continuation's, summed a round; 95% intervals; "
               f"docs/lbr.md):")
    width = max(len(f"{kind} {sub}".strip()) for kind, sub in table.index)
    click.echo(f"  {'decision':<{width}}  {'gain a round':>18}  {'decisions a round':>17}")
    for (kind, sub), row in table.iterrows():
        name = f"{kind} {sub}".strip()
        click.echo(f"  {name:<{width}}  {row['gain']:+.4f} +/- {row['half_width']:.4f}  "
                   f"{row['decisions_per_round']:>17.3f}")
    _echo_choices(split)


def _echo_choices(split: dict) -> None:
    """What the local best response played at its three largest leaks, beside what the
    strategy itself plays there (strength.json's lbr_by_decision choices)."""
    from solver.evaluation.strength import choices_at_leaks

    table = choices_at_leaks(split)
    if table is None:
        return
    click.echo("what it played at its three largest leaks, beside the strategy's own "
               "play at the same decisions (gain: its mean advantage where it played it):")
    for (kind, sub, played), row in table.iterrows():
        gain = ("" if row["gain_per_decision"] is None or row["gain_per_decision"] !=
                row["gain_per_decision"] else f"  gain {row['gain_per_decision']:+.4f}")
        click.echo(f"  {f'{kind} {sub}'.strip():<22} {played:<20} it {row['lbr_share']:6.1%}"
                   f"  strategy {row['strategy_share']:6.1%}{gain}")


@click.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--continuation", default="baiter", show_default=True,
              callback=lambda ctx, param, value: player_names(value, param)[0],
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
    player = agent.fallback.player
    name = "the sound default" if player == "sound" else f"the {player}'s rules"
    return (f"thin and unlearned decisions are played by {name} (--fallback "
            f"{agent.fallback})")


@click.command()
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
    import pandas as pd

    from solver.evaluation.run_strength import search_run
    from solver.players.agents import BOT_NAMES, AgentError

    kind_names = tuple(filter(None, map(str.strip, kinds.split(","))))
    try:
        from solver.search import SearchConfig

        SearchConfig(particles=particles, rollouts=rollouts, kinds=kind_names)
    except AgentError as e:  # click has checked the counts: a decision kind is refused
        raise click.BadParameter(str(e), param_hint="--kinds") from None
    with tqdm(total=len(opponents) or len(BOT_NAMES) + 1, desc="search", unit="opponent",
              disable=as_json, file=sys.stderr) as bar:
        def progress(name):
            bar.set_postfix_str(name)
            bar.update(1)

        def say(text):
            if not as_json:
                click.echo(f"robinwood: {text}", err=True)

        result = search_run(run_dir, opponents, rounds=rounds,
                            blueprint_rounds=blueprint_rounds, particles=particles,
                            rollouts=rollouts, kinds=kind_names, lbr_rounds=lbr_rounds,
                            seed=seed, fallback=fallback, progress=progress, say=say)
    data, searcher, frame, bounds = result.data, result.searcher, result.table, result.bounds
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
