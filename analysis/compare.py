"""Two strategy profiles side by side (two solves, two variants, exact or sampled):
the main tables as long frames of a value per profile and their difference, so that a
what-if (a rule option, a deck change) reads as a table of deltas."""

from __future__ import annotations

import pandas as pd

from .statistics import ProfileStatistics

BALANCE = ("seat0_wins", "seat1_wins", "draws", "seat0_value", "mean_turns",
           "turn_cap_rate", "ended_by_unmask", "ended_by_elimination")


def side_by_side(a: pd.DataFrame, b: pd.DataFrame, columns, labels) -> pd.DataFrame:
    """Long frame indexed by (a's index..., metric) with one column per label and
    `delta` = second - first; rows present on one side only hold NaN on the other."""
    long = []
    for frame in (a, b):
        part = frame[[c for c in columns if c in frame.columns]]
        long.append(part.stack(future_stack=True).rename_axis([*frame.index.names, "metric"]))
    out = pd.concat(long, axis=1, keys=labels, join="outer")
    # Keep the first profile's row order, then rows only the second has.
    out = out.reindex(long[0].index.append(long[1].index.difference(long[0].index)))
    out["delta"] = out[labels[1]] - out[labels[0]]
    return out


def balance(stats: ProfileStatistics) -> pd.DataFrame:
    """Outcomes and the best-of-3 result as one row indexed by `profile`."""
    row = stats.outcomes()[list(BALANCE)].iloc[0].to_dict()
    row["starter_match_win"] = stats.match()["starter_match_win"][0]
    return pd.DataFrame([row], index=pd.Index(["round"], name="of"))


def compare(a: ProfileStatistics, b: ProfileStatistics,
            labels: tuple[str, str] = ("a", "b")) -> dict[str, pd.DataFrame]:
    """The main tables of two two-player profiles side by side, by file-friendly name:
    balance, peeks (the announcement matrix diagonal: truth, silence, bluff per peeked
    card), bluff_rates, challenge_rates, power_use, unmasking."""
    if labels[0] == labels[1]:
        labels = (f"{labels[0]} (1)", f"{labels[1]} (2)")
    labels = tuple(labels)
    pairs = {
        "balance": (balance, list(BALANCE) + ["starter_match_win"]),
        "peeks": (ProfileStatistics.peek_summary,
                  ["truth_rate", "silent_rate", "bluff_rate", "peeks_per_round"]),
        "bluff_rates": (ProfileStatistics.bluff_rates,
                        ["bluff_rate", "announcements_per_round"]),
        "challenge_rates": (ProfileStatistics.challenge_rates,
                            ["challenge_rate", "challenge_right_rate",
                             "responses_per_round"]),
        "power_use": (ProfileStatistics.power_use,
                      ["runs_per_round", "announced_per_round", "face_up_uses_per_round"]),
        "unmasking": (ProfileStatistics.unmasking, ["success_rate", "attempts_per_round"]),
    }
    tables = {name: side_by_side(table(a), table(b), columns, labels)
              for name, (table, columns) in pairs.items()}
    tables["balance"] = tables["balance"].droplevel("of")  # a single row: only metrics
    return tables
