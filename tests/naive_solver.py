"""Plain-Python twins of the solver (solver/exact/cfr.py, solver/exact/best_response.py), written from
the update rules as the papers state them, never from solver/exact/_kernels.py.

Slow and obvious on purpose: a game tree of nested `Node` objects, recursion, and dicts
keyed by information-state string and game action id. The twins never see node ids,
infoset ids or action slots, so a test that compares them with the numba kernels checks
the flat layout too. tests/test_solver.py compares the two.

A strategy here is `{info_state_string: {action: probability}}`.

The iteration (one per call of `NaiveCFR.iteration`), for t = 1, 2, ...:

    for p in (0, 1, ..., N-1):                        # alternating updates
        walk the tree with the current strategy; at each of p's nodes h in infoset I
            instant[I][a]  += pi_-p(h) * (v_p(h a) - v_p(h))   # counterfactual regret
            strat_sum[I][a] += w(t) * pi_p(h) * sigma(I)[a]
        then at each of p's infosets I, for each action a:
            cfr    R = R + r                                       w(t) = 1
            cfr+   R = max(R + r, 0)                               w(t) = t
            dcfr   R = R + r; R *= t^a/(t^a+1) if R > 0 else t^b/(t^b+1);
                   strat_sum *= (t/(t+1))^g                        w(t) = 1
            pcfr+  R = max(R + r, 0); m = r                        w(t) = t^2
        and sigma(I) = regret matching on R (pcfr+: on R + m), uniform if no positive.

References: Zinkevich et al. 2007 (CFR), Tammelin 2014 (CFR+), Brown & Sandholm 2019
(DCFR; linear CFR = DCFR(1, 1, 1)), Farina, Kroer & Sandholm 2021 (PCFR+).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

TERMINAL, CHANCE, DECISION = "terminal", "chance", "decision"

# name -> (rule, alpha, beta, gamma); the same table as in the papers cited above.
ALGORITHMS = {
    "cfr": ("cfr", 0.0, 0.0, 0.0),
    "cfr+": ("cfr+", 0.0, 0.0, 0.0),
    "lcfr": ("dcfr", 1.0, 1.0, 1.0),
    "dcfr": ("dcfr", 1.5, 0.0, 2.0),
    "pcfr+": ("pcfr+", 0.0, 0.0, 0.0),
}


@dataclass
class Node:
    kind: str
    player: int = -1                   # acting player at decisions
    key: str | None = None             # information-state string at decisions
    actions: list[int] = field(default_factory=list)   # game action ids, child order
    probs: list[float] = field(default_factory=list)   # chance probabilities
    children: list["Node"] = field(default_factory=list)
    payoff: float = 0.0                # player 0's payoff at terminals
    payoffs: tuple = ()                # every player's payoff at terminals
    players: int = 2                   # the game's number of players (every node)


# ----- trees ---------------------------------------------------------------------------
def from_openspiel(game) -> Node:
    """The game tree read straight from pyspiel states (no FlatTree involved)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def walk(state) -> Node:
        if state.is_terminal():
            returns = tuple(float(x) for x in state.returns())
            return Node(TERMINAL, payoff=returns[0], payoffs=returns, players=n)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            return Node(CHANCE, players=n, actions=[a for a, _ in outcomes],
                        probs=[q for _, q in outcomes],
                        children=[walk(state.child(a)) for a, _ in outcomes])
        p = state.current_player()
        legal = list(state.legal_actions())
        return Node(DECISION, player=p, key=state.information_state_string(p),
                    players=n, actions=legal,
                    children=[walk(state.child(a)) for a in legal])

    n = game.num_players()
    return walk(game.new_initial_state())


