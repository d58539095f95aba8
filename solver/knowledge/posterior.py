"""The exact probability that a claim is false, for the seat that must answer it, when
the claimant plays a known strategy (docs/search.md, "Responses from a posterior").

At a response the responder has seen a history: its own actions, the public actions,
and the cards it peeked. The claimant has seen more: the cards it peeked in private,
and a Witch's choice. Bayes over everything the responder cannot see: every history
the responder cannot tell from the one it saw is weighted by its chance probabilities
and by the claimant's probabilities of its own actions along it (the responder's own
actions are the same in all of them and cancel), and the posterior is the weight of
those where the peeked card is not the one announced.

The histories are enumerated by a filter run along the observed history: each step
extends every world by every outcome (a chance outcome, or every action the claimant
could have taken, with its probability), and keeps the extensions whose information
state for the responder (the game's `information_state_string`) equals the observed
one. Exact, and exponential in what the responder cannot see: for the reduced decks the
exact solver handles (rspx:max_turns=2 or 3) and the first turns of larger ones. The
play-time searcher's particle belief approximates it with the blueprint as the
claimant's strategy (solver.search.searcher.respond_belief).

The claimant's strategy is an OpenSpiel policy of the robin_wood game: any object with
`action_probabilities(state, player_id)`; an exact strategy is one through
`solver.exact.policy.StrategyPolicy.from_tree`, a table agent through
`solver.players.AgentPolicy`.
"""

from __future__ import annotations

from game_def import kernels as k
from game_def.errors import RobinWoodError


def claim_is_false(state) -> bool:
    """Whether the claim pending at the response `state` (a robin_wood OpenSpiel state)
    is false: the peeked card is not the announced character."""
    core = state.core_state
    if core[k.S_PHASE] != k.PH_RESPOND:
        raise RobinWoodError("claim_is_false needs a state at a response to a claim")
    return bool(core[k.S_CARD + core[k.S_PEEK_POS]] != core[k.S_ANNOUNCED])


def respond_posterior(state, claimant_policy, max_worlds: int = 2_000_000) -> float:
    """P(the claim pending at `state` is false | what the responder has observed),
    the claimant playing `claimant_policy` (module docstring). `state` is a robin_wood
    OpenSpiel state whose current decision is a response to a claim; only what the
    responder observed of it is used."""
    core = state.core_state
    if state.is_terminal() or state.is_chance_node() or core[k.S_PHASE] != k.PH_RESPOND:
        raise RobinWoodError("respond_posterior needs a state at a response to a claim "
                             "(a decision after an announcement)")
    game = state.get_game()
    responder = state.current_player()
    if game.num_players() != 2:
        raise RobinWoodError(f"respond_posterior reads two-player rounds, not "
                             f"{game.num_players()} players")
    history = state.history()
    observed = game.new_initial_state()
    worlds = [(game.new_initial_state(), 1.0)]
    for action in history:
        grown = []
        for world, w in worlds:
            if world.is_chance_node():
                grown += [(world.child(b), w * p) for b, p in world.chance_outcomes()
                          if p > 0.0]
            elif world.current_player() == responder:
                grown.append((world.child(action), w))
            else:
                probs = claimant_policy.action_probabilities(world, world.current_player())
                grown += [(world.child(b), w * p) for b, p in probs.items() if p > 0.0]
        observed.apply_action(action)
        seen = observed.information_state_string(responder)
        worlds = [(s, w) for s, w in grown if s.information_state_string(responder) == seen]
        if len(worlds) > max_worlds:
            raise RobinWoodError(f"more than {max_worlds} histories match what seat "
                                 f"{responder} saw: the exact posterior is for small decks")
    total = sum(w for _, w in worlds)
    if not total > 0.0:
        raise RobinWoodError("the claimant's strategy gives this history probability 0: "
                             "no posterior (give a strategy that can reach it)")
    return sum(w for s, w in worlds if claim_is_false(s)) / total
