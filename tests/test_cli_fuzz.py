"""Random values and strings thrown at every subcommand's options and at variant
strings (hypothesis, derandomized: the same examples every run). The only outcomes
allowed: success, or one line `robinwood: error: ...` with exit status 2; never a
traceback, never a value silently replaced by another.

Work stays tiny: values that would be accepted for the options that size the work
(rounds, iterations, seconds, turn cap) are drawn small, and the jobs behind `sweep`,
`report`, `explore` and `play` are replaced by recorders (their options are checked
before the job starts, which is what is tested here)."""

from __future__ import annotations

import json
import math
import string

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

import game_def
from game_def import VariantError
from game_def.variant import parse
from robinwood.cli import cli
from robinwood.options import MAX_COUNT, MAX_MINUTES, MAX_SECONDS

FUZZ = settings(max_examples=12, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

# ----- values ----------------------------------------------------------------------------
words = st.text(alphabet=string.ascii_letters + string.digits + " :,=+-._/", max_size=12)
junk = st.one_of(words, st.just(""), st.just(" "), st.sampled_from(
    ["nan", "inf", "-inf", "1e400", "0x10", "1,5", "true", "-0", "٣", "1_000"]))
# For the options that size the work: nothing here parses as a number that is accepted
# (a stray "99" minutes would be a real job).
not_a_number = st.one_of(
    st.text(alphabet=string.ascii_letters + " :,=+-._/", max_size=12), st.sampled_from(
        ["", " ", "nan", "inf", "-inf", "1e400", "0x10", "1,5", "true", "-0", "--"]))
huge_int = st.one_of(st.integers(max_value=0), st.integers(min_value=MAX_COUNT + 1,
                                                           max_value=10**30))
any_float = st.floats(allow_nan=True, allow_infinity=True).map(repr)


def small_or_bad_int(lo, hi):
    """Accepted values from a small range (tiny work), or bad ones of every kind."""
    return st.one_of(st.integers(lo, hi).map(str), huge_int.map(str),
                     st.integers(-10**20, lo - 1).map(str), not_a_number)


def small_or_bad_float(lo, hi, cap):
    """Accepted values from [lo, hi] (tiny work), or refused ones: not positive, not
    finite, or past the option's cap."""
    return st.one_of(st.floats(lo, hi).map(repr), st.floats(max_value=0).map(repr),
                     st.floats(min_value=cap * 1.01, allow_infinity=True).map(repr),
                     st.just("nan"), not_a_number)


def any_value():
    return st.one_of(st.integers(-10**25, 10**25).map(str), any_float, junk)


# Values for options that size the work: accepted ones stay tiny.
WORK = {
    "--rounds": small_or_bad_int(1, 20), "--matches": small_or_bad_int(1, 10),
    # the local best response compiles and runs for minutes: only 0 (skip it) is accepted
    "--lbr-rounds": small_or_bad_int(0, 0), "--max-turns": small_or_bad_int(1, 2),
    # exploit's replay of its strongest opponent: a huge count would be real work
    "--holdout-rounds": small_or_bad_int(1, 20),
    "--seconds": small_or_bad_float(0.01, 0.3, MAX_SECONDS),
    "--minutes": small_or_bad_float(1e-4, 3e-3, MAX_MINUTES),
    "--mccfr-seconds": small_or_bad_float(0.01, 0.3, MAX_SECONDS),
    "--mccfr-iterations": small_or_bad_int(1, 3),
    # threads and work units of a Monte Carlo CFR batch (sweep's --workers too)
    "--workers": small_or_bad_int(1, 4), "--chunks": small_or_bad_int(1, 4),
}
# Decks named on purpose: the big ones would be real work, unnamed ones are refused.
DECKS = st.one_of(st.sampled_from(["rspx", "Robin+Sheriff+Peasant+Traitor", "standrd",
                                   "rspx+Monk", "", "+", "Robin"]), words)


def value_for(option: str, command: str):
    if option == "--iterations":
        return (small_or_bad_int(1, 1) if command == "solve-mccfr" else
                small_or_bad_int(1, 3))
    if option == "--deck":
        return DECKS
    if option == "--variant":
        return VARIANT_TEXT
    return WORK.get(option, any_value())


# ----- variant strings -------------------------------------------------------------------
KEYS = ["players", "teams", "strikes", "max_turns", "first_player", "challenge_order",
        "traitor_strikes_on_reveal", "layout", "deck", "colour", "", "max turns"]
VALUES = st.one_of(st.sampled_from(["1", "2", "3", "4", "0", "-1", "true", "false", "yes",
                                    "random", "clockwise", "Robin+Sheriff+Peasant+Traitor",
                                    "Sheriff+Robin+Traitor+Peasant", "1e3", "99999999999999999999",
                                    ""]), words)
ITEMS = st.tuples(st.sampled_from(KEYS), st.sampled_from(["=", "", "=="]), VALUES).map(
    lambda t: "".join(t))
VARIANT_TEXT = st.tuples(
    st.sampled_from(["rspx", "rspmx", "standard", "team", "duel6", "", " ", "RSPX",
                     "Robin+Sheriff+Peasant+Traitor", "standrd", "Robin++Traitor"]),
    st.sampled_from([":", "", "::", ": "]),
    st.lists(ITEMS, max_size=4)).map(lambda t: t[0] + t[1] + ",".join(t[2]))

INT_OPTIONS = ("players", "strikes", "max_turns", "first_player")


def _given_options(text: str) -> dict:
    _, _, tail = text.strip().partition(":")
    return dict(item.partition("=")[::2] for item in
                filter(None, (s.strip() for s in tail.split(","))))


@FUZZ
@given(VARIANT_TEXT)
def test_variant_strings_parse_or_say_why(text):
    """A variant string gives a Variant that means what was written, or a VariantError;
    nothing else escapes, and nothing is silently replaced."""
    try:
        variant = parse(text)
    except VariantError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert parse(str(variant)) == variant
    head = text.strip().partition(":")[0].strip()
    options = _given_options(text)
    assert head or options.get("layout", "").strip(), "no deck named, yet a variant came out"
    for key, value in options.items():
        key, value = key.strip(), value.strip()
        if key in INT_OPTIONS:
            assert getattr(variant, key) == int(value), (key, value, variant)
        if key == "challenge_order":
            assert variant.challenge_order == value.lower()


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(VARIANT_TEXT)
def test_variant_strings_fail_the_same_way_in_load_game(text):
    try:
        expected = parse(text)
    except VariantError as e:
        with pytest.raises(VariantError) as err:
            game_def.load_game(text)
        assert str(err.value) == str(e)
        return
    assert game_def.load_game(text).variant == expected


# ----- every subcommand's options -------------------------------------------------------------
def _options(command_name: str) -> list[str]:
    command = cli.commands[command_name]
    return [opt.opts[0] for opt in command.params
            if opt.param_type_name == "option" and not opt.is_flag
            and opt.opts[0] not in ("--help", "--out")]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A tiny exact run and a tiny Monte Carlo CFR run to point commands at."""
    root = tmp_path_factory.mktemp("fuzz-runs")
    for name, extra in (("exact", ["--iterations", "2"]),
                        ("mccfr", ["--algo", "mccfr", "--iterations", "200", "--workers",
                                   "1"])):
        result = CliRunner().invoke(cli, ["solve", "--deck", "rspx", "--max-turns", "2",
                                          *extra, "--out", str(root / name)])
        assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def stubbed(monkeypatch):
    """The long jobs behind sweep, report, explore and play, replaced by recorders."""
    import analysis.report
    import explorer.app
    import explorer.terminal
    import sweep.run

    calls = []

    class Result:
        table_path, report, failed = "table.csv", None, []

    def record(result=None):
        return lambda *a, **k: calls.append((a, k)) or result

    monkeypatch.setattr(sweep.run, "run_sweep", record(Result()))
    monkeypatch.setattr(analysis.report, "write_report", record(__import__("pathlib").Path(
        "index.html")))
    monkeypatch.setattr(explorer.app, "serve", record())
    monkeypatch.setattr(explorer.terminal, "play_in_terminal", record())
    return calls


def check(result, args):
    """Success, or one error line and exit status 2; never a traceback."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {type(result.exception).__name__}: "
                             f"{result.exception}") from result.exception
    assert "Traceback" not in result.output, (args, result.output)
    if result.exit_code == 0:
        return True
    errors = [line for line in result.output.splitlines()
              if line.startswith("robinwood: error: ")]
    assert result.exit_code == 2, (args, result.exit_code, result.output)
    assert len(errors) == 1, (args, result.output)
    return False


