"""A plain-language paragraph of a profile's main findings, generated from its tables."""

from __future__ import annotations

import numpy as np

from .statistics import ProfileStatistics

NOTABLE = 0.01   # expected occurrences per round below which a row is too rare to quote


def _pct(p: float) -> str:
    if not np.isfinite(p):
        return "n/a"
    if 0 < p < 0.001:
        return "under 0.1%"
    if 0.999 < p < 1:
        return "over 99.9%"
    return f"{100 * p:.1f}%"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _grouped(rows: list[tuple[str, float]]) -> list[tuple[list[str], float]]:
    """Names with the same rate (to 0.05 percentage points) grouped, in order: in the
    symmetric reduced decks Robin and the Sheriff often mirror each other exactly."""
    groups: list[tuple[list[str], float]] = []
    for name, rate in rows:
        for names, r in groups:
            if np.isfinite(rate) and abs(r - rate) < 0.0005:
                names.append(name)
                break
        else:
            groups.append(([name], rate))
    return groups


def _ci(frame, column: str) -> str:
    """' (95% CI a-b%)' when the table carries an interval for `column`, else ''."""
    if f"{column}_lo" not in frame.columns:
        return ""
    lo, hi = frame[f"{column}_lo"].iloc[0], frame[f"{column}_hi"].iloc[0]
    return f" (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"


def summary_paragraph(stats: ProfileStatistics) -> str:
    """One paragraph: balance, round length, bluffing, challenges, powers."""
    v = stats.variant
    out = stats.outcomes()
    o = out.iloc[0]
    first = v.first_player
    starter_wins = o[f"seat{first}_wins"]
    starter_value = o["seat0_value"] * (1 if first == 0 else -1)
    sentences = []
    how = ("exactly, over every deal" if stats.exact
           else f"from {stats.rounds_sampled:,} sampled self-play rounds")
    lead = (f"When both players follow this strategy ({v}, measured {how}), the player "
            f"who starts (seat {first}) wins {_pct(starter_wins)} of rounds"
            f"{_ci(out, f'seat{first}_wins')} and loses "
            f"{_pct(o[f'seat{1 - first}_wins'])}: a value of {starter_value:+.3f} a round")
    if "seat0_value_lo" in out.columns:
        lo, hi = sorted(np.array([o["seat0_value_lo"], o["seat0_value_hi"]])
                        * (1 if first == 0 else -1))
        lead += f" (95% CI {lo:+.3f} to {hi:+.3f})"
    match = stats.match().iloc[0]
    if np.isfinite(match["starter_match_win"]):
        won = match["starter_match_win"]
        lead += (f"; the player who starts a best-of-3 match (the loser of each round "
                 f"starting the next) wins it {_pct(won)} of the time"
                 + (f" (95% CI {100 * match['starter_match_win_lo']:.1f}-"
                    f"{100 * match['starter_match_win_hi']:.1f}%)"
                    if "starter_match_win_lo" in match.index else ""))
    sentences.append(lead + ".")
    if o["draws"] < 0.0005:
        draws = f"the turn cap ({v.max_turns} turns) practically never ends a round"
    else:
        draws = (f"{_pct(o['draws'])} of rounds reach the turn cap ({v.max_turns} turns) "
                 f"and are drawn")
    sentences.append(
        f"Rounds last {o['mean_turns']:.1f} turns on average and {draws}; "
        f"{_pct(o['ended_by_unmask'])} end with an unmasking and "
        f"{_pct(o['ended_by_elimination'])} with an elimination.")

    peeks = stats.peek_summary()
    matrix = stats.announcement_matrix()
    said = [c for c in matrix.columns if c not in ("silent", "reach")]
    honest = peeks[(peeks.index != "Trickster") & (peeks["peeks_per_round"] > NOTABLE)]
    if len(honest):
        card = honest["bluff_rate"].idxmax()
        row = matrix.loc[card, [c for c in said if c != card]]
        text = (f"Having peeked {_the(card)}, a player bluffs {_pct(peeks.at[card, 'bluff_rate'])}"
                f" of the time")
        if peeks.at[card, "bluff_rate"] > 0.005:
            top = row.sort_values(ascending=False)
            named = [f"{c} ({_pct(p)})" for c, p in top.items() if p >= 0.2 * top.iloc[0]][:2]
            text += f", as {' or '.join(named)}"
        text += f", and keeps quiet {_pct(peeks.at[card, 'silent_rate'])}"
        quiet = honest.drop(index=card)
        if len(quiet):
            most = quiet["bluff_rate"].max()
            text += ("; after any other card a player almost never bluffs "
                     f"({_pct(most)})" if most < 0.01 else
                     f"; after other cards, at most {_pct(most)}")
        sentences.append(text + ".")
    if "Trickster" in peeks.index and peeks.at["Trickster", "peeks_per_round"] > 0:
        lies = stats.forced_lies()["probability"].sort_values(ascending=False)
        sentences.append(f"A peeked Trickster (a forced lie) is passed off as {lies.index[0]} "
                         f"{_pct(lies.iloc[0])} of the time.")
    bluffs = stats.bluff_rates()
    sentences.append(f"Overall {_pct(bluffs.at['all', 'bluff_rate'])} of announcements "
                     f"are bluffs{_ci(bluffs.loc[['all']], 'bluff_rate')}.")

    rates = stats.challenge_rates()
    common = rates.drop(index="all")
    common = common[common["responses_per_round"] > NOTABLE]
    # Most answered first; near-ties (mirror-image characters) keep the deck's order.
    common = common.loc[common["responses_per_round"].round(4)
                        .sort_values(ascending=False, kind="stable").index]
    top = common.head(3)
    if stats.exact:
        parts = [f"{_join(names)} claims are {'each ' if len(names) > 1 else ''}challenged "
                 f"{_pct(rate)} of the time" for names, rate in
                 _grouped(list(top["challenge_rate"].items()))]
    else:
        parts = [f"{c} claims are challenged {_pct(r['challenge_rate'])}"
                 + _ci(rates.loc[[c]], "challenge_rate") for c, r in top.iterrows()]
    if parts:
        right = rates.at["all", "challenge_right_rate"]
        sentences.append("; ".join(parts) + f"; a challenge catches a bluff "
                         f"{_pct(right)} of the time, so most challenged claims are true"
                         if right < 0.5 else
                         "; ".join(parts) + f"; a challenge catches a bluff {_pct(right)} "
                         f"of the time.")
        if not sentences[-1].endswith("."):
            sentences[-1] += "."

    unmask = stats.unmasking()
    tried = unmask[unmask["attempts_per_round"] > NOTABLE]
    if len(tried):
        owner = {"Robin": "Robin's", "Sheriff": "the Sheriff's"}
        parts = [f"{_join([owner[n] for n in names])} unmasking"
                 f"{'s each' if len(names) > 1 else ''} succeed{'' if len(names) > 1 else 's'}"
                 f" {_pct(rate)} of the time" for names, rate in
                 _grouped(list(tried["success_rate"].items()))]
        sentences.append(_join(parts)[0].upper() + _join(parts)[1:]
                         + " (a wrong reveal costs a strike).")
    uses = stats.power_use()
    face_up = uses[uses["face_up_uses_per_round"] > NOTABLE]["face_up_uses_per_round"]
    if len(face_up):
        sentences.append("A face-up card, whose power cannot be challenged, is used "
                         + _join([f"{n:.2f} times a round as {c}" for c, n in face_up.items()])
                         + ".")
    if v.counts[8]:  # Traitor
        total = stats.traitor().to_numpy().sum()
        sentences.append("The Traitor never costs a strike." if total == 0 else
                         "The Traitor practically never costs a strike "
                         f"({total:.2g} a round)." if total < NOTABLE else
                         f"The Traitor costs {total:.2f} strikes a round.")
    return " ".join(sentences)


