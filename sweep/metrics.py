"""The metrics a sweep compares across variants, as tidy rows (metric, value, lo, hi),
from a profile's statistics (analysis.ProfileStatistics, exact or sampled) or from a
random-play simulation (game_def.simulate). Intervals are 95%; NaN when exact.
"""

from __future__ import annotations

import math

import numpy as np

from game_def.simulate import SimulationResult, wilson_interval

Z95 = 1.959964
NAN = float("nan")

# In reading order; the report's figures and the 'value of a rule' use these names.
METRICS = {
    "first_player_value": "value a round for the player who starts (+1 win, -1 loss); "
                          "two sides only",
    "first_player_win_rate": "P(the player who starts, or their team, wins the round)",
    "starter_edge": "the starter's (or their team's) win share minus the fair share: a "
                    "draw counts 1/N of a win (1/2 a team), the fair share is 1/N (1/2 "
                    "a team); 0 is a fair seat at any table size",
    "starter_match_win": "P(the player who starts a best-of-3 match wins it); two "
                         "players, solved",
    "bluff_rate": "P(the announced character is not the peeked card | an announcement)",
    "challenge_rate": "P(an announcement is challenged)",
    "challenge_right_rate": "P(the claim was a bluff | challenged)",
    "mean_turns": "turns a round lasts, on average",
    "turn_cap_rate": "P(the round reaches the turn cap): a draw",
}


def _row(metric: str, value: float, lo: float = NAN, hi: float = NAN) -> dict:
    return {"metric": metric, "value": float(value), "lo": float(lo), "hi": float(hi)}


def fair_share(players: int, teams: bool) -> float:
    """A seat's fair share of wins: 1/N, 1/2 for a team."""
    return 0.5 if teams else 1.0 / players


def _edge(wins: float, lo: float, hi: float, draws: float, fair: float) -> dict:
    """starter_edge from the starter's win rate (its interval, shifted by the draws'
    share; NaN when exact) and the draw (turn-cap) rate."""
    shift = fair * draws - fair
    return _row("starter_edge", wins + shift, lo + shift, hi + shift)


def with_starter_edge(table, parse):
    """A sweep table with starter_edge rows for the finished variants that lack them
    (tables written before 2026-12-06), from each variant's first_player_win_rate and
    turn_cap_rate rows and its table size (parse(variant text))."""
    import pandas as pd

    if table.empty or "metric" not in table:
        return table
    have = set(table.loc[table["metric"] == "starter_edge", "variant"])
    added = []
    for variant, rows in table[table["status"] == "done"].groupby("variant", sort=False):
        if variant in have:
            continue
        by = rows.set_index("metric")
        if "first_player_win_rate" not in by.index or "turn_cap_rate" not in by.index:
            continue
        v = parse(variant)
        win = by.loc["first_player_win_rate"]
        edge = _edge(win["value"], win["lo"], win["hi"], by.at["turn_cap_rate", "value"],
                     fair_share(v.players, v.teams))
        row = win.copy()
        for key in ("value", "lo", "hi"):
            row[key] = edge[key]
        row["metric"] = "starter_edge"
        added.append(row)
    if not added:
        return table
    return pd.concat([table, pd.DataFrame(added)[table.columns]], ignore_index=True)


def _mean_interval(length: np.ndarray, n: int | None) -> tuple[float, float, float]:
    """Mean of a length distribution (probabilities or counts) and, over n sampled
    rounds, its normal 95% interval."""
    p = length / length.sum()
    t = np.arange(len(p))
    mean = float((t * p).sum())
    if n is None:
        return mean, NAN, NAN
    half = Z95 * math.sqrt(max(float((t * t * p).sum()) - mean * mean, 0.0) / n)
    return mean, mean - half, mean + half