def bases(runs, tmp_path):
    out = str(tmp_path / "out")
    return {
        "simulate": (["simulate", "--deck", "rspx", "--rounds", "5"], "simulate"),
        "solve": (["solve", "--deck", "rspx", "--max-turns", "2", "--iterations", "2",
                   "--out", out], "solve"),
        "solve-mccfr": (["solve", "--deck", "rspx", "--max-turns", "2", "--algo", "mccfr",
                         "--iterations", "200", "--workers", "1", "--out", out], "solve"),
        "tournament": (["tournament", "honest", "paranoid", "--deck", "rspx", "--rounds",
                        "10"], "tournament"),
        "league": (["league", "honest", "silent", "--deck", "rspx", "--rounds", "5"],
                   "league"),
        "exploit": (["exploit", str(runs / "mccfr"), "--rounds", "10", "--lbr-rounds", "0"],
                    "exploit"),
        "leaks": (["leaks", str(runs / "mccfr"), "--rounds", "2"], "leaks"),
        "report": (["report", str(runs / "exact"), "--out", out], "report"),
        "stats": (["stats", str(runs / "exact")], "stats"),
        "sweep": (["sweep", "--grid", "strikes=1,2", "--base", "rspx:max_turns=2",
                   "--out", out], "sweep"),
        "explore": (["explore", str(runs / "exact")], "explore"),
        "play": (["play", str(runs / "exact")], "play"),
    }


# `stats` takes no option but --json: its run directory is checked by test_cli_input.
COMMANDS = ["simulate", "solve", "solve-mccfr", "tournament", "league", "exploit", "leaks",
            "report", "sweep", "explore", "play"]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_takes_any_value_without_a_traceback(name, runs, stubbed, tmp_path):
    base, command = bases(runs, tmp_path)[name]
    options = _options(command)
    assert options

    @FUZZ
    @given(st.data())
    def one(data):
        option = data.draw(st.sampled_from(options), label="option")
        value = data.draw(value_for(option, name), label="value")
        args = base + [option, value]
        import shutil

        shutil.rmtree(tmp_path / "out", ignore_errors=True)
        result = CliRunner().invoke(cli, args)
        if check(result, args) and name == "simulate" and option in ("--seed", "--rounds"):
            # nothing substituted: what ran is what was asked
            first = result.output.splitlines()[0]
            assert (f"seed {int(value)}" if option == "--seed"
                    else f"{int(value)} random rounds") in first, (args, first)

    one()


@FUZZ
@given(VARIANT_TEXT)
def test_variant_strings_on_the_command_line(text):
    args = ["simulate", "--variant", text, "--rounds", "3", "--json"]
    result = CliRunner().invoke(cli, args)
    if check(result, args):
        ran = json.loads(result.output)["variant"]
        assert parse(ran) == parse(text)