def from_flat(tree) -> Node:
    """The same nested form read from a FlatTree's arrays (reads fields only)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    keys = [tree.key(s) for s in range(tree.num_infosets)]
    players = 2 if tree.payoffs is None else int(tree.payoffs.shape[0])

    def walk(n: int) -> Node:
        kind = int(tree.kind[n])
        first, count = int(tree.first_child[n]), int(tree.num_children[n])
        kids = list(range(first, first + count))
        if kind == 0:
            x = float(tree.payoff[n])
            returns = ((x, -x) if tree.payoffs is None
                       else tuple(float(v) for v in tree.payoffs[:, n]))
            return Node(TERMINAL, payoff=x, payoffs=returns, players=players)
        if kind == 1:
            return Node(CHANCE, players=players, actions=list(range(count)),
                        probs=[float(tree.edge_prob[c]) for c in kids],
                        children=[walk(c) for c in kids])
        s = int(tree.infoset[n])
        off = int(tree.infoset_offset[s])
        actions = [int(a) for a in tree.infoset_actions[off:off + count]]
        return Node(DECISION, player=int(tree.player[n]), key=keys[s], actions=actions,
                    players=players, children=[walk(c) for c in kids])

    return walk(0)


def infosets(root: Node) -> dict[str, tuple[int, list[int]]]:
    """key -> (player, legal actions), over the whole tree."""
    out: dict[str, tuple[int, list[int]]] = {}

    def walk(node: Node) -> None:
        if node.kind == DECISION:
            out.setdefault(node.key, (node.player, node.actions))
        for child in node.children:
            walk(child)

    walk(root)
    return out


def uniform(root: Node) -> dict[str, dict[int, float]]:
    return {key: {a: 1.0 / len(acts) for a in acts}
            for key, (_, acts) in infosets(root).items()}


# ----- conversions with the solver's per-slot arrays ----------------------------------
def to_dict(tree, values) -> dict[str, dict[int, float]]:
    """Per-slot array of a FlatTree -> {key: {action: value}}."""
    out = {}
    for s in range(tree.num_infosets):
        off, k = int(tree.infoset_offset[s]), int(tree.infoset_num_actions[s])
        out[tree.key(s)] = {int(a): float(v) for a, v in
                            zip(tree.infoset_actions[off:off + k], values[off:off + k])}
    return out


def to_array(tree, table: dict[str, dict[int, float]]):
    import numpy as np
    out = np.zeros(tree.num_action_slots)
    for s in range(tree.num_infosets):
        off, k = int(tree.infoset_offset[s]), int(tree.infoset_num_actions[s])
        row = table[tree.key(s)]
        for i in range(k):
            out[off + i] = row[int(tree.infoset_actions[off + i])]
    return out


# ----- expected value and best response ------------------------------------------------
def expected_value(root: Node, strategy, player: int = 0) -> float:
    """`player`'s expected payoff when every player follows `strategy`."""
    def value(node: Node) -> float:
        if node.kind == TERMINAL:
            return node.payoffs[player]
        if node.kind == CHANCE:
            return sum(q * value(c) for q, c in zip(node.probs, node.children))
        row = strategy[node.key]
        return sum(row[a] * value(c) for a, c in zip(node.actions, node.children))

    return value(root)


def best_response_value(root: Node, strategy, b: int) -> float:
    """Value, to player b (b's own payoff), of b's best response to the other players'
    part of `strategy`: the textbook recursion over infosets. At an infoset I of b the
    chosen action maximises sum over h in I of (chance x opponent reach of h) x value of
    h's child; values below are those of b's best responses deeper down (well defined
    under perfect recall)."""
    members: dict[str, list[tuple[float, Node]]] = {}   # key -> [(reach_-b(h), h)]

    def collect(node: Node, reach: float) -> None:
        if node.kind == TERMINAL:
            return
        if node.kind == CHANCE:
            for q, c in zip(node.probs, node.children):
                collect(c, reach * q)
            return
        if node.player == b:
            members.setdefault(node.key, []).append((reach, node))
            for c in node.children:
                collect(c, reach)
        else:
            row = strategy[node.key]
            for a, c in zip(node.actions, node.children):
                collect(c, reach * row[a])

    collect(root, 1.0)
    node_value: dict[int, float] = {}
    choice: dict[str, int] = {}

    def best(key: str) -> int:
        if key not in choice:
            nodes = members[key]
            k = len(nodes[0][1].children)
            totals = [sum(r * value(h.children[i]) for r, h in nodes) for i in range(k)]
            choice[key] = max(range(k), key=lambda i: totals[i])
        return choice[key]

    def value(node: Node) -> float:
        if id(node) in node_value:
            return node_value[id(node)]
        if node.kind == TERMINAL:
            v = node.payoffs[b]
        elif node.kind == CHANCE:
            v = sum(q * value(c) for q, c in zip(node.probs, node.children))
        elif node.player == b:
            v = value(node.children[best(node.key)])
        else:
            row = strategy[node.key]
            v = sum(row[a] * value(c) for a, c in zip(node.actions, node.children))
        node_value[id(node)] = v
        return v

    return value(root)


