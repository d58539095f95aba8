"""`python -m robin_des_bois balance`: the designers' balance report of Robin des Bois
(robin_des_bois.balance) as index.html, report.md, PNG figures and tables/*.csv, in the
look of the Robin Wood reports (analysis/table_report.py); `python -m robin_des_bois
audit`: the designer's audit page, the sections of `robinwood audit` where they apply
(robin_des_bois.audit_page; docs/robin-des-bois-audit.md).

    python -m robin_des_bois balance [--variant box] [--players N] [--games N]
        [--sweep-games M] [--seed S]
        [--seat-player search|thief|defender|greedy_stasher|random]
        [--out reports/robin-des-bois]
    python -m robin_des_bois audit [--variant box] [--players N] [--games 24]
        [--target "METRIC in [LO,HI]"] [--band-games 20] [--seed S] [--workers 2]
        [--resume] [--out reports/audit-robin-des-bois]

Good play by default: every seat plays the strongest player measured at the box
(balance.STRONGEST, the search); `--seat-player random` asks for uniformly random moves,
and the report then says so. Its first paragraph names the players behind the figures
and their measured strength (benchmarks/results/robin_des_bois_strength.json, written
by benchmarks/bench_robin_des_bois_players.py).

Bad input is answered as `robinwood` answers it: one line naming the option, the
problem and the fix, exit status 2 (click usage errors), every option and the output
folder checked before any game is played.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import click
import pandas as pd
from matplotlib.figure import Figure

from common.cli import OneLineErrors
from common.paths import WritableDir

from . import balance as B
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError, from_params, parse_variant
from .tables import html_table as _html, markdown_table as _markdown

STRENGTH_FILE = (Path(__file__).resolve().parents[1] / "benchmarks" / "results"
                 / "robin_des_bois_strength.json")

_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Robin des Bois: balance for designers</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}img{max-width:100%}</style></head><body>
<h1>Robin des Bois: balance for designers</h1>
<p>{{ box }} · every seat {{ players }} · generated {{ generated }} · {{ seconds }} s</p>
<p>{{ summary }}</p>
{% for note in notes %}<p><em>{{ note }}</em></p>{% endfor %}
{% for title, table in tables %}<h2>{{ title }}</h2>{{ table }}{% endfor %}
{% for fig in figures %}<figure><img src="{{ fig.file }}" alt="{{ fig.caption }}"><figcaption>{{ fig.caption }}</figcaption></figure>{% endfor %}
<p>Tables as CSV files in <code>tables/</code>. Method: {{ method }}.</p>
</body></html>
"""

_MARKDOWN = """# Robin des Bois: balance for designers

{{ box }} · every seat {{ players }} · generated {{ generated }} · {{ seconds }} s

{{ summary }}
{% for note in notes %}
*{{ note }}*
{% endfor %}
{% for title, table in tables %}
## {{ title }}

{{ table }}
{% endfor %}
{% for fig in figures %}
![{{ fig.caption }}]({{ fig.file }})
{% endfor %}
Tables as CSV files in `tables/`. Method: {{ method }}.
"""

TITLES = {"seats": "Seats (seat 0 plays first): win share, ties split, 95% interval",
          "metrics": "Rates per game, 95% intervals",
          "effects": "Effect of each parameter, one at a time around the box played "
                     "(value minus default, 95% interval; with this many comparisons a few "
                     "intervals miss zero by chance alone)",
          "sweep": "Sweep: every combination of players and copies (headline metrics)",
          "run": "This run"}


def effects_wide(eff: pd.DataFrame) -> pd.DataFrame:
    """The tidy effects as one row per parameter value, one 'delta [lo, hi]' column per
    metric (for reading; tables/effects.csv keeps the tidy form)."""
    if not len(eff):
        return eff
    cells = eff.assign(cell=[f"{d:+.3g} [{lo:+.3g}, {hi:+.3g}]"
                             for d, lo, hi in zip(eff["delta"], eff["lo"], eff["hi"])])
    wide = cells.pivot_table(index=["parameter", "value", "default"], columns="metric",
                             values="cell", aggfunc="first", sort=False)
    wide = wide[[m for m in B.HEADLINE if m in wide.columns]]
    return wide.reset_index().rename_axis(columns=None)


