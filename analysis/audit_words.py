"""The first screen of an audit: who is favoured and by how much, whether skill pays,
which mechanic matters most and least, in sentences with the audit's numbers."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

# a restriction whose loss bracket lies within this of 0 costs nothing (value units)
NOTHING = 1e-3


def _pts(x: float) -> str:
    return f"{100 * x:+.1f} points"


def sampled_seats_sentence(audit) -> str:
    """The seats by play (analysis.audit_sampled): shares against 1/N with intervals."""
    s, m, v = audit.seats, audit.metrics, audit.variant
    fair = audit.settings["fair_share"]
    first = s[s["starts"]].iloc[0]
    lo, hi = 100 * m["starter_edge_lo"], 100 * m["starter_edge_hi"]
    starter = "The team that starts" if v.teams else "The player who starts"
    who = (f"{starter} is favoured" if m["starter_edge_lo"] > 0 else
           f"{starter} is at a disadvantage" if m["starter_edge_hi"] < 0 else
           f"{starter} is neither favoured nor at a disadvantage within the interval")
    side = "team" if v.teams else "seat"
    text = (f"{who}: in the Monte Carlo CFR table's self-play ({audit.settings['rounds']:,} "
            f"rounds, {m['learned_share']:.0%} of decisions from learned entries, the "
            f"rest by {_rules(audit)}), {side} {first['seats']}, which starts, wins "
            f"{first['wins']:.1%} of rounds, a win share (a draw counting {fair:.3g}) of "
            f"{first['win_share']:.1%} against the fair {fair:.1%}: an edge of "
            f"{_pts(m['starter_edge'])} (95% interval {lo:+.1f} to {hi:+.1f}). Across "
            f"{side}s the shares are " + ", ".join(
                f"{row.seats}: {row.win_share:.1%}" for row in s.itertuples())
            + "." + _others_beyond(audit)
            + f" {m['drawishness']:.1%} of rounds are drawn at the turn cap (drawishness) "
            f"and a round lasts {m['duration']:.2f} turns on average.")
    if not math.isnan(m.get("starter_match_win", float("nan"))):
        text += (f" The player who starts a best-of-3 match wins it "
                 f"{m['starter_match_win']:.1%} of the time.")
    if "decisiveness" not in m:
        text += (" Decisiveness and lead changes were not measured for this page (it was "
                 "written before they were measured by play).")
    elif not math.isnan(m["decisiveness"]):
        text += " " + _decisiveness_words(m, side)
    return text


def _decisiveness_words(m: dict, side: str = "seat") -> str:
    return (f"The eventual winner takes a strike lead it keeps {m['decisiveness']:.0%} of "
            f"the way through a won round on average (decisiveness; 100% when it never "
            f"leads in strikes, a {side} leading when it has fewer strikes than every "
            f"other) and the strike lead passes {m['lead_changes']:.3f} times a round.")


def _others_beyond(audit) -> str:
    """Beyond two sides: the sides other than the starter's whose interval lies off
    the fair share, named with their place in the turn order ('' when none)."""
    s, v = audit.seats, audit.variant
    if len(s) <= 2:
        return ""
    side = "team" if v.teams else "seat"
    order = ("first", "second", "third", "fourth")
    off = []
    for row in s[~s["starts"].astype(bool)].itertuples():
        if row.edge_lo > 0 or row.edge_hi < 0:
            first = int(str(row.seats).split("+")[0])
            place = order[(first - v.first_player) % v.players]
            off.append(f"{side} {row.seats} (plays {place}) "
                       f"{'above' if row.edge_lo > 0 else 'below'} it by "
                       f"{abs(100 * row.edge):.1f} points (95% interval "
                       f"{100 * row.edge_lo:+.1f} to {100 * row.edge_hi:+.1f})")
    if not off:
        return (f" Every other {side}'s share holds the fair share within its "
                f"interval.")
    return " Off the fair share beyond its interval: " + "; ".join(off) + "."


def _rules(audit) -> str:
    fallback = audit.settings.get("fallback", "auto")
    return "the sound default" if fallback == "auto" else f"its fallback ({fallback})"


def seats_sentence(audit) -> str:
    if audit.method == "sampled":
        return sampled_seats_sentence(audit)
    s, m, v = audit.seats, audit.metrics, audit.variant
    first = s.loc[v.first_player]
    lo, hi = 100 * m["starter_edge_lo"], 100 * m["starter_edge_hi"]
    who = ("The player who starts is favoured" if m["starter_edge_lo"] > 0 else
           "The second player is favoured" if m["starter_edge_hi"] < 0 else
           "Neither seat is favoured")
    return (f"{who}: at equilibrium seat {v.first_player}, who starts, wins "
            f"{first['wins']:.1%} of rounds and loses {first['losses']:.1%}, a win share "
            f"(a draw counting 1/2) of {first['win_share']:.1%} against the fair 50%, "
            f"an edge of {_pts(m['starter_edge'])} (exact: the game value puts it "
            f"between {lo:+.2f} and {hi:+.2f}). The player who starts a best-of-3 match "
            f"wins it {m['starter_match_win']:.1%} of the time; {m['drawishness']:.1%} "
            f"of rounds are drawn at the turn cap (drawishness) and a round lasts "
            f"{m['duration']:.2f} turns on average. " + _decisiveness_words(m))


def ladder_sentence(audit) -> str:
    ladder = audit.ladder
    pays = ladder.skill_pays()
    strength = ladder.strength()
    eq = strength.get("equilibrium")
    fair = ladder.fair_share
    by_play = ladder.half_width is not None
    widths = ""
    if by_play:
        hw = ladder.half_width
        widths = (f" (by play, each cell within +/-{100 * float(np.nanmax(hw.to_numpy())):.1f} "
                  f"points at 95%; fair share {fair:.1%})")
    text = (f"Skill pays{widths}: of {len(strength)} players, the strongest over the round "
            f"robin ({pays['strongest']}, mean win share {strength.iloc[0]:.1%}) wins "
            f"{_pts(pays['over_weakest'])} over the fair share against the weakest "
            f"({pays['weakest']}) and {_pts(pays['over_median'])} against the median "
            f"player ({pays['median']}).")
    if pays["over_weakest"] <= 0.01:
        text = text.replace("Skill pays", "Skill hardly pays")
    if eq is not None:
        rank = list(strength.index).index("equilibrium") + 1
        text += (f" The exact equilibrium, which no player can exploit, ranks {rank} "
                 f"of {len(strength)} with a mean win share of {eq:.1%}"
                 + (": it is safe, not the best exploiter of weak play." if rank > 1
                    else "."))
    return text


def sampled_mechanics_sentence(audit) -> str:
    """What each mechanic is worth by play: win share lost, with 95% intervals."""
    r = audit.restricted[audit.restricted["applies"]].copy()
    if r.empty:
        return "No restriction was measured."
    r = r.sort_values("share_lost", ascending=False)
    top = r.iloc[0]
    text = (f"The mechanic that matters most: forbidding {_side(audit)} {top['seat']} to "
            f"{top['forbids'].replace('never ', '', 1)} (restriction {top['restriction']}, "
            f"both games trained alike) costs it {_pts(top['share_lost'])} of win share "
            f"(95% interval {100 * top['lost_lo']:+.1f} to {100 * top['lost_hi']:+.1f}).")
    costly = r[r["lost_lo"] > 0]
    if len(costly) > 1:
        rest = [f"{row.restriction} ({_side(audit)} {row.seat}: {_pts(row.share_lost)})"
                for row in costly.iloc[1:4].itertuples()]
        text += " Next: " + "; ".join(rest) + "."
    free = r[(r["lost_lo"] <= 0) & (r["lost_hi"] >= 0)]
    if len(free):
        names = sorted({f"{row.restriction} ({_side(audit)} {row.seat})"
                        for row in free.itertuples()})
        text += (" Costing nothing measurable (a finding: the interval holds 0): "
                 + ", ".join(names) + ".")
    gain = r[r["lost_hi"] < 0]
    if len(gain):
        text += (" Gaining by the restriction (the trained free game plays that mechanic "
                 "at a loss at this budget): " + ", ".join(
                     f"{row.restriction} ({_side(audit)} {row.seat}: "
                     f"{_pts(-row.share_lost)})" for row in gain.itertuples()) + ".")
    return text


def _side(audit) -> str:
    return "team" if audit.variant.teams else "seat"


def mechanics_sentence(audit) -> str:
    if audit.method == "sampled":
        return sampled_mechanics_sentence(audit)
    r = audit.restricted[audit.restricted["applies"]].copy()
    if r.empty:
        return "No restriction applies to this variant."
    r = r.sort_values("value_lost", ascending=False)
    top = r.iloc[0]
    free = r[(r["lost_hi"] < NOTHING) & (r["lost_lo"] > -NOTHING)]
    text = (f"The mechanic that matters most: forbidding seat {top['seat']} to "
            f"{top['forbids'].replace('never ', '', 1)} (restriction "
            f"{top['restriction']}) costs it {top['value_lost']:.3f} of a round's value, "
            f"{_pts(top['value_lost'] / 2)} of win share.")
    costly = r[r["lost_lo"] >= NOTHING]
    if len(costly) > 1:
        rest = [f"{row.restriction} (seat {row.seat}: {row.value_lost:.3f})"
                for row in costly.iloc[1:4].itertuples()]
        text += " Next: " + "; ".join(rest) + "."
    if len(free):
        names = sorted({f"{row.restriction} (seat {row.seat})"
                        for row in free.itertuples()})
        text += (f" Costing nothing (a finding: the loss lies within {NOTHING:g} of 0): "
                 + ", ".join(names) + ".")
    return text


def first_screen(audit, band: str | None = None) -> list[str]:
    """The sentences; `band`: the band search's sentence (band_sentence), if run."""
    return [seats_sentence(audit), ladder_sentence(audit), mechanics_sentence(audit),
            band or "No band was asked for (--target 'METRIC in [LO,HI]' searches the "
                    "single rule changes, then pairs of the nearest, that bring a "
                    "metric into a band).",
            _search_sentence(audit)]


