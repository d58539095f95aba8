"""Play-time search: a blueprint table that looks one step ahead at its own decisions.

At a searched decision the seat keeps a particle belief over the hidden cards and what
the opponent has seen, reweighted at each opponent action by the blueprint's own
probabilities in the opponent's seat (the opponent is a black box: the searcher reads
only its own table), mixed with uniform at rate `model_eps` so that an opponent who
plays what the blueprint never would still leaves a belief. Each legal action (position
actions grouped by what the seat knows of them) is applied in particles drawn from the
belief and the round is finished by the blueprint in both seats; the opponent's
continuation is the blueprint and each of its `tilts` (the blueprint with one action's
probability multiplied, as the biased continuation strategies of depth-limited solving,
Brown, Sandholm and Amos 2018), and an action's score is its least value over them. The
best-scoring action is played. Undecided kinds of decisions (`kinds`) are played by the
blueprint. The kernels are those of the local best response (solver.search._kernels);
docs/search.md gives the method, its choices and what it measured.
"""

from __future__ import annotations

import dataclasses
import math
import time

import numpy as np

from game_def import kernels as k
from game_def.core import rules_array

from solver.jobs import in_both_seats
from solver.players import kernels as ka
from solver.players.agents import Agent, AgentError
from solver.search import kernels as ks
from solver.search.settings import DECISION_KINDS, config_array, max_steps

Z95 = 1.959964   # as solver.evaluation.tournament, which sits above this package
# the actions a tilt may bias, by name: their code above the position actions
TILT_ACTIONS = {"challenge": k.A_CHALLENGE, "pass": k.A_PASS, "announce": k.A_ANNOUNCE,
                "silent": k.A_SILENT}


