"""A local best response against play-time search: a lower bound on its exploitability.

`local_best_response` keeps a belief reweighted by the agent's own action probabilities
in every particle, and finishes each lookahead with the agent itself. For a table agent
those are lookups. For the searcher (solver.search) each would be a search in every
particle at every decision, hours for a few hundred rounds on this machine. So this LBR
models the searcher by its **blueprint**: its belief is reweighted by the blueprint's
probabilities in the searcher's seat, mixed with uniform at rate `model_eps` (the
searcher departs from its blueprint, and an unmixed model would empty the belief), and
its rollouts play the blueprint there. The searcher itself plays against it, searching
at its own decisions.

The LBR still acts only on what its own seat observed, so its seat-averaged payoff
against the searcher is a lower bound on the searcher's exploitability (NashConv / 2),
as it is for a table. It is a weaker bound than the table's: where the searcher plays
differently from its blueprint the LBR's belief and lookahead are wrong. Run it against
the blueprint with the same settings (`against_blueprint`) to see what the model costs
where it is right. docs/search.md, "A bound on the searcher", has what it measured.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from solver.jobs import in_both_seats
from solver.players.agents import AgentError
from solver.search import Searcher
from solver.search import kernels as ks
from solver.search.searcher import SearchSeat, seat_average
from solver.search.settings import DECISION_KINDS, config_array, max_steps
from solver.evaluation.lbr import SELF, _positive, continuation_player

_COUNTERS = {"decisions": ks.C_DECISIONS, "regenerations": ks.C_REGENERATIONS,
             "belief_lost": ks.C_REGEN_FAILED}


@dataclasses.dataclass
class SearchLBRSeat(SearchSeat):
    """The LBR in `seat` against the searcher (or blueprint) in the other: its rounds,
    its `counters` (lookahead decisions, belief repairs) and the opponent's."""

    opponent_counters: dict  # all zero against the blueprint


@dataclasses.dataclass
class SearchLBRReport:
    """The LBR against one opponent (the searcher, or its blueprint) in both seats."""

    opponent: str
    opponent_searches: bool   # False: the calibration opponent, the blueprint alone
    seed: int
    particles: int
    rollouts: int
    model_eps: float
    continuation: str
    seats: tuple

    @property
    def gain(self) -> float:
        """Mean of the LBR's seat payoffs: the opponent against itself averages exactly 0
        over the two seats of this zero-sum game (as `LBRReport.gain`)."""
        return seat_average(self.seats)[0]

    @property
    def half_width(self) -> float:
        return seat_average(self.seats)[1]

    def to_json(self) -> dict:
        return {"method": "local_best_response_modelled_by_blueprint",
                "opponent": self.opponent, "opponent_searches": self.opponent_searches,
                "seed": self.seed, "particles": self.particles,
                "rollouts": self.rollouts, "model_eps": self.model_eps,
                "continuation": self.continuation, "gain": self.gain,
                "gain_half_width_95": self.half_width,
                "gain_lo": self.gain - self.half_width,
                "gain_hi": self.gain + self.half_width,
                "seats": [{**dataclasses.asdict(s), "value": s.value} for s in self.seats]}


def against_blueprint(searcher: Searcher) -> Searcher:
    """The same blueprint, searching nothing: the calibration opponent."""
    return Searcher(searcher.blueprint, dataclasses.replace(searcher.config, kinds=()))


def search_lbr(searcher: Searcher, *, rounds: int = 300, seed: int = 0,
               particles: int = 128, rollouts: int = 24, model_eps: float = 0.05,
               continuation: str = SELF, workers: int = 2) -> SearchLBRReport:
    """The blueprint-modelled LBR in each seat against `searcher`, `rounds` rounds a seat
    (one thread per seat when workers >= 2; the same seed gives the same report either
    way). `continuation` is the player the LBR seat becomes after its lookahead step: the
    blueprint ("self") or a bot or league player."""
    if not isinstance(searcher, Searcher):
        raise AgentError(f"search_lbr needs a Searcher, got {type(searcher).__name__}: "
                         f"build one with Searcher(load_table_agent(run))")
    rounds, particles, rollouts = (_positive(name, value) for name, value in (
        ("rounds", rounds), ("particles", particles), ("rollouts", rollouts)))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise AgentError(f"seed must be a non-negative integer, got {seed!r}")
    if not 0.0 <= model_eps <= 1.0:   # nan fails too
        raise AgentError(f"model_eps must be a probability in [0, 1], got {model_eps!r}")
    import game_def

    blueprint = searcher.blueprint
    game = game_def.load_game(str(searcher.variant))
    cfg = config_array(particles, rollouts, model_eps=float(model_eps),
                       kinds=DECISION_KINDS)
    steps = max_steps(searcher.variant)
    seeds = np.random.SeedSequence(int(seed)).generate_state(2, dtype=np.uint64)
    tallies = np.zeros((2, 3), dtype=np.int64)          # wins, draws, losses
    counters = np.zeros((2, 2, ks.C_SIZE), dtype=np.int64)  # seat, (LBR, opponent)
    seconds = [0.0, 0.0]

    def lbr_match(seat: int) -> ks.Match:
        model = blueprint.player(1 - seat)
        return ks.Match(searcher.rules, np.int64(seat), model, model,
                        model.params[None, :].copy(),
                        continuation_player(continuation, seat, blueprint), cfg)

    # built here, so that a bad continuation is refused before any thread starts
    matches = [(lbr_match(s), searcher.match(1 - s, blueprint)) for s in (0, 1)]

    def play(lbr_seat: int) -> None:
        start = time.perf_counter()
        lbr, opponent = matches[lbr_seat]
        ws_lbr, ws_opponent = ks.workspace(cfg, steps), searcher.workspace()
        rng = np.random.default_rng(int(seeds[lbr_seat]))
        for _ in range(rounds):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes())
                    state.apply_action(int(rng.choice(outcomes, p=probs)))
                    continue
                history = np.array(state.history(), dtype=np.int64)
                side = 0 if state.current_player() == lbr_seat else 1
                match, ws = (lbr, ws_lbr) if side == 0 else (opponent, ws_opponent)
                state.apply_action(int(ks.decide(history, match, ws,
                                                 np.uint64(rng.integers(1 << 62)),
                                                 counters[lbr_seat, side])))
            payoff = state.returns()[lbr_seat]
            tallies[lbr_seat, 0 if payoff > 0 else 2 if payoff < 0 else 1] += 1
        seconds[lbr_seat] = time.perf_counter() - start

    in_both_seats(play, workers)
    seats = tuple(SearchLBRSeat(
        s, rounds, *map(int, tallies[s]), seconds[s],
        {name: int(counters[s, 0, i]) for name, i in _COUNTERS.items()},
        {name: int(counters[s, 1, i]) for name, i in _COUNTERS.items()}) for s in (0, 1))
    searches = bool(searcher.config.kinds)
    return SearchLBRReport(searcher.name if searches else blueprint.name, searches,
                           int(seed), particles, rollouts, float(model_eps),
                           continuation, seats)


__all__ = ["SearchLBRReport", "against_blueprint", "search_lbr"]