# ----- figures -----------------------------------------------------------------------------
def seats_figure(result: B.BalanceResult) -> Figure:
    seats = result.seats
    fig = Figure(figsize=(6.4, 3.6), layout="constrained")
    ax = fig.add_subplot()
    err = [seats["win_share"] - seats["lo"], seats["hi"] - seats["win_share"]]
    ax.bar([f"seat {s}" for s in seats["seat"]], seats["win_share"], yerr=err,
           capsize=6, color="#4c72b0")
    ax.axhline(1 / len(seats), color="#333333", linewidth=0.8, linestyle="--",
               label=f"fair share 1/{len(seats)}")
    ax.set_ylabel("win share (ties split), 95% interval")
    ax.set_ylim(0, max(0.6, float(seats["hi"].max()) * 1.15))
    ax.legend(loc="upper right")
    return fig


def effect_figure(effects: pd.DataFrame, metric: str, xlabel: str) -> Figure:
    rows = effects[effects["metric"] == metric].reset_index(drop=True)
    fig = Figure(figsize=(6.4, 0.28 * len(rows) + 1.2), layout="constrained")
    ax = fig.add_subplot()
    labels = [f"{p}={v if v else '(none)'}" for p, v in zip(rows["parameter"], rows["value"])]
    y = range(len(rows))[::-1]
    ax.errorbar(rows["delta"], list(y), xerr=[rows["delta"] - rows["lo"],
                                               rows["hi"] - rows["delta"]],
                fmt="o", color="#4c72b0", capsize=3)
    ax.axvline(0, color="#333333", linewidth=0.8)
    ax.set_yticks(list(y), labels)
    ax.set_xlabel(xlabel)
    return fig


def strength_sentence(player: str, rules: Rules, path: Path | None = None) -> str:
    """Which players produced the figures and how strong they measured: for the search,
    its seat-averaged win share against each scripted player at this box and player
    count (the strength file), or that it was not measured there; random play is
    labelled as such."""
    import json

    n = rules.players
    if player == "random":
        return (f"These figures come from uniformly random moves in every seat (random "
                f"play, asked for with --seat-player random): a baseline of the rules, "
                f"not good play; the strongest measured player is {B.STRONGEST}.")
    path = STRENGTH_FILE if path is None else path
    data = json.loads(path.read_text()) if path.exists() else None
    from .players import MonteCarloSearch

    samples = MonteCarloSearch.__init__.__defaults__[0]
    who = (f"the determinized search ({samples} re-deals a decision, the strongest player "
           f"measured)" if player == "search" else f"the scripted player {player}")
    text = f"Every seat plays {who}."
    if data is not None and data.get("samples") != samples:
        data = None                        # measured with another budget
    box = str(rules.replace(players=3))
    if player != "search" or data is None or data.get("variant") != box \
            or str(n) not in data.get("counts", {}):
        if player == "search":
            text += (f" Its strength was not measured at {box} with {n} players "
                     f"(benchmarks/bench_robin_des_bois_players.py).")
        return text
    rows = data["counts"][str(n)]
    cells = ", ".join(f"{opp} {v['share']:.3f} [{v['lo']:.3f}, {v['hi']:.3f}]"
                      for opp, v in rows.items())
    beaten = [opp for opp, v in rows.items() if v["beats"]]
    verdict = ("it beats every scripted player with 95% confidence" if len(beaten) ==
               len(rows) else f"it beats {', '.join(beaten) or 'none'} with 95% "
                              f"confidence, not "
                              f"{', '.join(o for o in rows if o not in beaten)}")
    games = next(iter(rows.values()))["games_per_seat"]
    return (text + f" Measured at this box and player count, seat-rotated against "
            f"copies of each scripted player ({games} games a seat, "
            f"{data['date']}, `{data['command']}`), its win share (ties split; fair "
            f"{1 / n:.3f}, 95% interval) is {cells}: {verdict}.")


