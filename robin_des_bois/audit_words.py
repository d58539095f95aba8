"""The first screen of a Robin des Bois audit: who is favoured and by how much, whether
skill pays, which mechanic matters most and least, and the smallest rule change that
meets a target band, in sentences with the audit's numbers."""

from __future__ import annotations

import pandas as pd

from .audit import skill_pays


def _pts(x: float) -> str:
    return f"{100 * x:+.1f} points"


def _span(lo: float, hi: float) -> str:
    return f"[{100 * lo:+.1f}, {100 * hi:+.1f}]"


def seats_sentence(seats: pd.DataFrame, metrics: pd.DataFrame, player: str) -> str:
    n = len(seats)
    m = metrics.set_index("metric")
    best = seats.loc[seats["win_share"].idxmax()]
    clear = seats[(seats["lo"] > 1 / n) | (seats["hi"] < 1 / n)]
    if clear.empty:
        who = (f"No seat is clearly favoured: with {player} in every seat, every seat's "
               f"win share lies within its 95% interval of the fair 1/{n} "
               f"({1 / n:.1%}); the highest is seat {int(best['seat'])}'s "
               f"{best['win_share']:.1%}, {_pts(best['win_share_minus_fair'])} "
               f"{_span(best['minus_fair_lo'], best['minus_fair_hi'])}")
    else:
        parts = [f"seat {int(r.seat)} {_pts(r.win_share_minus_fair)} "
                 f"{_span(r.minus_fair_lo, r.minus_fair_hi)}" for r in clear.itertuples()]
        who = (f"With {player} in every seat, the seats off the fair 1/{n} "
               f"({1 / n:.1%}) beyond their 95% intervals: " + "; ".join(parts))
    e, bo3 = m.loc["starter_edge"], m.loc["starter_match_win"]
    return (f"{who}. Seat 0, who plays first, has an edge of {_pts(e['value'])} "
            f"{_span(e['lo'], e['hi'])} and wins a best-of-3 match "
            f"{bo3['value']:.1%} of the time ({bo3['lo']:.1%} to {bo3['hi']:.1%}). "
            f"{m.at['drawishness', 'value']:.1%} of games end with the best score shared "
            f"(drawishness), a game lasts {m.at['duration', 'value']:.1f} turns, the "
            f"outright winner takes the lead it keeps {m.at['decisiveness', 'value']:.0%} "
            f"of the way through (decisiveness) and the lead passes "
            f"{m.at['lead_changes', 'value']:.2f} times a game.")


def ladder_sentence(ladder: pd.DataFrame) -> str:
    pays = skill_pays(ladder)
    s = pays["strength"]
    w, md = pays["over_weakest"], pays["over_median"]
    verdict = ("Skill pays" if w[1] > 0 else
               "Skill does not clearly pay" if w[0] > 0 else "Skill does not pay")
    fair = ladder[ladder["row"] == ladder["column"]]
    off = fair[(fair["lo"] > fair["fair_share"]) | (fair["hi"] < fair["fair_share"])]
    check = ("every player against copies of itself gets the fair share within its "
             "interval" if off.empty else
             "outside its interval against copies of itself: "
             + ", ".join(off["row"]) + " (chance at 95%, or a fault to look into)")
    cell = ladder.set_index(["row", "column"])
    a, b = s.index[0], s.index[1]
    ab, ba = cell.loc[(a, b)], cell.loc[(b, a)]
    head = (f" Head to head, the two strongest by mean share: one {a} against copies "
            f"of {b} wins {ab['win_share']:.1%} [{ab['lo']:.1%}, {ab['hi']:.1%}], one {b} "
            f"against copies of {a} {ba['win_share']:.1%} [{ba['lo']:.1%}, "
            f"{ba['hi']:.1%}] (fair {ab['fair_share']:.1%}).")
    return (f"{verdict}: of {len(s)} players, the strongest over the round robin "
            f"({pays['strongest']}, mean win share {s.iloc[0]:.1%}) wins {_pts(w[0])} "
            f"{_span(w[1], w[2])} over the fair share against copies of the weakest "
            f"({pays['weakest']}) and {_pts(md[0])} {_span(md[1], md[2])} against the "
            f"median player ({pays['median']}); {check}." + head)


def mechanics_sentence(restricted: pd.DataFrame) -> str:
    r = restricted.sort_values("share_lost", ascending=False)
    top, low = r.iloc[0], r.iloc[-1]
    text = (f"The mechanic that matters most: forbidding one seat to "
            f"{top['forbids'].replace('never ', '', 1)} ({top['restriction']}) costs it "
            f"{_pts(top['share_lost'])} of win share {_span(top['lost_lo'], top['lost_hi'])}"
            f"; the least: {low['restriction']}, {_pts(low['share_lost'])} "
            f"{_span(low['lost_lo'], low['lost_hi'])}.")
    free = r[(r["lost_lo"] <= 0) & (r["lost_hi"] >= 0)]
    if len(free):
        text += (" Costing nothing measurable (a finding: the loss's interval holds 0): "
                 + ", ".join(free["restriction"]) + ".")
    return text


def band_sentence(target, found: pd.DataFrame) -> str:
    if found.empty:
        return f"Into the band {target}: no rule change was measured."
    metric = target.metric
    inside = found[found["in_band"]]
    if inside.empty:
        near = found.iloc[0]
        return (f"Into the band {target}: none of the {len(found)} rule changes measured "
                f"meets it; the nearest is {near['variant']} ({metric} "
                f"{near[metric]:+.4f}, interval {near['lo']:+.4f} to {near['hi']:+.4f}).")
    first = inside.iloc[0]
    return (f"Into the band {target}: {len(inside)} of {len(found)} rule changes measured "
            f"meet it; the smallest is {first['variant']} ({metric} {first[metric]:+.4f}, "
            f"interval {first['lo']:+.4f} to {first['hi']:+.4f}).")


def first_screen(tables: dict, player: str, band: str | None = None) -> list[str]:
    return [seats_sentence(tables["seats"], tables["seat_metrics"], player),
            ladder_sentence(tables["skill_ladder"]),
            mechanics_sentence(tables["restricted_play"]),
            band or "No band was asked for (--target 'METRIC in [LO,HI]' searches the "
                    "single changes of the box parameters, then pairs of the best)."]