@dataclasses.dataclass(frozen=True)
class SearchConfig:
    """How the searcher looks ahead. The defaults are the settings docs/search.md
    measured best on the standard deck."""

    particles: int = 128
    rollouts: int = 24
    model_eps: float = 0.05
    tilts: tuple = (("challenge", 5.0), ("announce", 5.0))
    kinds: tuple = ("turn", "power")

    def __post_init__(self):
        for name in ("particles", "rollouts"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or \
                    not 1 <= value <= 1_000_000:
                raise AgentError(f"search {name} must be an integer from 1 to 1000000, "
                                 f"got {value!r}")
        if not 0.0 <= self.model_eps <= 1.0:  # nan fails too
            raise AgentError(f"search model_eps must be a probability in [0, 1], got "
                             f"{self.model_eps!r}")
        for tilt in self.tilts:
            if len(tilt) != 2 or tilt[0] not in TILT_ACTIONS:
                raise AgentError(f"a search tilt is (action, factor) with action one of "
                                 f"{', '.join(TILT_ACTIONS)}; got {tilt!r}")
            if not 0.0 < float(tilt[1]) < 1e9:
                raise AgentError(f"the factor of tilt {tilt[0]} must be positive and "
                                 f"finite, got {tilt[1]!r}")
        unknown = [kd for kd in self.kinds if kd not in DECISION_KINDS]
        if unknown or len(set(self.kinds)) != len(self.kinds):
            raise AgentError(f"search kinds must be distinct names among "
                             f"{', '.join(DECISION_KINDS)}; got {', '.join(self.kinds)}")

    def to_json(self) -> dict:
        return {"particles": self.particles, "rollouts": self.rollouts,
                "model_eps": self.model_eps, "tilts": [list(t) for t in self.tilts],
                "kinds": list(self.kinds)}


class Searcher:
    """A blueprint table agent with play-time search (module docstring)."""

    def __init__(self, blueprint: Agent, config: SearchConfig = SearchConfig()):
        if blueprint.kind != ka.TABLE or blueprint.variant is None:
            raise AgentError(f"{blueprint.name} is a bot: search needs a Monte Carlo CFR "
                             f"table as its blueprint (a run directory)")
        variant = blueprint.variant
        if variant.players != 2 or variant.teams:
            raise AgentError(f"search plays two-player rounds, not {variant}")
        self.blueprint = blueprint
        self.config = config
        self.variant = variant
        self.rules = rules_array(variant)
        self.name = f"{blueprint.name}+search"
        self._cfg = config_array(config.particles, config.rollouts,
                                 model_eps=config.model_eps, kinds=config.kinds)

    def _types(self, model: ka.Player) -> np.ndarray:
        rows = [np.array(model.params, dtype=np.float64)]
        for action, factor in self.config.tilts:
            row = rows[0].copy()
            row[ka.P_TILT_ACTION] = TILT_ACTIONS[action]
            row[ka.P_TILT_FACTOR] = float(factor)
            rows.append(row)
        return np.ascontiguousarray(rows)

    def match(self, seat: int, opponent: Agent) -> ks.Match:
        """The kernels' Match: the searcher in `seat`, `opponent` in the other."""
        if opponent.variant is not None and opponent.variant != self.variant:
            raise AgentError(f"{opponent.name} was trained on {opponent.variant}, not "
                             f"{self.variant}")
        model = self.blueprint.player(1 - seat)
        return ks.Match(self.rules, np.int64(seat), opponent.player(1 - seat), model,
                        self._types(model), self.blueprint.player(seat), self._cfg)

    def workspace(self) -> ks.Workspace:
        return ks.workspace(self._cfg, max_steps(self.variant))


@dataclasses.dataclass
class SearchSeat:
    seat: int
    rounds: int
    wins: int
    draws: int
    losses: int
    seconds: float
    counters: dict

    @property
    def value(self) -> float:
        return (self.wins - self.losses) / self.rounds


@dataclasses.dataclass
class SearchResult:
    """The searcher against one opponent, in both seats."""

    searcher: str
    opponent: str
    seed: int
    seats: tuple

    @property
    def rounds(self) -> int:
        return sum(s.rounds for s in self.seats)

    @property
    def value(self) -> float:
        """The searcher's seat-averaged payoff."""
        return seat_average(self.seats)[0]

    @property
    def half_width(self) -> float:
        """95% normal half-width of the seat average (the two seats independent)."""
        return seat_average(self.seats)[1]

    def to_json(self) -> dict:
        return {"searcher": self.searcher, "opponent": self.opponent, "seed": self.seed,
                "value": self.value, "half_width_95": self.half_width,
                "value_lo": self.value - self.half_width,
                "value_hi": self.value + self.half_width,
                "seats": [{**dataclasses.asdict(s), "value": s.value} for s in self.seats]}


def seat_average(seats) -> tuple[float, float]:
    """The mean over the two `SearchSeat`s of their payoffs, and its 95% normal
    half-width (the seats independent)."""
    halves = [mean_and_half_width(s.wins, s.losses, s.rounds)[1] for s in seats]
    return sum(s.value for s in seats) / 2, math.hypot(*halves) / 2


def mean_and_half_width(wins: int, losses: int, rounds: int) -> tuple[float, float]:
    """Mean of `rounds` +1/0/-1 payoffs and its 95% normal half-width."""
    mean = (wins - losses) / rounds
    var = max((wins + losses) / rounds - mean * mean, 0.0)
    return mean, Z95 * math.sqrt(var / rounds)


_COUNTERS = {"decisions": ks.C_DECISIONS, "forced_decisions": ks.C_FORCED,
             "regenerations": ks.C_REGENERATIONS, "belief_lost": ks.C_REGEN_FAILED,
             "decisions_after_belief_lost": ks.C_LOST_DECISIONS,
             "rollouts": ks.C_ROLLOUTS}


def play_search(searcher: Searcher, opponent: Agent, *, rounds: int = 500, seed: int = 0,
                workers: int = 2) -> SearchResult:
    """`rounds` rounds a seat of the searcher against `opponent` (one thread per seat
    when workers >= 2; the same seed gives the same result either way)."""
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise AgentError(f"rounds must be a positive integer, got {rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise AgentError(f"seed must be a non-negative integer, got {seed!r}")
    matches = [searcher.match(s, opponent) for s in (0, 1)]
    seeds = np.random.SeedSequence(int(seed)).generate_state(2, dtype=np.uint64)
    counters = np.zeros((2, ks.C_SIZE), dtype=np.int64)
    seconds = [0.0, 0.0]

    def run(seat: int) -> None:
        start = time.perf_counter()
        ks.play_rounds(int(rounds), np.uint64(seeds[seat]), matches[seat],
                       searcher.workspace(), counters[seat], ks.split())
        seconds[seat] = time.perf_counter() - start

    in_both_seats(run, workers)
    seats = tuple(SearchSeat(s, int(rounds), int(c[ks.C_WINS]), int(c[ks.C_DRAWS]),
                             int(c[ks.C_LOSSES]), seconds[s],
                             {name: int(c[i]) for name, i in _COUNTERS.items()})
                  for s, c in enumerate(counters))
    return SearchResult(searcher.name, opponent.name, int(seed), seats)


def search_action(searcher: Searcher, history, seed: int = 0) -> int:
    """The searcher's action at the decision that ends `history` (core action ids,
    chance included; the OpenSpiel bot's one call). Only what the deciding seat observed
    of the history is used."""
    history = np.ascontiguousarray(history, dtype=np.int64)
    state, _ = ka.replay(searcher.rules, history)
    if state[k.S_PHASE] == k.PH_TERMINAL or state[k.S_PHASE] in (
            k.PH_DEAL, k.PH_SHUFFLE, k.PH_ORDER):
        raise AgentError("search_action needs a history that ends at a player's decision")
    seat = int(k.current_player(state))
    # the opponent is never read at a decision of the searcher's: the model stands in
    match = searcher.match(seat, searcher.blueprint)
    counters = np.zeros(ks.C_SIZE, dtype=np.int64)
    ws = ks.workspace(searcher._cfg, len(history) + 1)
    return int(ks.decide(history, match, ws, np.uint64(seed), counters))


def respond_belief(searcher: Searcher, history, seed: int = 0) -> float:
    """The searcher's belief that the claim pending at the response that ends `history`
    (core action ids, chance included) is false: the weight of its particles, run along
    what the responder observed with the blueprint as the claimant's model, whose peeked
    card is not the announced one. It approximates solver.knowledge.posterior's exact
    posterior with the blueprint as the claimant's strategy (mixed with uniform at
    `model_eps`); its lookahead splits a challenge's value by it. NaN where the belief
    is lost (every regeneration failed)."""
    history = np.ascontiguousarray(history, dtype=np.int64)
    state, _ = ka.replay(searcher.rules, history)
    if state[k.S_PHASE] != k.PH_RESPOND:
        raise AgentError("respond_belief needs a history that ends at a response to a "
                         "claim")
    seat = int(k.current_player(state))
    match = searcher.match(seat, searcher.blueprint)
    counters = np.zeros(ks.C_SIZE, dtype=np.int64)
    ws = ks.workspace(searcher._cfg, len(history) + 1)
    if not ks.belief_after(history, match, ws, np.uint64(seed), counters):
        return float("nan")
    n = searcher.config.particles
    weights = ws.belief.w[:n]
    cards = ws.belief.state[:n, k.S_CARD + state[k.S_PEEK_POS]]
    return float(weights[cards != state[k.S_ANNOUNCED]].sum() / weights.sum())
