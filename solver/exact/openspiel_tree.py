"""Build a FlatTree from any OpenSpiel game of sequential moves by walking its states:
two-player zero-sum games keep player 0's payoff only, others every player's.

Slow (a Python call per node) but generic: it is how the solver is tested on games it
knows nothing about (Kuhn and Leduc poker) and cross-checked against OpenSpiel on small
Robin Wood decks. Large Robin Wood trees come from `solver.exact.robinwood_tree` instead.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from solver.exact.tree import (CHANCE, DECISION, TERMINAL, FlatTree, action_dtype, count_dtype,
                               index_dtype, payoff_array)


def build_from_openspiel(game: pyspiel.Game, max_nodes: int = 5_000_000) -> FlatTree:
    """The full tree of a sequential game; infosets keyed by information strings."""
    game_type = game.get_type()
    if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(f"the solver needs a sequential game (got {game_type.dynamics}); "
                         f"convert a simultaneous one with pyspiel.convert_to_turn_based")
    players = game.num_players()
    zero_sum_pair = players == 2 and game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    kind, player, infoset, first, count, prob, payoff = [], [], [], [], [], [], []
    returns: dict[int, list[float]] = {}
    set_index: dict[str, int] = {}
    set_player: list[int] = []
    set_actions: list[list[int]] = []

    def add(state, edge_p):
        kind.append(0); player.append(-1); infoset.append(-1)
        first.append(0); count.append(0); prob.append(edge_p); payoff.append(0.0)
        return state

    frontier = [(0, add(game.new_initial_state(), 1.0))]
    while frontier:
        node, state = frontier.pop()
        if state.is_terminal():
            kind[node] = TERMINAL
            returns[node] = state.returns()
            payoff[node] = returns[node][0]
            continue
        if state.is_chance_node():
            kind[node] = CHANCE
            branches = state.chance_outcomes()
        else:
            p = state.current_player()
            key = state.information_state_string(p)
            legal = state.legal_actions()
            if key not in set_index:
                set_index[key] = len(set_player)
                set_player.append(p)
                set_actions.append(legal)
            elif set_actions[set_index[key]] != legal:
                raise ValueError(f"infoset {key!r} has two different legal action sets")
            kind[node], player[node], infoset[node] = DECISION, p, set_index[key]
            branches = [(a, 1.0) for a in legal]
        first[node], count[node] = len(kind), len(branches)
        if len(kind) + len(branches) > max_nodes:
            raise MemoryError(f"the tree has more than {max_nodes} nodes")
        children = [(len(kind) + i, a, q) for i, (a, q) in enumerate(branches)]
        for _, a, q in children:
            add(None, q)
        for child, a, q in reversed(children):
            frontier.append((child, state.child(a)))

    n_slots = sum(len(a) for a in set_actions)
    num_actions = np.array([len(a) for a in set_actions],
                           dtype=count_dtype(max(map(len, set_actions), default=0)))
    all_actions = [a for acts in set_actions for a in acts]
    keys = list(set_index)
    payoffs = None
    if not zero_sum_pair:
        payoffs = np.zeros((players, len(kind)))
        for node, r in returns.items():
            payoffs[:, node] = r
    tree = FlatTree(
        kind=np.array(kind, dtype=np.int8),
        player=np.array(player, dtype=np.int8),
        infoset=np.array(infoset, dtype=np.int32),
        first_child=np.array(first, dtype=index_dtype(len(kind))),
        num_children=np.array(count, dtype=count_dtype(max(count, default=0))),
        edge_prob=np.array(prob, dtype=np.float64),
        payoff=payoff_array(np.array(payoff, dtype=np.float64)) if payoffs is None
        else payoffs[0].copy(),
        infoset_player=np.array(set_player, dtype=np.int8),
        infoset_offset=np.concatenate(([0], np.cumsum(num_actions, dtype=np.int64)[:-1]))
        .astype(index_dtype(n_slots)),
        infoset_num_actions=num_actions,
        infoset_actions=np.array(all_actions, dtype=action_dtype(max(all_actions, default=0))),
        infoset_key=keys,
        description=str(game),
        payoffs=payoffs,
    )
    tree.validate()
    return tree