def from_profile(stats) -> list[dict]:
    """Rows for a two-player profile (both seats following it)."""
    n = stats.rounds_sampled
    first = stats.variant.first_player
    out = stats.outcomes().iloc[0]
    rows = []
    sign = 1 if first == 0 else -1
    value = sign * out["seat0_value"]
    if n is None:
        rows.append(_row("first_player_value", value))
        rows.append(_row("first_player_win_rate", out[f"seat{first}_wins"]))
    else:
        lo, hi = sorted((sign * out["seat0_value_lo"], sign * out["seat0_value_hi"]))
        rows.append(_row("first_player_value", value, lo, hi))
        rows.append(_row("first_player_win_rate", out[f"seat{first}_wins"],
                         out[f"seat{first}_wins_lo"], out[f"seat{first}_wins_hi"]))
    wins = out[f"seat{first}_wins"]
    if n is None:
        rows.append(_edge(wins, NAN, NAN, out["turn_cap_rate"], 0.5))
    else:
        rows.append(_edge(wins, out[f"seat{first}_wins_lo"], out[f"seat{first}_wins_hi"],
                          out["turn_cap_rate"], 0.5))
    match = stats.match().iloc[0]
    rows.append(_row("starter_match_win", match["starter_match_win"],
                     match.get("starter_match_win_lo", NAN),
                     match.get("starter_match_win_hi", NAN)))
    for metric, table in (("bluff_rate", stats.bluff_rates()),
                          ("challenge_rate", stats.challenge_rates()),
                          ("challenge_right_rate", stats.challenge_rates())):
        r = table.loc["all"]
        rows.append(_row(metric, r[metric], r.get(f"{metric}_lo", NAN),
                         r.get(f"{metric}_hi", NAN)))
    mean, lo, hi = _mean_interval(stats.length, n)
    rows.append(_row("mean_turns", mean, lo, hi))
    cap = out["turn_cap_rate"]
    if n is None:
        rows.append(_row("turn_cap_rate", cap))
    else:
        rows.append(_row("turn_cap_rate", cap, *wilson_interval(int(round(cap * n)), n)))
    return rows


def from_table_balance(balance) -> list[dict]:
    """Rows for a profile at any table size (analysis.table_balance; exact, or sampled
    with intervals on the first player's figures): the same metrics as from_profile
    but the best-of-3 match, which needs two players."""
    v = balance.variant
    first_side = v.first_player % 2 if v.teams else v.first_player
    rows = []
    n = balance.rounds    # sampled self-play: intervals on the first player's figures
    if len(balance.side_wins) == 2:
        value = balance.seat_values[v.first_player]
        if n:
            half = balance.value_half_width[v.first_player]
            rows.append(_row("first_player_value", value, value - half, value + half))
        else:
            rows.append(_row("first_player_value", value))
    wins = balance.side_wins[first_side]
    if n:
        rows.append(_row("first_player_win_rate", wins,
                         *wilson_interval(round(wins * n), n)))
    else:
        rows.append(_row("first_player_win_rate", wins))
    rates = balance.rates()
    fair = fair_share(v.players, v.teams)
    rows.append(_edge(*(rows[-1][k] for k in ("value", "lo", "hi")),
                      rates["turn_cap_rate"], fair))
    for metric in ("bluff_rate", "challenge_rate", "challenge_right_rate", "mean_turns",
                   "turn_cap_rate"):
        rows.append(_row(metric, rates[metric]))
    return rows


def from_simulation(result: SimulationResult, first_player: int, teams: bool) -> list[dict]:
    """Rows for random play (any number of players). Rates over announcements treat them
    as independent trials: approximate intervals."""
    n = result.count
    first_side = first_player % 2 if teams else first_player
    wins = result.wins[first_side]
    rows = []
    if len(result.wins) == 2:
        other = result.wins[1 - first_side]
        value = (wins - other) / n
        half = Z95 * math.sqrt(max((wins + other) / n - value * value, 0.0) / n)
        rows.append(_row("first_player_value", value, value - half, value + half))
    rows.append(_row("first_player_win_rate", wins / n, *wilson_interval(wins, n)))
    c = result.counters
    rows.append(_edge(*(rows[-1][k] for k in ("value", "lo", "hi")),
                      c["turn_cap_draws"] / n,
                      fair_share(len(result.wins) * (2 if teams else 1), teams)))

    def rate(metric, hits, trials):
        if trials == 0:
            rows.append(_row(metric, NAN))
        else:
            rows.append(_row(metric, hits / trials, *wilson_interval(hits, trials)))

    rate("bluff_rate", c["bluffs"], c["announcements"])
    rate("challenge_rate", c["challenges"], c["announcements"])
    rate("challenge_right_rate", c["challenges_right"], c["challenges"])
    mean, lo, hi = _mean_interval(result.turn_histogram.astype(float), n)
    rows.append(_row("mean_turns", mean, lo, hi))
    rate("turn_cap_rate", c["turn_cap_draws"], n)
    return rows