def _search_sentence(audit) -> str:
    """Whether the ladder holds the table with play-time search, and how to add it."""
    from .audit_sampled import SEARCHED, searchable

    if SEARCHED in audit.ladder.matrix.index:
        return (f"The ladder holds the table with play-time search "
                f"({audit.settings['search_rounds']:,} rounds a seat against each player).")
    if audit.method != "sampled":
        return ("Not in this audit: the table of Monte Carlo CFR with play-time search "
                "(the exact ladder has the equilibrium instead; a sampled audit with "
                "--search-rounds N adds it).")
    if not searchable(audit.variant):
        return ("Not in this audit: the table with play-time search (search plays "
                "two-player rounds).")
    return ("Not in this audit: the table with play-time search (--search-rounds N adds "
            "it to the ladder, N rounds a seat against each player).")


def _with_interval(value: float, lo: float, hi: float) -> str:
    """`+0.0123`, or `+0.0123 [+0.0050, +0.0196]` where the interval is known."""
    if pd.isna(lo) or pd.isna(hi):
        return f"{value:+.4f}"
    return f"{value:+.4f} [{lo:+.4f}, {hi:+.4f}]"


def _figure(row, metric: str) -> str:
    """The row's target value, with its 95% interval where it was sampled."""
    return _with_interval(row[metric], row.get(f"{metric}_lo", float("nan")),
                          row.get(f"{metric}_hi", float("nan")))


