"""Into a band, second round: pairs of the best single rule changes (sweep.band).

After every single change is swept, the K singles nearest the band (by distance to it,
ties to the one nearer the band's centre, then by variant string) are paired: every two
of them that change two different options, and two deck changes composed into one deck
when the result is still a valid deck (a one-card change removes a card and adds
another, so two of them remove two and add two). The pairs are swept through the same
machinery, one sweep per pair of options: the product of the chosen values of the two
options, which is exactly the pairs of those options (or one sweep per pair when a
combination of the product cannot be played).
"""

from __future__ import annotations

import itertools

import pandas as pd

from game_def.characters import NAMES
from game_def.errors import VariantError
from game_def.variant import Variant

Change = tuple[str, str]   # (option, value), as sweep.band.single_changes lists them


def change_text(*changes: Change) -> str:
    """`strikes=1` or `strikes=1 + deck=Robin+Sheriff+Traitor`."""
    return " + ".join(f"{option}={value}" for option, value in changes)


def deck_text(counts) -> str:
    """A deck's counts as character names joined by '+'."""
    return "+".join(name for name, n in zip(NAMES, counts) for _ in range(n))


def compose(base: Variant, a: Change, b: Change) -> Variant | None:
    """The variant with both changes, or None: two changes of the same option (other
    than the deck), two deck changes whose sum is not a valid deck, or a result that is
    the base or one of the two singles."""
    try:
        singles = {base.replace(**{a[0]: a[1]}), base.replace(**{b[0]: b[1]})}
        if a[0] != b[0]:
            both = base.replace(**{a[0]: a[1], b[0]: b[1]})
        elif a[0] == "deck":
            counts = [int(x) + int(y) - int(z) for x, y, z in zip(
                base.replace(deck=a[1]).counts, base.replace(deck=b[1]).counts,
                base.counts)]
            if min(counts) < 0:
                return None
            both = base.replace(deck=deck_text(counts))
        else:
            return None
    except (VariantError, TypeError, ValueError):
        return None
    return None if both == base or both in singles else both


def nearest(found: pd.DataFrame, target, k: int) -> list[str]:
    """The k variants of a `sweep.band.meeting` frame nearest the band: by distance to
    it, then nearer the band's centre, then by variant string."""
    if k <= 0 or found.empty:
        return []
    centre = (target.lo + target.hi) / 2
    order = pd.DataFrame({"distance": found["distance"].to_numpy(float),
                          "off_centre": (found[target.metric] - centre).abs().to_numpy(float),
                          "variant": list(found.index)})
    order = order.sort_values(["distance", "off_centre", "variant"], kind="mergesort")
    return list(order["variant"][:k])


def pairs_of(base: Variant, chosen: list[Change]) -> dict[str, tuple[Change, Change]]:
    """Every playable pair of the chosen changes: variant string -> (first, second),
    in the chosen order; a variant two pairs reach is kept once (the first)."""
    out: dict[str, tuple[Change, Change]] = {}
    for a, b in itertools.combinations(chosen, 2):
        both = compose(base, a, b)
        if both is not None and str(both) not in out:
            out[str(both)] = (a, b)
    return out


def pair_grids(base: Variant, pairs: dict[str, tuple[Change, Change]]) -> list[tuple[str, str]]:
    """(sweep name suffix, --grid text) for sweeping exactly the pairs: one product grid
    per two options when each combination of their values is one of the pairs, else one
    grid per pair; two deck changes, one deck axis of the composed decks."""
    groups: dict[tuple[str, str], list[tuple[str, tuple[Change, Change]]]] = {}
    for variant, (a, b) in pairs.items():
        a, b = sorted((a, b))
        groups.setdefault((a[0], b[0]), []).append((variant, (a, b)))
    grids = []
    for (first, second), members in groups.items():
        if first == second:   # two deck changes: the composed decks
            decks = [v.split(":")[0] for v, _ in members]
            grids.append((f"{first}.{second}", f"deck={','.join(decks)}"))
            continue
        left = list(dict.fromkeys(a[1] for _, (a, _) in members))
        right = list(dict.fromkeys(b[1] for _, (_, b) in members))
        if len(left) * len(right) == len(members):
            grids.append((f"{first}.{second}", f"{first}={','.join(left)} "
                                               f"{second}={','.join(right)}"))
        else:
            for i, (_, (a, b)) in enumerate(members):
                grids.append((f"{first}.{second}-{i}", f"{a[0]}={a[1]} {b[0]}={b[1]}"))
    return grids

