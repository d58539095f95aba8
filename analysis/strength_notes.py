"""What a two-player report says of a Monte Carlo CFR table's measured strength, from the
files `robinwood exploit` and `robinwood search` write (solver.evaluation.run_files):
the opponents' gains, the stated lower bound on exploitability and how it was reached,
how many league and held-out players the table beats, what search changed, and how
the bound moved over training, as tables and as sentences for the summary."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from solver.evaluation.run_files import read_strength


def search_table(data: dict) -> pd.DataFrame:
    """The searcher's and the table's payoffs against each opponent, worst first."""
    frame = pd.DataFrame(data["opponents"]).set_index("opponent")
    columns = ["search", "search_lo", "search_hi", "blueprint", "blueprint_lo",
               "blueprint_hi", "difference"]
    return frame.sort_values("search")[columns]


def search_note(data: dict | None) -> str:
    """What play-time search changed, in a sentence (nothing when it was not run)."""
    if data is None:
        return ""
    rows = [r for r in data["opponents"] if r["opponent"] != "blueprint"]
    if not rows:
        return ""
    beaten = sum(r["search_lo"] > 0 for r in rows)
    better = sum(r["search_lo"] > r["blueprint_hi"] for r in rows)
    worst = min(rows, key=lambda r: r["search"])
    note = (f"Played with play-time search (`robinwood search`, docs/search.md) it beats "
            f"{beaten} of {len(rows)} opponents with 95% confidence and is better than the "
            f"strategy without search against {better}; its worst opponent is "
            f"{worst['opponent']} "
            f"({worst['search']:+.3f} a round). ")
    bounds = {b["opponent_searches"]: b for b in data.get("local_best_response", [])}
    if True in bounds:
        searched = bounds[True]
        note += (f"A local best response that models the searcher by its table gains "
                 f"{searched['gain']:+.3f} ± {searched['gain_half_width_95']:.3f} against it"
                 + (f" ({bounds[False]['gain']:+.3f} against the table alone)"
                    if False in bounds else "")
                 + ": a weaker lower bound on its exploitability than the table's. ")
    return note


def quality_over_training(run_dir: Path) -> pd.DataFrame | None:
    """The lower bound on exploitability of the run's snapshots and final strategy, by
    training time, from each one's strength.json (None when none was measured)."""
    from solver.store import read_metadata

    rows = []
    places = sorted(p for p in (Path(run_dir) / "snapshots").glob("*") if p.is_dir())
    for place in places + [Path(run_dir)]:
        strength = read_strength(place)
        if strength is None:
            continue
        meta = read_metadata(place)
        rows.append({"training_seconds": float(meta.get("seconds", float("nan"))),
                     "iterations": int(meta.get("iterations", 0)),
                     "exploitability_bound": strength["exploitability_lower_bound"],
                     "half_width": strength.get("exploitability_lower_bound_half_width",
                                                float("nan")),
                     "strongest": strength["strongest"],
                     "bound_method": bound_method(strength)})
    if not rows:
        return None
    frame = pd.DataFrame(rows).sort_values(["iterations", "training_seconds"]).reset_index(
        drop=True)
    frame.index = pd.Index(range(1, len(frame) + 1), name="measurement")
    return frame


def strength_tables(strength: dict):
    """The opponents' gains (strongest first) and the self-play coverage table."""
    import pandas as pd

    gains = pd.DataFrame(strength["opponents"]).set_index("opponent")
    gains = gains.sort_values("gain", ascending=False)[["method", "gain", "gain_lo",
                                                         "gain_hi", "detail"]]
    coverage = pd.DataFrame(strength["coverage"]["self-play"]).set_index("decision")
    return gains, coverage


