"""The Robin des Bois audit (robin_des_bois.audit, restrict, audit_band, audit_page and
`python -m robin_des_bois audit`): each figure against an independent computation, on
synthetic tables with known values or on a few games of scripted players (fast). Each
test names the planted bug it catches; each was planted once and seen to fail."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from robin_des_bois import actions as A
from robin_des_bois import audit as AU
from robin_des_bois import audit_band as AB
from robin_des_bois.balance import METRICS, play_counted
from robin_des_bois.restrict import RESTRICTIONS, Restricted, SpecError, make
from robin_des_bois.rules import from_params

COUNTS = ("take_one", "take_two", "stashes", "gold_taken", "steals", "unstoppable",
          "counterable", "counters", "thefts", "marianne_protections", "safe_triples",
          "hand_limit_discards", "turns", "lead_changes")


def _games(scores, lead_taken=None, turns=10) -> dict[str, np.ndarray]:
    """A play_counted-shaped result with the given final scores and zero counts."""
    scores = np.asarray(scores, dtype=np.int64)
    d = {c: np.zeros(len(scores), dtype=np.int64) for c in COUNTS}
    d["scores"] = scores
    d["turns"] = np.full(len(scores), turns)
    d["lead_taken"] = (np.zeros(len(scores), dtype=np.int64) if lead_taken is None
                       else np.asarray(lead_taken))
    return d


# ----- seats ---------------------------------------------------------------------------------
def test_seat_shares_against_the_fair_share_on_a_known_table():
    """Synthetic 3-seat table: seat 0 best alone in 6 games of 12, seat 1 in 3, seat 2
    in 1, and 2 games all tied (1/3 each): shares 6.667/12, 3.667/12, 1.667/12, each
    minus 1/3. Planted bug caught: the fair share taken as 1/2 (Robin Wood's), or a
    three-way tie counted as nobody's win."""
    rows = [[9, 1, 1]] * 6 + [[1, 9, 1]] * 3 + [[1, 1, 9]] + [[5, 5, 5]] * 2
    seats, metrics = AU.seat_tables(_games(rows, lead_taken=[5] * 10 + [0, 0]))
    want = np.array([6 + 2 / 3, 3 + 2 / 3, 1 + 2 / 3]) / 12
    assert np.allclose(seats["win_share"], want)
    assert np.allclose(seats["win_share_minus_fair"], want - 1 / 3)
    m = metrics.set_index("metric")["value"]
    assert m["starter_edge"] == pytest.approx(want[0] - 1 / 3)
    assert m["drawishness"] == pytest.approx(2 / 12)
    assert m["balance_gap"] == pytest.approx(5 / 12)
    assert m["decisiveness"] == pytest.approx(0.5)      # lead taken at turn 5 of 10


def test_best_of_three_against_enumeration():
    """Two seats, seat 0 winning 60% of games: a best-of-3 is p^3 + 3 p^2 (1-p) =
    0.648 (binomial). Three seats with ties: against a brute-force enumeration of every
    triple of games. Planted bug caught: the match won by the most wins without the
    ties split (0 shares where totals tie), or the seat index swapped."""
    two = np.array([[1.0, 0.0]] * 6 + [[0.0, 1.0]] * 4)
    assert AU.best_of_three(two) == pytest.approx(0.648)
    three = np.array([[1, 0, 0], [0, 1, 0], [0.5, 0.5, 0], [1 / 3] * 3, [1, 0, 0]])
    want = 0.0
    for a, b, c in itertools.product(range(len(three)), repeat=3):
        total = three[a] + three[b] + three[c]
        best = [s for s in range(3) if abs(total[s] - total.max()) < 1e-9]
        want += (1 / len(best) if 0 in best else 0.0) / len(three) ** 3
    assert AU.best_of_three(three) == pytest.approx(want)


def test_lead_figures_against_a_recount_from_the_players_views():
    """play_counted's lead_taken and lead_changes against a recount from the score every
    player sees before each decision (View.score, not the core's score kernel) and the
    take decisions as turns. Planted bug caught: a lead passing through a tie not
    counted as a change, or the lead's turn not reset when a tie breaks it."""
    rules = from_params({})
    seen: list[list] = []

    def recording(spec, seed=0):
        inner = make(spec, seed=seed)

        def player(view):
            if not seen or seen[-1][0] != seed // 7:
                seen.append([seed // 7, [], 0])
            game = seen[-1]
            game[1].append((game[2], [view.score(p) for p in range(rules.players)]))
            game[2] += view.phase == "take"
            return inner(view)
        return player

    d = play_counted(rules, ["thief", "defender", "random"], 3, 5, make=recording)
    for g, (_, points, takes) in enumerate(seen):
        points = points[1:] + [(takes, list(d["scores"][g]))]
        leader, last, since, changes = -1, -1, 0, 0
        for turn, score in points:
            top = max(score)
            who = score.index(top) if score.count(top) == 1 else -1
            if who != leader:
                since = turn
                changes += who >= 0 and last >= 0 and who != last
                leader, last = who, who if who >= 0 else last
        assert d["lead_changes"][g] == changes
        assert d["lead_taken"][g] == (max(since, 1) if leader >= 0 else 0)
        assert d["turns"][g] == takes


# ----- restrictions --------------------------------------------------------------------------
class _Greedy:
    """Always plays an action of `kind` when one is legal (an adversary for the
    wrapper), else as the thief (who makes sets and steals, so that steals and
    counters come up)."""

    def __init__(self, kind, seed):
        self.kind, self.fallback = kind, make("thief", seed=seed)

    def __call__(self, view):
        wanted = [a for a in view.legal if view.layout.kind_of[a] == self.kind]
        return wanted[0] if wanted else self.fallback(view)


@pytest.mark.parametrize("name", list(RESTRICTIONS))
def test_restricted_player_never_plays_the_forbidden_kind_when_it_has_another(name):
    """Every seat a restricted player whose inner player always wants the forbidden
    kind: over whole games, a forbidden action is played only when every legal action
    was forbidden, and the wrapper bound at least once. Planted bug caught: filtering
    on the action id instead of its kind, or passing the full legal list through."""
    restriction = RESTRICTIONS[name]
    rules = from_params({})
    seats = []
    forced = played = 0

    def factory(spec, seed=0):
        wrapped = Restricted(_Greedy(restriction.kinds[0], seed), restriction)
        seats.append(wrapped)

        def player(view):
            nonlocal forced, played
            action = wrapped(view)
            if view.layout.kind_of[action] in restriction.kinds:
                played += 1
                forced += all(view.layout.kind_of[a] in restriction.kinds
                              for a in view.legal)
            return action
        return player

    play_counted(rules, ["x"] * rules.players, 2, 11, make=factory)
    assert played == forced
    assert sum(s.bound for s in seats) > 0


def test_restricted_specs():
    """`search/never_steal` names a restricted search; an unknown restriction is a
    one-line error naming the choices. Planted bug caught: the spec's restriction
    ignored (a free player returned)."""
    player = make("thief/never_counter", seed=1)
    assert isinstance(player, Restricted) and player.restriction.kinds == (A.COUNTER,)
    with pytest.raises(SpecError, match="never_steal, never_counter"):
        make("thief/never_win")


# ----- the skill ladder ----------------------------------------------------------------------
def test_ladder_reads_the_row_players_seat_and_the_diagonal_is_fair():
    """A small ladder (random and thief, 20 games a seat): the thief against random
    copies wins well over 1/3 and random against thieves well under it, and each
    player against copies of itself holds 1/3 within its interval. Planted bug caught:
    the row's share read from seat 0 whatever seat it sat in (random's row against
    thieves then reads a thief's share, over 1/3)."""
    rules = from_params({})
    sizes = {"ladder_search": 2, "ladder_scripted": 20}
    ladder = AU.ladder_section(rules, ("random", "thief"), sizes, seed=3).set_index(
        ["row", "column"])
    assert ladder.at[("thief", "random"), "lo"] > 1 / 3
    assert ladder.at[("random", "thief"), "hi"] < 1 / 3
    for p in ("random", "thief"):
        assert ladder.at[(p, p), "lo"] <= 1 / 3 <= ladder.at[(p, p), "hi"]
    assert (ladder["games"] == 60).all()


def test_skill_pays_on_a_known_matrix():
    """A synthetic 3-player ladder: a beats b and c, b beats c. Planted bug caught: the
    diagonal counted in a player's strength, or the median taken from the wrong end."""
    shares = {("a", "b"): .6, ("a", "c"): .8, ("b", "a"): .2, ("b", "c"): .5,
              ("c", "a"): .1, ("c", "b"): .3}
    rows = [{"row": r, "column": c, "win_share": shares.get((r, c), 1 / 3),
             "lo": shares.get((r, c), 1 / 3) - .05, "hi": shares.get((r, c), 1 / 3) + .05,
             "fair_share": 1 / 3} for r in "abc" for c in "abc"]
    pays = AU.skill_pays(pd.DataFrame(rows))
    assert list(pays["strength"].index) == ["a", "b", "c"]
    assert pays["strength"]["b"] == pytest.approx(0.35)
    assert (pays["weakest"], pays["median"]) == ("c", "b")
    assert pays["over_weakest"][0] == pytest.approx(0.8 - 1 / 3)
    assert pays["over_median"][0] == pytest.approx(0.6 - 1 / 3)


def test_same_seed_same_games_other_seed_other_games():
    """Reproducible from the seed, and each section/cell on its own stream. Planted bug
    caught: job_seed ignoring the key (every cell the same games)."""
    rules = from_params({})
    a = AU.seats_section(rules, 4, 7, player="thief")[2]["scores"]
    b = AU.seats_section(rules, 4, 7, player="thief")[2]["scores"]
    c = AU.seats_section(rules, 4, 8, player="thief")[2]["scores"]
    assert (a == b).all() and not (a == c).all()
    assert AU.job_seed(0, "ladder", "a", "b", 0) != AU.job_seed(0, "ladder", "b", "a", 0)


# ----- the band search -----------------------------------------------------------------------
def _tidy(values: dict[str, tuple[int, float]]) -> pd.DataFrame:
    rows = []
    for variant, (changes, v) in values.items():
        for m in METRICS:
            x = v if m == "first_player_advantage" else 1.0
            rows.append({"variant": variant, "changes": changes, "metric": m,
                         "value": x, "lo": x - .01, "hi": x + .01})
    return pd.DataFrame(rows)


def test_band_meeting_and_pairs_on_a_known_grid():
    """Synthetic values of first_player_advantage: the band [-0.02, 0.02] holds two
    (the single change first, then the pair); the others follow by distance; the
    pairs combine the three nearest of distinct parameters. Planted bug caught: the
    distance's sign flipped (values above the band sorted as inside), or two values
    of the same parameter paired."""
    target = AB.parse_target("first_player_advantage in [-0.02,0.02]")
    tidy = _tidy({"players=4": (1, 0.10), "copies=3": (1, 0.01), "copies=5": (1, 0.05),
                  "end=pile": (1, -0.03), "gold=none": (1, -0.2),
                  "copies=3,end=pile": (2, 0.0)})
    found = AB.meeting(tidy, target)
    assert list(found["variant"]) == ["copies=3", "copies=3,end=pile", "end=pile",
                                      "copies=5", "players=4", "gold=none"]
    assert list(found["in_band"]) == [True, True, False, False, False, False]
    assert found["distance"].tolist()[2:] == pytest.approx([0.01, 0.03, 0.08, 0.18])
    singles = found[found["changes"] == 1]
    changes = [{"players": 4}, {"copies": 3}, {"copies": 5}, {"end": "pile"},
               {"gold": "none"}]
    pairs = AB.best_pairs(singles, changes)
    assert pairs == [{"copies": 3, "end": "pile"}, {"copies": 3, "players": 4},
                     {"end": "pile", "players": 4}]


def test_single_changes_are_valid_and_each_changes_one_thing():
    """Every candidate is accepted by the rules and differs from the box. Planted bug
    caught: an invalid change (7 players) kept, or the base itself listed."""
    rules = from_params({})
    changes = AB.single_changes(rules)
    assert {"players": 4} in changes and {"end": "pile"} in changes
    assert {"players": 2} not in changes          # the published box seats 3 to 6
    for change in changes:
        assert len(change) == 1 and rules.replace(**change) != rules


@pytest.mark.parametrize("text, message", [
    ("first_player_advantage in [0.1,-0.1]", "is empty"),
    ("fairness in [0,1]", "not a balance metric"),
    ("first_player_advantage = 0", "is not 'METRIC in"),
])
def test_bad_targets_are_one_line(text, message):
    """Planted bug caught: an empty band accepted (nothing could ever meet it)."""
    with pytest.raises(ValueError, match=message) as e:
        AB.parse_target(text)
    assert "\n" not in str(e.value)


# ----- the page and the command --------------------------------------------------------------
def test_page_then_resume_plays_nothing(tmp_path, monkeypatch):
    """A small audit with scripted players writes every file; run again with resume
    and the same settings, no game is played and the page is the same; with another
    seed the sections are measured again. Planted bug caught: resume reusing a
    section measured with other settings."""
    from robin_des_bois.audit_page import run_audit

    rules = from_params({})
    kw = dict(games=4, seed=1, workers=1, players=("random", "thief"), player="thief")
    run_audit(rules, tmp_path, **kw)
    for name in ("index.html", "report.md", "seats.csv", "seat_metrics.csv",
                 "skill_ladder.csv", "restricted_play.csv", "strength.csv",
                 "skill_ladder.png", "audit.json"):
        assert (tmp_path / name).exists(), name
    before = (tmp_path / "restricted_play.csv").read_text()
    screen = json.loads((tmp_path / "audit.json").read_text())["first_screen"]
    assert len(screen) == 4 and "thief" in screen[0]

    def refuse(*args, **kwargs):
        raise AssertionError("played games while resuming")
    monkeypatch.setattr(AU, "run_jobs", refuse)
    run_audit(rules, tmp_path, resume=True, **kw)
    assert (tmp_path / "restricted_play.csv").read_text() == before
    with pytest.raises(AssertionError, match="played games"):
        run_audit(rules, tmp_path, resume=True, **{**kw, "seed": 2})


@pytest.mark.parametrize("args, message", [
    (["--games", "2"], "--games"),
    (["--target", "nope"], "is not 'METRIC in"),
    (["--player", "oracle"], "unknown player kind"),
    (["--variant", "box:players=9"], "players"),
])
def test_cli_bad_input_is_one_line_exit_2(args, message, tmp_path):
    """Every option checked before any game: one line, exit status 2. Planted bug
    caught: the --player check dropped (an unknown player then fails in a worker
    process after the output folder is made, not as a usage error naming the kinds)."""
    from robin_des_bois.__main__ import cli

    result = CliRunner().invoke(cli, ["audit", *args, "--out", str(tmp_path)],
                                prog_name="python -m robin_des_bois",
                                standalone_mode=True)
    assert result.exit_code == 2
    assert message in result.output
