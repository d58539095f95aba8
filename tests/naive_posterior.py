"""Plain-Python twin of the respond posterior (solver.knowledge.posterior), written from
its definition: enumerate every history of the OpenSpiel game from the start, weight
each by its chance probabilities and the claimant's probabilities of its own actions,
and at every response group the histories by the responder's information-state string.
It reads the peeked position and the claim from the action strings ("peek 2",
"announce Peasant") and the card from `state.cards`, never the core's state arrays, and
runs no filter along a history: one walk of the whole tree.

    table = posteriors(game, policy)   # {information-state string: P(claim false)}
"""

from __future__ import annotations


def posteriors(game, policy) -> dict[str, float]:
    """P(claim false) at every response information state of a small game, the
    claimant at each response playing `policy` (both seats' actions are weighted by
    `policy` where they claim; the responder's own actions by 1)."""
    sums: dict[str, list[float]] = {}

    def walk(state, weights, peek, said):
        # weights[p]: the history's chance probability times the actions of seat 1 - p
        # (what seat p, responding, weights it by)
        if state.is_terminal():
            return
        if state.is_chance_node():
            for b, q in state.chance_outcomes():
                walk(state.child(b), [w * q for w in weights], peek, said)
            return
        p = state.current_player()
        names = {a: state.action_to_string(p, a) for a in state.legal_actions()}
        if sorted(names.values()) == ["challenge", "pass"]:
            key = state.information_state_string(p)
            entry = sums.setdefault(key, [0.0, 0.0])
            entry[0] += weights[p]
            if state.cards[peek] != said:
                entry[1] += weights[p]
        probs = policy.action_probabilities(state, p)
        for a, text in names.items():
            q = probs.get(a, 0.0)
            nw = list(weights)
            nw[1 - p] *= q          # the other seat, answering later, weights p's action
            if all(w == 0.0 for w in nw):
                continue
            word, _, rest = text.partition(" ")
            walk(state.child(a), nw,
                 int(rest) if word == "peek" else peek,
                 rest if word == "announce" else said)

    walk(game.new_initial_state(), [1.0, 1.0], -1, None)
    return {key: f / t for key, (t, f) in sums.items() if t > 0.0}