def beaten_by_method(strength: dict) -> dict[str, tuple[int, int]]:
    """For each opponent method of strength.json ("bot", "league", "held-out", ...), how
    many of its opponents the strategy beats with 95% confidence (the opponent's gain
    interval lies below 0) and how many there are. Files written before held-out players
    have no "held-out" rows, so no "held-out" key."""
    counts: dict[str, tuple[int, int]] = {}
    for row in strength["opponents"]:
        method = row.get("method", "")
        gain_hi = row.get("gain_hi")
        beaten = isinstance(gain_hi, (int, float)) and gain_hi < 0
        won, total = counts.get(method, (0, 0))
        counts[method] = (won + beaten, total + 1)
    return counts


def beaten_sentence(strength: dict) -> str:
    """How many league players and, apart, how many held-out players (scripted players
    training may not meet) the strategy beats with 95% confidence."""
    counts = beaten_by_method(strength)
    parts = [f"{counts[m][0]} of {counts[m][1]} {words}"
             for m, words in (("league", "league players"),
                              ("held-out", "held-out players (never met in training)"))
             if m in counts]
    if not parts:
        return ""
    text = f"It beats {' and '.join(parts)} with 95% confidence. "
    default = [r for r in strength["opponents"] if r.get("method") == "default"]
    if default:
        row = default[0]
        gain, lo, hi = -row["gain"], -row["gain_hi"], -row["gain_lo"]
        verdict = ("so the table adds to the default" if lo > 0 else
                   "so the table takes away from the default" if hi < 0 else
                   "so it cannot be told from the default")
        text += (f"Against the sound default alone, the player it falls back on, it "
                 f"scores {gain:+.3f} a round (95% {lo:+.3f} to {hi:+.3f}), {verdict}. ")
    return text


def bound_method(strength: dict) -> str:
    """How strength.json's stated bound was reached: "held-out" (the strongest opponent
    replayed on fresh rounds) or "selection maximum" (the largest gain on one sample,
    biased upward: files written before held-out replays say nothing and are that)."""
    method = strength.get("bound_method")
    return method if isinstance(method, str) else "selection maximum"


def simultaneous(strength: dict) -> dict | None:
    """strength.json's Bonferroni statement over all opponents, or, in files written
    before it, the same computed from the opponents' 95% intervals."""
    every = strength.get("simultaneous")
    if isinstance(every, dict):
        return every
    from statistics import NormalDist

    rows = strength["opponents"]
    try:
        k = len(rows)
        scale = NormalDist().inv_cdf(1 - 0.025 / k) / NormalDist().inv_cdf(0.975)
        ends = [(r["gain"] - (r["gain_hi"] - r["gain_lo"]) / 2 * scale, r["opponent"])
                for r in rows]
    except (KeyError, TypeError, ZeroDivisionError):
        return None
    lower, name = max(ends)
    return {"method": "bonferroni", "confidence": 0.95, "candidates": k, "lower": lower,
            "opponent": name}


def bound_table(strength: dict) -> pd.DataFrame:
    """The stated bound beside the selection maximum and the simultaneous statement."""
    rows = []
    holdout = strength.get("holdout")
    best = strength["strongest"]
    if bound_method(strength) == "held-out" and isinstance(holdout, dict):
        rows.append({"statement": "held-out replay of the strongest (stated)",
                     "opponent": best, "gain": holdout["gain"],
                     "gain_lo": holdout["gain_lo"], "gain_hi": holdout["gain_hi"],
                     "rounds": holdout.get("rounds"), "seed": holdout.get("seed")})
        selection, half = strength["selection_gain"], strength["selection_half_width"]
        rows.append({"statement": "the strongest on the selection sample (biased upward)",
                     "opponent": best, "gain": selection, "gain_lo": selection - half,
                     "gain_hi": selection + half, "rounds": None, "seed": None})
    else:
        bound = strength["exploitability_lower_bound"]
        half = strength.get("exploitability_lower_bound_half_width", float("nan"))
        rows.append({"statement": "selection maximum (stated; biased upward, written "
                                  "before held-out replays)",
                     "opponent": best, "gain": bound, "gain_lo": bound - half,
                     "gain_hi": bound + half, "rounds": None, "seed": None})
    every = simultaneous(strength)
    if every is not None:
        rows.append({"statement": f"all {every['candidates']} opponents at once "
                                  f"(Bonferroni, 95%): the largest lower end",
                     "opponent": every["opponent"], "gain": float("nan"),
                     "gain_lo": every["lower"], "gain_hi": float("nan"), "rounds": None,
                     "seed": None})
    return pd.DataFrame(rows).set_index("statement")