def summary_paragraph(r: B.BalanceResult, eff: pd.DataFrame, marianne: dict,
                      rules: Rules | None = None) -> str:
    n = r.num_players
    fpa, (lo, hi) = r.value("first_player_advantage"), r.interval("first_player_advantage")
    verdict = ("a real advantage" if lo > 0 else "a real disadvantage" if hi < 0
               else "not distinguishable from zero")
    steals, unst = r.value("steals"), r.value("unstoppable")
    rules = rules if rules is not None else from_params(r.params)
    who = "random" if r.players == "random" else r.players
    text = strength_sentence(r.players, rules) + " "
    text += (f"With {who} play in every seat of a {n}-player game of `{rules}` "
             f"({r.games:,} games), "
            f"the first player's win share is {r.seats.at[0, 'win_share']:.3f} against a "
            f"fair {1 / n:.3f}: an advantage of {fpa:+.3f} [{lo:+.3f}, {hi:+.3f}], "
            f"{verdict}. Games last {r.value('mean_turns'):.1f} turns; the best score "
            f"beats the worst by {r.value('mean_spread'):.1f} points and the second best "
            f"by {r.value('mean_margin'):.1f}, and {r.value('tie_rate'):.1%} of games end "
            f"with the best score shared. A game sees {r.value('stashes'):.1f} stashes and "
            f"{steals:.1f} steals ({unst:.1f} unstoppable, "
            f"{r.value('counterable'):.1f} counterable), {r.value('counters'):.1f} "
            f"counters and {r.value('thefts'):.1f} successful thefts")
    if "marianne_protections" in set(r.metrics["metric"]):
        text += (f"; Marianne keeps her holder's treasures out of reach at "
                 f"{r.value('marianne_protections'):.1f} steals a game")
    text += "."
    if len(eff):
        f = eff[eff["metric"] == "first_player_advantage"]
        big = f.loc[f["delta"].abs().idxmax()]
        s = eff[eff["metric"] == "steals"]
        most = s.loc[s["delta"].abs().idxmax()]
        text += (f" One parameter at a time, the largest change of the first-player "
                 f"advantage comes from {big['parameter']}={big['value'] or '(none)'} "
                 f"({big['delta']:+.3f} [{big['lo']:+.3f}, {big['hi']:+.3f}]) and of the "
                 f"steal rate from {most['parameter']}={most['value'] or '(none)'} "
                 f"({most['delta']:+.2f} [{most['lo']:+.2f}, {most['hi']:+.2f}] steals a "
                 f"game).")
    return text


def report_plan(seats: int | None = None, effect_grid=None, sweep_grid=None,
                variant: "str | Rules" = "box") -> tuple[dict, dict, dict, list[str]]:
    """What a report plays, validated before any game: the base parameters (`seats`
    players, else the variant's), the effect grid (default B.EFFECT_GRID) less the
    values unplayable around that base, with a note for each one dropped (the small box
    does not deal 5 hands of 9), and the sweep grid (default B.SWEEP_GRID) less the
    values unplayable alone, noted too. Raises a one-line RulesError (a ValueError) for
    anything else that cannot be played."""
    rules = parse_variant(variant)
    if seats is not None:
        rules = rules.replace(players=seats)
    base = rules.to_params()
    grid, notes = {}, []
    kept_sweep = {}
    for name, values in (B.SWEEP_GRID if sweep_grid is None else sweep_grid).items():
        kept = []
        for value in values:
            try:
                from_params({**base, name: value})
            except RulesError as err:
                if name in base and not isinstance(values, (str, bytes)):
                    notes.append(f"{name}={value} left out of the sweep: {err}")
                    continue
                raise
            kept.append(value)
        kept_sweep[name] = kept
    sweep_grid = kept_sweep
    for name, values in (B.EFFECT_GRID if effect_grid is None else effect_grid).items():
        kept = []
        for value in values:
            try:
                from_params({**base, name: value})
            except RulesError as err:
                if name in base:  # a value the game has, but not with this base
                    notes.append(f"{name}={value} not measured in the effects at "
                                 f"{base['players']} players: {err}")
                    continue
                raise
            kept.append(value)
        if kept:
            grid[name] = kept
    B._variants(sweep_grid, base)          # every combination playable, or one line
    return base, grid, sweep_grid, notes