def nash_conv(root: Node, strategy) -> float:
    """Sum over players of what a best response gains over `strategy` (for two players
    zero-sum the two values cancel, leaving the sum of the best-response values)."""
    return sum(best_response_value(root, strategy, p) - expected_value(root, strategy, p)
               for p in range(root.players))


# ----- the CFR family ------------------------------------------------------------------
class NaiveCFR:
    """One of cfr, cfr+, lcfr, dcfr, pcfr+ with alternating updates, over a `Node` tree."""

    def __init__(self, root: Node, name: str):
        self.root = root
        self.rule, self.alpha, self.beta, self.gamma = ALGORITHMS[name]
        self.sets = infosets(root)
        self.t = 0
        self.regret = {k: {a: 0.0 for a in acts} for k, (_, acts) in self.sets.items()}
        self.last = {k: {a: 0.0 for a in acts} for k, (_, acts) in self.sets.items()}
        self.strategy_sum = {k: {a: 0.0 for a in acts}
                             for k, (_, acts) in self.sets.items()}
        self.current = uniform(root)

    def weight(self, t: int) -> float:
        return {"cfr+": float(t), "pcfr+": float(t) ** 2}.get(self.rule, 1.0)

    def iteration(self) -> None:
        self.t += 1
        t = self.t
        for p in range(self.root.players):
            instant = {k: {a: 0.0 for a in acts}
                       for k, (q, acts) in self.sets.items() if q == p}
            self._walk(self.root, p, 1.0, 1.0, instant, self.weight(t))
            for key, row in instant.items():
                regret = self.regret[key]
                for a, r in row.items():
                    total = regret[a] + r
                    if self.rule in ("cfr+", "pcfr+"):
                        total = max(total, 0.0)
                    elif self.rule == "dcfr":
                        if total > 0:
                            total *= t ** self.alpha / (t ** self.alpha + 1)
                        else:
                            total *= t ** self.beta / (t ** self.beta + 1)
                        self.strategy_sum[key][a] *= (t / (t + 1)) ** self.gamma
                    regret[a] = total
                    self.last[key][a] = r
                if self.rule == "pcfr+":
                    target = {a: regret[a] + self.last[key][a] for a in regret}
                else:
                    target = regret
                self.current[key] = regret_matching(target)

    def _walk(self, node: Node, p: int, own: float, other: float, instant, w) -> float:
        """Player p's value of `node` under the current strategy; `own` is p's reach,
        `other` the other players' times chance's."""
        if node.kind == TERMINAL:
            return node.payoffs[p]
        if node.kind == CHANCE:
            return sum(q * self._walk(c, p, own, other * q, instant, w)
                       for q, c in zip(node.probs, node.children))
        row = self.current[node.key]
        if node.player != p:
            return sum(row[a] * self._walk(c, p, own, other * row[a], instant, w)
                       for a, c in zip(node.actions, node.children))
        values = {a: self._walk(c, p, own * row[a], other, instant, w)
                  for a, c in zip(node.actions, node.children)}
        v = sum(row[a] * values[a] for a in node.actions)
        for a in node.actions:
            instant[node.key][a] += other * (values[a] - v)
            self.strategy_sum[node.key][a] += w * own * row[a]
        return v

    def average(self) -> dict[str, dict[int, float]]:
        out = {}
        for key, row in self.strategy_sum.items():
            total = sum(row.values())
            out[key] = ({a: x / total for a, x in row.items()} if total > 0
                        else {a: 1.0 / len(row) for a in row})
        return out


def regret_matching(regret: dict[int, float]) -> dict[int, float]:
    positive = {a: max(r, 0.0) for a, r in regret.items()}
    total = sum(positive.values())
    if total > 0:
        return {a: r / total for a, r in positive.items()}
    return {a: 1.0 / len(regret) for a in regret}