def _counted(rows, kind: str, metric: str) -> str:
    names = ", ".join(f"{row['change']} ({_figure(row, metric)})"
                      for _, row in rows.iloc[:5].iterrows())
    more = f" and {len(rows) - 5} more" if len(rows) > 5 else ""
    if len(rows) == 1:   # "1 single change meets it"
        kind = kind.replace("changes", "change").replace("pairs", "pair")
    return f"{len(rows)} {kind} meet{'s' if len(rows) == 1 else ''} it: {names}{more}"


def _base_words(target: str, base) -> str:
    """Where the audited variant itself lies against the band: `base` is its (value,
    lo, hi) of the target metric (lo, hi NaN when exact), or None (not audited)."""
    if base is None:
        return ""
    from common.band import parse_target

    band = parse_target(target, (target.split()[0],), target)
    where = "lies in the band" if band.lo <= base[0] <= band.hi else "lies outside the band"
    return f" The variant itself {where} ({band.metric} {_with_interval(*base)})."


def band_sentence(target: str, found, base=None) -> str:
    """What the band search found: `found` is sweep.band.band_search's frame (in the
    band first, singles before pairs, nearer the centre first; `kind`, `change`);
    `base`: the audited variant's (value, lo, hi) of the target metric, when the audit
    measured it, said first."""
    metric = target.split()[0]
    singles, pairs = found[found["kind"] == "single"], found[found["kind"] == "pair"]
    if singles.empty:
        return (f"Into the band {target}:{_base_words(target, base)} No single rule "
                f"change was measured.")
    searched = (f"{len(singles)} single rule changes" + (
        f" and {len(pairs)} pairs of the nearest" if len(pairs) else ""))
    inside = found[found["in_band"].astype(bool)]
    sampled = f"{metric}_lo" in found and found[f"{metric}_lo"].notna().any()
    how = (" (sampled by Monte Carlo CFR: each figure with its 95% interval)"
           if sampled else "")
    if inside.empty:
        near = found.iloc[0]
        return (f"Into the band {target}{how}:{_base_words(target, base)} None of the "
                f"{searched} meets it; the nearest is {near['change']} ({metric} "
                f"{_figure(near, metric)}).")
    best = inside.iloc[0]
    parts = [_counted(inside[inside["kind"] == k], w, metric)
             for k, w in (("single", "single changes"), ("pair", "pairs"))
             if (inside["kind"] == k).any()]
    sure = ""
    if sampled and "interval_in_band" in inside:
        n = int(inside["interval_in_band"].astype(bool).sum())
        sure = (f" Of those, {n} lie{'s' if n == 1 else ''} in the band with the whole "
                f"of {'its' if n == 1 else 'their'} 95% interval; the others' "
                f"intervals cross an edge.")
    return (f"Into the band {target}{how}:{_base_words(target, base)} Of {searched}, "
            + "; ".join(parts) + "."
            + sure + f" The smallest change that meets it: {best['change']}, {best.name} "
            f"({metric} {_figure(best, metric)}; a single change if any meets the band, "
            f"else a pair, the nearest the band's centre).")