def _learned_share(strength: dict) -> str:
    """": N% of its self-play decisions land on learned table entries ..." (the
    coverage table's learned share, so that the frequencies below are read as the
    table's or the fallback's), or nothing when the file has no self-play coverage."""
    rows = strength.get("coverage", {}).get("self-play")
    if not isinstance(rows, list):
        return ""
    total = next((r for r in rows if r.get("decision") == "all"), None)
    if total is None or not isinstance(total.get("learned"), (int, float)):
        return ""
    learned = total["learned"]
    return (f": {learned:.0%} of its self-play decisions land on learned table entries "
            f"and the rest ({1 - learned:.0%}) on thin or missing ones, where the "
            f"fallback moves, so the frequencies below describe mostly "
            f"{'the fallback' if learned < 0.5 else 'the table'}")


# a lower bound on exploitability above this is called large in the report's summary
LARGE_BOUND = 0.10


def caveat(metadata: dict, strength: dict | None = None) -> str:
    """Monte Carlo CFR strategies are approximations: say how much training this one had
    and how exploitable it is at least, before the numbers are read as the game's."""
    if metadata.get("kind") != "mccfr":
        return ""
    iterations, seconds = metadata.get("iterations"), metadata.get("seconds")
    if not isinstance(iterations, int) or not isinstance(seconds, (int, float)):
        return ""
    minutes = round(seconds / 60)
    span = f"{minutes} minute{'s' if minutes != 1 else ''}" if minutes else f"{seconds:.0f} s"
    text = (f"This strategy is a Monte Carlo CFR approximation after {iterations:,} "
            f"traversals per seat ({span} of training). ")
    if strength is None:
        return text + ("How exploitable it is has not been measured: run `robinwood "
                       "exploit` on the run directory and write the report again. ")
    bound = strength["exploitability_lower_bound"]
    half = strength.get("exploitability_lower_bound_half_width", 0.0)
    worst = {o["opponent"]: o for o in strength["opponents"]}
    fallback = strength.get("fallback")
    if isinstance(fallback, dict) and fallback.get("player"):
        player = fallback["player"]
        rules = ("the sound default (docs/sound-play.md)" if player == "sound"
                 else f"the {player}'s rules")
        text += (f"It plays its table where the table has learned and {rules} "
                 f"elsewhere (docs/mccfr.md)")
        text += _learned_share(strength) + ". "
    holdout = strength.get("holdout")
    if bound_method(strength) == "held-out" and isinstance(holdout, dict):
        text += (f"The strongest of {len(worst)} opponents measured against it, "
                 f"{strength['strongest']}, gains {bound:+.3f} ± {half:.3f} a round "
                 f"(seat-averaged, 95%) replayed on {holdout['rounds']:,} fresh rounds a "
                 f"seat: its exploitability is at least that. On the rounds that chose "
                 f"it, it gained {strength['selection_gain']:+.3f}, but the largest of "
                 f"many noisy gains overstates, so the replay's gain is the one stated. ")
    else:
        text += (f"The strongest of {len(worst)} opponents measured against it, "
                 f"{strength['strongest']}, gains {bound:+.3f} ± {half:.3f} a round "
                 f"(seat-averaged, 95%). That is a selection maximum: the largest of the "
                 f"opponents' noisy gains on one sample of rounds, which overstates on "
                 f"average (this strength.json predates held-out replays; run `robinwood "
                 f"exploit` again for an unbiased bound). ")
    text += beaten_sentence(strength)
    every = simultaneous(strength)
    if every is not None:
        text += (f"Taking all {every['candidates']} opponents' intervals at once "
                 f"(Bonferroni), its exploitability is at least {every['lower']:+.3f} "
                 f"with 95% confidence. ")
    if bound > LARGE_BOUND:
        text += ("That is large: an opponent who knows its weaknesses wins clearly, so "
                 "the frequencies below describe this strategy, not good play. ")
    return text


