"""Plain-Python twin of a seat's belief about the cards (docs/sound-play.md, "The
belief"), written from the document: it reads the seat's information-state string
(through the abstraction's twin, tests/naive_abstraction.py, which rebuilds the seat's
candidate sets, the public claims and its team's signals token by token), never the
core's state nor the kernel's knowledge array, and sums the weights of every
arrangement of the deck's remaining cards over the positions the seat cannot place by a
memoised recursion (each position in turn, the multiset of cards still to place as the
memo key) that carries each arrangement's per-position counts along.

A claim also counts `weight` times `trickster` for the Trickster at its position unless
it was made over the public count: when it was made, the deck's copies of its character
were all face up or claimed at other face-down positions. The twin finds that by
replaying the round's prefixes and reading, right after each announcement, the seat's
observation string (the face-up cards) and information-state string (the claims).

    probabilities = belief(state, seat, weight, trickster)    # [position][character]
    (trickster: one share for every character, or a list of one per character)
"""

from __future__ import annotations

from functools import lru_cache

from naive_abstraction import CHAR_ID, _read

NUM_CHARACTERS = 10
TRICKSTER = CHAR_ID["Trickster"]
NAMES_BY_ID = {i: name for name, i in CHAR_ID.items()}


def _exact(mask: int) -> int:
    return mask.bit_length() - 1 if mask and mask & (mask - 1) == 0 else -1


def claims_over_count(state, seat: int) -> dict[int, bool]:
    """Position -> whether the last claim made there was over the public count (module
    docstring), from the strings `seat` read right after each announcement."""
    game = state.get_game()
    counts = [int(c) for c in game.variant.counts]
    replay = game.new_initial_state()
    over = {}
    for action in state.history():
        said = None
        if not replay.is_chance_node():
            text = replay.action_to_string(replay.current_player(), action)
            if text.startswith("announce "):
                said = CHAR_ID[text.split(" ", 1)[1]]
        replay.apply_action(action)
        if said is None or replay.is_terminal():
            continue
        _, now, view, turn = _read(replay, seat)
        cells = replay.observation_string(seat).split(" | ")[2].split()
        seen = 0
        for q, cell in enumerate(cells):
            if q == turn.peek:
                continue
            if now.face_up[q]:
                seen += cell.split(":")[1] == NAMES_BY_ID[said]
            else:
                seen += view.claim[q] == said
        over[turn.peek] = seen >= counts[said]
    return over


def belief(state, seat: int, weight: float, trickster=0.0) -> list[list[float]]:
    """trickster: one share for every claimed character, or a list of one per character."""
    variant, _, view, _ = _read(state, seat)
    liar = list(trickster) if isinstance(trickster, (list, tuple)) else \
        [trickster] * NUM_CHARACTERS
    over = claims_over_count(state, seat) if max(liar) > 0.0 else {}
    n = variant.num_positions
    counts = [int(c) for c in variant.counts]
    out = [[0.0] * NUM_CHARACTERS for _ in range(n)]
    unknown = []
    for p in range(n):
        c = _exact(view.cand[p])
        if c >= 0:
            out[p][c] = 1.0
            counts[c] -= 1
        else:
            unknown.append(p)
    evidence = {}
    for p in unknown:
        w = [1.0] * NUM_CHARACTERS
        if view.claim[p] >= 0:
            w[view.claim[p]] *= weight
            if liar[view.claim[p]] > 0.0 and view.claim[p] != TRICKSTER and not over[p]:
                w[TRICKSTER] *= weight * liar[view.claim[p]]
        if view.signal[p] >= 0:
            w[view.signal[p]] *= weight
        evidence[p] = w
    if min(counts) < 0 or sum(counts) != len(unknown):
        return None   # no arrangement: the kernel falls back to the masks alone

    @lru_cache(maxsize=None)
    def ways(i: int, left: tuple) -> tuple:
        """(total weight, per (unknown index, character) weight) of the arrangements of
        the multiset `left` over unknown[i:]."""
        if i == len(unknown):
            return 1.0, ()
        p = unknown[i]
        total, marginal = 0.0, {}
        for c in range(NUM_CHARACTERS):
            if not (view.cand[p] >> c) & 1 or left[c] == 0:
                continue
            rest = list(left)
            rest[c] -= 1
            z, sub = ways(i + 1, tuple(rest))
            w = evidence[p][c] * z
            if w == 0.0:
                continue
            total += w
            marginal[(i, c)] = marginal.get((i, c), 0.0) + w
            for key, value in sub:
                marginal[key] = marginal.get(key, 0.0) + evidence[p][c] * value
        return total, tuple(marginal.items())

    z, marginal = ways(0, tuple(counts))
    if z == 0.0:
        return None
    for (i, c), value in marginal:
        out[unknown[i]][c] = value / z
    return out