def write_report(out: Path, games: int, sweep_games: int, seed: int, seat_player: str,
                 effect_grid=None, sweep_grid=None, marianne_games: int | None = None,
                 seats: int | None = None, variant: "str | Rules" = "box") -> Path:
    """Run the balance (the variant, default the published box, at `seats` players,
    default its own, `seat_player` in every seat), the one-at-a-time effects and the
    sweep; write the report into `out`."""
    import jinja2
    from markupsafe import Markup

    players = seat_player
    base, effect_grid, sweep_grid, plan_notes = report_plan(seats, effect_grid, sweep_grid,
                                                            variant)
    start = time.perf_counter()
    out = Path(out)
    result = B.balance(base, games, seed, players, marianne_games=marianne_games)
    marianne = B.marianne_effect()
    eff = B.effects(effect_grid, base, sweep_games, seed, players)
    sw = B.sweep(sweep_grid, base, sweep_games, seed, players)
    seconds = time.perf_counter() - start
    out.mkdir(parents=True, exist_ok=True)
    (out / "tables").mkdir(exist_ok=True)
    run = pd.DataFrame({"fact": ["params", "seat player", "games", "effect/sweep games per "
                                 "variant", "seed", "method", "marianne on/off",
                                 "seconds", "command"],
                        "value": [str(result.params), players, result.games, sweep_games,
                                  seed, result.method, marianne["note"],
                                  f"{seconds:.1f}", " ".join(["python -m robin_des_bois"]
                                                             + sys.argv[1:])]})
    tables = {"seats": result.seats, "metrics": result.metrics, "effects": eff,
              "sweep": sw, "run": run}
    for name, frame in tables.items():
        frame.to_csv(out / "tables" / f"{name}.csv", index=False)
    shown_sweep = sw[sw["metric"].isin(B.HEADLINE)]
    shown = {"seats": result.seats, "metrics": result.metrics, "effects": effects_wide(eff),
             "sweep": shown_sweep, "run": run}
    images = []
    for key, fig, caption in (
            ("seat_win_shares", seats_figure(result),
             "Each seat's win share with its 95% interval (dashed: the fair share)"),
            ("effect_first_player_advantage",
             effect_figure(eff, "first_player_advantage",
                           "change of the first-player advantage vs the box played"),
             "Each parameter's effect on the first-player advantage (95% interval)"),
            ("effect_steals", effect_figure(eff, "steals",
                                            "change of steals per game vs the box played"),
             "Each parameter's effect on the steal rate (95% interval)")):
        fig.savefig(out / f"{key}.png", dpi=110)
        images.append({"file": f"{key}.png", "caption": caption})
    box = ", ".join(f"{k}={v}" for k, v in from_params(result.params).contents().items())
    context = {"box": box, "players": players, "generated": time.strftime("%Y-%m-%d %H:%M"),
               "seconds": f"{seconds:.0f}",
               "summary": summary_paragraph(result, eff, marianne, from_params(base)),
               "notes": result.notes + plan_notes + [marianne["note"]], "figures": images,
               "method": result.method + f"; effects and sweep: {sweep_games:,} games per "
                                         f"variant" + (", Marianne not counted there"
                                                       if players == "random" else "")}
    html = jinja2.Environment(autoescape=True).from_string(_HTML).render(
        **context, tables=[(TITLES[k], Markup(_html(v))) for k, v in shown.items()])
    (out / "index.html").write_text(html, encoding="utf-8")
    md = jinja2.Environment(autoescape=False, keep_trailing_newline=True).from_string(
        _MARKDOWN).render(**context, tables=[(TITLES[k], _markdown(v))
                                             for k, v in shown.items()])
    (out / "report.md").write_text(re.sub(r"\n{3,}", "\n\n", md), encoding="utf-8")
    return out / "index.html"


PROG = "python -m robin_des_bois"


