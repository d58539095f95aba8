"""The re-solver as a player: a blueprint table that re-solves each of its decisions.

`Resolver(blueprint, config)` answers, for a history (core action ids, chance
included) that ends at a decision, the root strategy of the re-solved public state at
the deciding seat's information set (solver.search.resolve); `action` samples it.
Everything it computes comes from the public record and the deciding seat's own
observations: the ranges follow the public record, a resampling and the rollouts draw
from the seed and the public state only. So two histories the seat cannot tell apart
get the same strategy, which makes it a behaviour strategy: `search_policy` offers it
as an OpenSpiel `Policy` (one re-solve per information state, cached), for OpenSpiel's
own `exploitability` on small decks.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
from open_spiel.python import policy as os_policy

from game_def import kernels as k
from game_def.core import rules_array

from solver.players import kernels as ka
from solver.players.agents import Agent, AgentError, load_table_agent
from solver.search import ranges
from solver.search.resolve import LeafValues, ResolveConfig, solve


@dataclasses.dataclass
class Decision:
    """One re-solved decision: the strategy played and what it cost."""

    actions: np.ndarray
    probs: np.ndarray
    roots: int              # histories in the subgame's root (after any resampling)
    resampled: int          # public states on the way that were resampled
    nodes: int              # subgame size (0: a forced move, not solved)
    horizon: int
    seconds: float
    lost: bool = False      # the ranges lost the seat's own histories: blueprint move


class Resolver:
    """A table agent that re-solves every decision (module docstring)."""

    def __init__(self, blueprint: Agent, config: ResolveConfig = ResolveConfig(),
                 seed: int = 0):
        if blueprint.kind != ka.TABLE or blueprint.variant is None:
            raise AgentError(f"{blueprint.name} is a bot: re-solving needs a Monte Carlo "
                             f"CFR table as its blueprint (a run directory)")
        variant = blueprint.variant
        if variant.players != 2 or variant.teams:
            raise AgentError(f"re-solving plays two-player rounds, not {variant}")
        if config.own_range != "blueprint":
            raise AgentError("the re-solver plays with its blueprint's own range; "
                             "own_range='played' is measured on small decks only "
                             "(solver.evaluation.resolve_exact)")
        self.blueprint = blueprint
        self.config = config
        self.variant = variant
        self.seed = int(seed)
        self.rules = rules_array(variant)
        self.layout = ranges.token_layout(variant)
        self.values = LeafValues(blueprint, config, seed=self.seed)
        self.seats = blueprint.seats()
        self.name = f"{blueprint.name}+resolve"

    def decide(self, history) -> Decision:
        """The re-solved strategy at the decision that ends `history`."""
        start = time.perf_counter()
        history = [int(a) for a in history]
        state = self.rules_state(history)
        legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
        m = k.legal_actions(state, self.rules, legal)
        if m == 1:
            return Decision(legal[:1].copy(), np.ones(1), 0, 0, 0, 0,
                            time.perf_counter() - start)
        c = self.config
        seat = int(k.current_player(state))
        try:
            roots, own, resampled = ranges.roots_of(self.rules, self.layout, self.seats,
                                                    history, c.range_eps, c.max_roots,
                                                    self.seed)
            lost = not (roots.hashes[:, seat] == own[seat]).any()
        except ranges.RangeLost:
            roots, resampled, lost = None, -1, True
        if lost:
            # the resampled ranges lost every history the seat itself could be in (an
            # observation was impossible in all of them): the blueprint moves
            probs = np.empty(k.MAX_LEGAL)
            m, _ = ka.replay_probs(self.rules, np.array(history, dtype=np.int64),
                                   self.blueprint.player(seat), legal, probs)
            return Decision(legal[:m].copy(), probs[:m] / probs[:m].sum(),
                            0 if roots is None else len(roots), resampled, 0, 0,
                            time.perf_counter() - start, lost=True)
        key = int(own[ranges.rk.PUBLIC] & np.uint64(2**62 - 1))
        solved = solve(self.rules, self.layout, roots, c, self.values, seed=key)
        actions, probs = solved.strategy(own[seat])
        probs = np.maximum(probs, 0.0)
        return Decision(actions, probs / probs.sum(), len(roots), resampled, solved.nodes,
                        solved.horizon, time.perf_counter() - start)

    def rules_state(self, history) -> np.ndarray:
        state = k.initial_state(self.rules)
        legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
        probs = np.empty(k.MAX_CHANCE_OUTCOMES)
        for a in history:
            cur = k.current_player(state)
            if cur == k.TERMINAL_PLAYER:
                raise AgentError("the history goes on past the end of the round")
            m = k.legal_actions(state, self.rules, legal) if cur >= 0 else \
                k.chance_outcomes(state, self.rules, legal, probs)
            if a not in legal[:m]:
                raise AgentError(f"action {a} is not legal where the history plays it")
            k.apply_action(state, self.rules, a)
        if k.current_player(state) < 0:
            raise AgentError("the history must end at a player's decision")
        return state

    def action(self, history, seed: int = 0) -> int:
        """An action drawn from the re-solved strategy (the draw from `seed`)."""
        d = self.decide(history)
        rng = np.random.default_rng(np.random.SeedSequence(int(seed)))
        return int(d.actions[rng.choice(len(d.actions), p=d.probs)])


class ResolverPolicy(os_policy.Policy):
    """The re-solver as an OpenSpiel policy of both seats: one re-solve per information
    state string, cached (the re-solver depends on nothing else)."""

    def __init__(self, game, resolver: Resolver):
        super().__init__(game, [0, 1])
        variant = getattr(game, "variant", None)
        if variant != resolver.variant:
            raise AgentError(f"{resolver.name} plays {resolver.variant}, not {variant}")
        self.resolver = resolver
        self._cache: dict[str, dict[int, float]] = {}

    def action_probabilities(self, state, player_id=None):
        key = state.information_state_string()
        if key not in self._cache:
            d = self.resolver.decide(state.history())
            self._cache[key] = {int(a): float(p) for a, p in zip(d.actions, d.probs)}
        return self._cache[key]


def search_policy(run_dir, game=None, **options) -> ResolverPolicy:
    """The re-solver of the run in `run_dir` (its table with its fallback rules as the
    blueprint) as an OpenSpiel Policy. `options` are ResolveConfig fields, plus `seed`;
    `game`: the OpenSpiel game (default: the run's variant loaded as robin_wood)."""
    seed = int(options.pop("seed", 0))
    resolver = Resolver(load_table_agent(run_dir), ResolveConfig(**options), seed)
    if game is None:
        import pyspiel

        import game_def  # noqa: F401  (registers robin_wood)

        game = pyspiel.load_game("robin_wood", resolver.variant.to_params())
    return ResolverPolicy(game, resolver)


@dataclasses.dataclass
class ResolverMatch:
    """The re-solver against one opponent in both seats, with its decision times."""

    result: "SearchResult"
    seconds: list            # per re-solved decision (forced moves excluded)

    def to_json(self) -> dict:
        out = self.result.to_json()
        times = np.array(self.seconds) if self.seconds else np.zeros(1)
        out.update(decisions=len(self.seconds), median_seconds=float(np.median(times)),
                   p95_seconds=float(np.percentile(times, 95)))
        return out


def play_resolver(resolver: Resolver, opponent, *, rounds: int = 20, seed: int = 0,
                  workers: int = 2) -> ResolverMatch:
    """`rounds` rounds a seat of the re-solver against `opponent`: an Agent (its
    probabilities, drawn) or any object with `action(history, seed) -> int` (another
    re-solver, the one-step searcher through `solver.search.search_action`). Chance and
    every draw come from `seed`; one thread per seat when workers >= 2."""
    from solver.jobs import in_both_seats
    from solver.search.searcher import SearchResult, SearchSeat

    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise AgentError(f"rounds must be a positive integer, got {rounds!r}")
    rules = resolver.rules
    seeds = np.random.SeedSequence(int(seed)).spawn(2)
    tallies = [[0, 0, 0, 0.0] for _ in (0, 1)]
    times: list[list[float]] = [[], []]
    lost = [0, 0]

    def opponent_action(history, seat, rng):
        if isinstance(opponent, Agent):
            legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
            probs = np.empty(k.MAX_LEGAL)
            m, _ = ka.replay_probs(rules, np.array(history, dtype=np.int64),
                                   opponent.player(seat), legal, probs)
            p = probs[:m] / probs[:m].sum()
            return int(legal[rng.choice(m, p=p)])
        return int(opponent.action(history, int(rng.integers(2**62))))

    def run(seat: int) -> None:
        rng = np.random.default_rng(seeds[seat])
        start = time.perf_counter()
        legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
        probs = np.empty(k.MAX_CHANCE_OUTCOMES)
        for _ in range(int(rounds)):
            state = k.initial_state(rules)
            history: list[int] = []
            while state[k.S_PHASE] != k.PH_TERMINAL:
                cur = k.current_player(state)
                if cur == k.CHANCE_PLAYER:
                    m = k.chance_outcomes(state, rules, legal, probs)
                    a = int(legal[rng.choice(m, p=probs[:m] / probs[:m].sum())])
                elif cur == seat:
                    d = resolver.decide(history)
                    if d.nodes:
                        times[seat].append(d.seconds)
                    lost[seat] += d.lost
                    a = int(d.actions[rng.choice(len(d.actions), p=d.probs)])
                else:
                    a = opponent_action(history, cur, rng)
                history.append(a)
                k.apply_action(state, rules, a)
            w = state[k.S_WINNER]
            t = tallies[seat]
            if w < 0:
                t[1] += 1
            elif w == seat:
                t[0] += 1
            else:
                t[2] += 1
        tallies[seat][3] = time.perf_counter() - start

    in_both_seats(run, workers)
    seats = tuple(SearchSeat(s, int(rounds), t[0], t[1], t[2], t[3],
                             {"decisions": len(times[s]), "belief_lost": lost[s]})
                  for s, t in enumerate(tallies))
    name = getattr(opponent, "name", type(opponent).__name__)
    return ResolverMatch(SearchResult(resolver.name, name, int(seed), seats),
                         times[0] + times[1])


class SearcherPlayer:
    """The one-step searcher (solver.search.searcher) as `play_resolver` takes it."""

    def __init__(self, searcher):
        self.searcher = searcher
        self.name = searcher.name

    def action(self, history, seed: int) -> int:
        from solver.search.searcher import search_action

        return search_action(self.searcher, history, seed)
