"""Position symmetry: under the lazy deal, positions nobody has mentioned yet are
interchangeable, so the symmetric tree (`build_robinwood_tree(symmetric=True)`) keeps one
representative action among them: the lowest such position. In that tree the k-th
position ever mentioned is always position k (among the initially face-down ones).

This module maps between the full game and that canonical labelling: a real
information state is relabelled by the order in which positions were first mentioned,
and a canonical strategy is lifted back by splitting the representative's probability
evenly over the real untouched positions. The lifted strategy has the same value and
the same exploitability as the canonical one (checked in tests/test_symmetry.py).
"""

from __future__ import annotations

import re

from game_def.characters import Character
from game_def.variant import Variant

_POSITIONAL = re.compile(r"^(\d+):(peek|use|reveal|pick) (\d+)$")
_SEEN = re.compile(r"^(\d+)=(\w+)$")
_VERBS = ("peek", "use", "reveal", "pick")


class PositionSymmetry:
    """Relabels information states and actions of one variant into canonical positions."""

    def __init__(self, variant: Variant):
        if variant.layout is not None:
            raise ValueError("position symmetry needs the random deal (no layout)")
        self.n = variant.num_positions
        traitors = variant.counts[Character.TRAITOR]
        self.free = self.n - traitors  # positions 0..free-1 start face down, unmentioned

    def _mentions(self, token: str) -> int | None:
        m = _POSITIONAL.match(token)
        if m:
            return int(m.group(3))
        m = _SEEN.match(token)
        return int(m.group(1)) if m else None

    def relabeling(self, info: str) -> tuple[list[int], int]:
        """(real -> canonical position, number of free positions mentioned so far)."""
        mapping: dict[int, int] = {}
        for token in info.split("; ")[1:]:
            pos = self._mentions(token)
            if pos is not None and pos < self.free and pos not in mapping:
                mapping[pos] = len(mapping)
        mentioned = len(mapping)
        label = mentioned
        perm = []
        for pos in range(self.n):
            if pos >= self.free:
                perm.append(pos)
            elif pos in mapping:
                perm.append(mapping[pos])
            else:
                perm.append(label)
                label += 1
        return perm, mentioned

    def canonical_key(self, info: str, perm: list[int] | None = None) -> str:
        if perm is None:
            perm, _ = self.relabeling(info)
        head, *tokens = info.split("; ")
        out = [head]
        for token in tokens:
            m = _POSITIONAL.match(token)
            if m:
                out.append(f"{m.group(1)}:{m.group(2)} {perm[int(m.group(3))]}")
                continue
            m = _SEEN.match(token)
            if m:
                out.append(f"{perm[int(m.group(1))]}={m.group(2)}")
                continue
            out.append(token)
        return "; ".join(out)

    def canonical_action(self, action: int, perm: list[int]) -> int:
        if action < 4 * self.n:
            verb, pos = divmod(action, self.n)
            return verb * self.n + perm[pos]
        return action

    def lift(self, info: str, legal: list[int],
             canonical_probs: dict[int, float]) -> dict[int, float]:
        """Probabilities of the real legal actions at `info` from the canonical strategy.

        An action on a never-mentioned position gets the representative's probability
        divided by the number of never-mentioned positions (all equally legal).
        """
        perm, mentioned = self.relabeling(info)
        untouched = self.free - mentioned
        out = {}
        for a in legal:
            ca = self.canonical_action(a, perm)
            if ca < 4 * self.n and mentioned <= ca % self.n < self.free:
                rep = (ca // self.n) * self.n + mentioned
                out[a] = canonical_probs[rep] / untouched
            else:
                out[a] = canonical_probs[ca]
        return out