class _Group(OneLineErrors):
    """Every user error as one line, "python -m robin_des_bois: error: ...", and exit
    status 2, as robinwood answers (common.cli)."""

    prog = PROG


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Robin des Bois tools."""


def _seat_player(ctx, param, value):
    """The player kind in every seat, one of robin_des_bois's (checked when parsed, so
    a typo is a usage error; the player module is imported only then)."""
    from .players import SCRIPTED

    names = list(SCRIPTED) + ["search"]
    if value not in names:
        raise click.BadParameter(f"unknown player kind {value!r}: use one of "
                                 f"{', '.join(names)}")
    return value


def _variant(ctx, param, value):
    """The box played, `BOX[:option=value,...]` (rules.parse_variant)."""
    try:
        return parse_variant(value)
    except RulesError as err:
        raise click.BadParameter(str(err)) from None


class Seats(click.ParamType):
    """How many players sit at the table: a whole number in the rules' range over every
    box (rules.MIN_PLAYERS..MAX_PLAYERS); the command checks it against the variant."""

    name = "N"

    def convert(self, value, param, ctx):
        span = f"{MIN_PLAYERS} to {MAX_PLAYERS}"
        try:
            seats = int(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a number of players: give a whole number from "
                      f"{span}", param, ctx)
        if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            self.fail(f"{seats} players: Robin des Bois is played by {span} players; "
                      f"give a number from {span}", param, ctx)
        return seats


GAMES = click.IntRange(2, B.MAX_GAMES)


@cli.command("balance")
@click.option("--variant", default="box", show_default=True, callback=_variant,
              help="The box played: box (the published game), small (the reduced box), "
                   "or either with options, e.g. box:gold_order=low.")
@click.option("--players", "seats", type=Seats(), default=None,
              help=f"Players at the table, {MIN_PLAYERS} to {MAX_PLAYERS} as the box "
                   f"allows (the published box: 3 to 6; default 3).")
@click.option("--seat-player", default=B.STRONGEST, show_default=True,
              callback=_seat_player,
              help="The player kind in every seat: search (the strongest measured), "
                   "thief, defender, greedy_stasher, or random (random moves, labelled "
                   "so in the report).")
@click.option("--games", type=GAMES, default=None,
              help="games for the seat and rate tables (default 200 search, 1000 "
                   "scripted, 100000 random)")
@click.option("--sweep-games", type=GAMES, default=None,
              help="games per variant in the effects and the sweep (default 40 search, "
                   "200 scripted, 20000 random)")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=0, show_default=True)
@click.option("--out", type=WritableDir(), default="reports/robin-des-bois",
              show_default=True, help="Output folder (created if missing).")
def balance_command(variant, seats, seat_player, games, sweep_games, seed, out) -> None:
    """Write the designers' balance report (index.html, report.md, PNGs, tables/)."""
    if seats is not None:
        try:
            variant.replace(players=seats)
        except RulesError as err:
            raise click.BadParameter(str(err), param_hint="'--players'") from None
    kind = "random" if seat_player == "random" else (
        "search" if seat_player == "search" else "scripted")
    games = games if games is not None else {"search": 200, "scripted": 1000,
                                             "random": 100_000}[kind]
    sweep_games = sweep_games if sweep_games is not None else {
        "search": 40, "scripted": 200, "random": 20_000}[kind]
    start = time.perf_counter()
    path = write_report(Path(out), games, sweep_games, seed, seat_player, seats=seats,
                        variant=variant)
    click.echo(f"wrote {path} in {time.perf_counter() - start:.1f} s")


def _target(ctx, param, value):
    """`METRIC in [LO,HI]` with a balance metric (audit_band.parse_target)."""
    if value is None:
        return None
    from .audit_band import parse_target

    try:
        return parse_target(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


@cli.command("audit")
@click.option("--variant", default="box", show_default=True, callback=_variant,
              help="The box audited, e.g. box, box:players=4, small.")
@click.option("--players", "seats", type=Seats(), default=None,
              help="Players at the table (default the variant's: 3 at the box).")
@click.option("--player", default=B.STRONGEST, show_default=True, callback=_seat_player,
              help="The player in every seat of the seats, restricted-play and band "
                   "sections: search (the strongest measured) or a scripted one.")
@click.option("--games", type=click.IntRange(4, B.MAX_GAMES), default=24,
              show_default=True,
              help="Games with the search in every seat for the seats section; the "
                   "other sections scale with it (audit.plan).")
@click.option("--target", default=None, callback=_target,
              help="A band, 'METRIC in [LO,HI]' (a balance metric, e.g. "
                   "'first_player_advantage in [-0.02,0.02]'): searches single changes of "
                   "the box parameters, then pairs of the best.")
@click.option("--band-games", type=click.IntRange(2, B.MAX_GAMES), default=20,
              show_default=True, help="Games per variant in the band search.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Processes playing games at once.")
@click.option("--resume", is_flag=True,
              help="Reuse the sections already in --out with the same settings.")
@click.option("--out", type=WritableDir(), default="reports/audit-robin-des-bois",
              show_default=True, help="Output folder (created if missing).")
def audit_command(variant, seats, player, games, target, band_games, seed, workers, resume,
                  out) -> None:
    """Write the designer's audit page (seats, skill ladder, what each mechanic is
    worth, and with --target the band search) into --out."""
    from .audit_page import run_audit

    if seats is not None:
        try:
            variant = variant.replace(players=seats)
        except RulesError as err:
            raise click.BadParameter(str(err), param_hint="'--players'") from None
    start = time.perf_counter()

    def say(line: str) -> None:
        click.echo(f"[{time.perf_counter() - start:7.1f} s] {line}", err=True)

    path = run_audit(variant, Path(out), games=games, seed=seed, workers=workers,
                     target=target, band_games=band_games, resume=resume, player=player,
                     say=say)
    click.echo(f"wrote {path} in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    cli(prog_name=PROG)