def comparison_paragraph(comparison: dict, labels: tuple[str, str]) -> str:
    """What changes from the first profile to the second, from analysis.compare tables."""
    a, b = labels
    bal = comparison["balance"]
    bluff = comparison["bluff_rates"]
    chal = comparison["challenge_rates"]

    def change(frame, key, fmt):
        x, y = frame.loc[key, a], frame.loc[key, b]
        return f"{fmt(x)} to {fmt(y)}"

    value = lambda x: f"{x:+.3f}"  # noqa: E731
    parts = [f"From {a} to {b}, seat 0's value a round goes from "
             f"{change(bal, 'seat0_value', value)}, the starter's best-of-3 match win "
             f"from {change(bal, 'starter_match_win', _pct)}, "
             + ("draws stay negligible"
                if max(bal.loc["draws", a], bal.loc["draws", b]) < 0.0005 else
                f"draws from {change(bal, 'draws', _pct)}")
             + f" and the mean round length from "
             f"{change(bal, 'mean_turns', lambda x: f'{x:.1f}')} turns"]
    if ("all", "bluff_rate") in bluff.index:
        parts.append(f"the share of announcements that are bluffs goes from "
                     f"{change(bluff, ('all', 'bluff_rate'), _pct)} and the challenge rate "
                     f"from {change(chal, ('all', 'challenge_rate'), _pct)}")
    return "; ".join(parts) + "."


def _the(card: str) -> str:
    """'Robin' is a name; the other characters take an article ('the Sheriff')."""
    return card if card == "Robin" else f"the {card}"