def quality_note(quality: pd.DataFrame | None) -> str:
    """How the strength changed over training, in a sentence, or how to measure it."""
    if quality is None:
        return ""
    if len(quality) < 2:
        return ("Its strength was measured at the end of training only (train with "
                "`--snapshot-minutes` and run `robinwood exploit` on each snapshot to "
                "see it over training). ")
    first, last = quality.iloc[0], quality.iloc[-1]
    text = (f"Over training its exploitability bound went from "
            f"{first['exploitability_bound']:+.3f} after {first['iterations']:,} "
            f"traversals to {last['exploitability_bound']:+.3f} after "
            f"{last['iterations']:,}. ")
    if "bound_method" in quality and (quality["bound_method"] != "held-out").any():
        old = int((quality["bound_method"] != "held-out").sum())
        text += (f"{old} of those {len(quality)} measurements are selection maxima "
                 f"(written before held-out replays), which overstate on average. ")
    return text


def lbr_split_table(strength: dict) -> pd.DataFrame | None:
    """Where the strongest local best response gains over its continuation, by decision
    kind and sub-key, largest first (strength.json's `lbr_by_decision`; docs/lbr.md,
    "Where the gain comes from, by decision"). None for files written before the split
    and for runs measured without a local best response."""
    from solver.evaluation.strength import by_decision_table

    split = strength.get("lbr_by_decision")
    if not isinstance(split, dict) or not split.get("rows"):
        return None
    try:
        return by_decision_table(split["rows"])
    except (KeyError, TypeError, ValueError):
        return None


def lbr_choice_table(strength: dict) -> pd.DataFrame | None:
    """What the strongest local best response played at its three largest leaks,
    beside the strategy's own play at the same decisions (strength.json's
    `lbr_by_decision` choices; solver.evaluation.strength.choices_at_leaks). None for
    files written before the choices were recorded."""
    from solver.evaluation.strength import choices_at_leaks

    split = strength.get("lbr_by_decision")
    if not isinstance(split, dict) or not split.get("rows"):
        return None
    try:
        return choices_at_leaks(split)
    except (KeyError, TypeError, ValueError):
        return None


def _decision_words(kind: str, sub: str) -> str:
    return {"turn": "its turn starts (which card to peek or use)",
            "after_peek": f"what it announces after peeking the {sub}",
            "respond": f"its responses to a claimed {sub}",
            "power": f"its play of the {sub}'s power"}.get(kind, f"{kind} {sub}")


def leak_sentence(strength: dict) -> str:
    """The largest leak the split shows, with its 95% interval, in a sentence (nothing
    when strength.json has no split)."""
    table = lbr_split_table(strength)
    if table is None or len(table) < 2:
        return ""
    split = strength["lbr_by_decision"]
    rows = table[table.index.get_level_values("kind") != "all"]
    total = table[table.index.get_level_values("kind") == "all"].iloc[0]
    (kind, sub), top = rows.index[0], rows.iloc[0]
    sample = ("on its held-out replay" if split.get("sample") == "held-out replay"
              else "on the selection sample")
    text = (f"Where it leaks: {split['opponent']} gains {total['gain']:+.3f} ± "
            f"{total['half_width']:.3f} a round over its continuation alone {sample} "
            f"(the advantage of each of its lookahead decisions over the continuation's "
            f"choice, summed over the round). The largest part comes from "
            f"{_decision_words(kind, sub)}: {top['gain']:+.3f} ± {top['half_width']:.3f} "
            f"a round (95%)")
    if top["gain_lo"] <= 0:
        text += ", an interval that holds 0: no single decision stands out"
    return text + ". "
