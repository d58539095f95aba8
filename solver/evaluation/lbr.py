"""Local best response (LBR; Lisy and Bowling 2017) against a fixed two-player agent.

The LBR plays one seat against the agent in the other, rounds at a time, in numba
(solver/search/_kernels.py, shared with the play-time search): it keeps a weighted-particle belief over the hidden cards and what
the agent has seen, reweighted by the agent's own action probabilities, and at each of
its decisions takes the action with the best one-step-lookahead value, the round then
finished by a fixed continuation (the LBR seat plays a bot, the agent plays itself).

The LBR only ever acts on what its seat has observed, so it is a legitimate strategy:
its expected gain over the agent's self-play value is at most the agent's best-response
gain, and the seat-averaged gain is a lower bound on exploitability (NashConv / 2, the
scale of solver.exact.best_response and solver.evaluation.exploiter). docs/lbr.md explains the method
and its limits.

The report also splits the gain over the continuation by decision (`by_decision`: turn;
after a peek, by the card; respond, by the claim; power, by its character): at each
lookahead decision the advantage of the action taken over the continuation's mix,
valued on fresh rollouts, summed per round (the performance-difference lemma; docs/lbr.md,
"Where the gain comes from, by decision"), and says what the lookahead played there
(`by_choice`): how often it took each kind of action, its mean advantage where it did,
and how often the continuation takes that kind of action at the same decisions.
"""

from __future__ import annotations

import dataclasses
import math
import time

import numpy as np
import pandas as pd

from game_def import kernels as k
from game_def.characters import NAMES
from game_def.core import rules_array
from game_def.variant import Variant

from solver.jobs import in_both_seats
from solver.players import kernels as ka
from solver.search import kernels as kl
from solver.search.searcher import mean_and_half_width as _mean_and_half_width
from solver.search.settings import (DECISION_KINDS, SPLITS, config_array,
                                    max_steps as _max_steps)
from solver.players.agents import BOT_NAMES, Agent, AgentError, bot, seated

DEFAULT_PARTICLES = 128
DEFAULT_ROLLOUTS = 24
DEFAULT_CONTINUATION = "heuristic"
DEFAULT_SPLIT = "fresh"
_COUNTER_NAMES = ("decisions", "forced_decisions", "resamples", "regenerations",
                  "regeneration_failures", "lost_decisions", "rollouts", "split_rollouts")
_COUNTER_INDEX = (kl.C_DECISIONS, kl.C_FORCED, kl.C_RESAMPLES, kl.C_REGENERATIONS,
                  kl.C_REGEN_FAILED, kl.C_LOST_DECISIONS, kl.C_ROLLOUTS,
                  kl.C_SPLIT_ROLLOUTS)
Z95 = 1.959964
# the by-decision split's columns (LBRReport.by_decision)
BY_DECISION_COLUMNS = ("kind", "sub_key", "decisions", "decisions_per_round", "gain",
                       "half_width", "gain_lo", "gain_hi")
TOTAL_KIND = "all"   # the split's row of every decision together
# the choice split's columns (LBRReport.by_choice)
BY_CHOICE_COLUMNS = ("kind", "sub_key", "played", "decisions", "lbr_share",
                     "strategy_share", "gain_per_decision")


@dataclasses.dataclass
class SeatSplit:
    """One LBR seat's advantages over its continuation, by split row (the search
    kernels' Split: kind x sub-key, then the total): over `rounds` rounds, the sum of
    each round's advantages, the sum of their squares and the decisions counted."""

    rounds: int
    sums: np.ndarray
    squares: np.ndarray
    decisions: np.ndarray
    choices: np.ndarray | None = None        # rows x labels: the lookahead's actions
    choice_gain: np.ndarray | None = None    # rows x labels: their advantages summed
    strategy_mass: np.ndarray | None = None  # rows x labels: the continuation's mass

    def mean_and_half_width(self) -> tuple[np.ndarray, np.ndarray]:
        """Per row: the mean advantage a round and its 95% normal half-width."""
        mean = self.sums / self.rounds
        var = np.maximum(self.squares / self.rounds - mean * mean, 0.0)
        # a row whose advantages were all 0 (equal values) keeps rounding residue
        mean[np.abs(mean) < 1e-12] = 0.0
        return mean, Z95 * np.sqrt(np.where(var < 1e-24, 0.0, var) / self.rounds)


def _row_names(row: int) -> tuple[str, str]:
    """(kind, sub-key) of a split row."""
    if row == kl.SPLIT_TOTAL:
        return TOTAL_KIND, ""
    kind, sub = divmod(row, kl.SPLIT_SUBKEYS)
    return DECISION_KINDS[kind], "" if kind == 0 else NAMES[sub]


def by_decision_frame(splits: tuple[SeatSplit, SeatSplit]) -> pd.DataFrame:
    """Where the LBR's gain over its continuation comes from: one row per decision kind
    and sub-key that the lookahead decided at least once (turn; after a peek, by the
    card peeked; respond, by the claimed character; power, by the character whose power
    runs), then the `all` row. `gain` is the mean over rounds of the advantages summed
    in a round, averaged over the two seats like the LBR's gain, with its 95% half
    width (normal, over rounds; the seats independent); `decisions_per_round` counts
    the lookahead's decisions there per round a seat."""
    means, halves = zip(*(s.mean_and_half_width() for s in splits))
    decisions = splits[0].decisions + splits[1].decisions
    rounds = splits[0].rounds + splits[1].rounds
    rows = []
    for row in range(kl.SPLIT_SIZE):
        if decisions[row] == 0 and row != kl.SPLIT_TOTAL:
            continue
        kind, sub = _row_names(row)
        gain = (means[0][row] + means[1][row]) / 2
        half = math.hypot(halves[0][row], halves[1][row]) / 2
        rows.append({"kind": kind, "sub_key": sub, "decisions": int(decisions[row]),
                     "decisions_per_round": decisions[row] / rounds, "gain": gain,
                     "half_width": half, "gain_lo": gain - half, "gain_hi": gain + half})
    return pd.DataFrame(rows, columns=list(BY_DECISION_COLUMNS))


def choice_label(label: int) -> str:
    """The name of a choice split label (solver.search kernels' CHOICE_*): `peek`,
    `use`, `reveal`, `pick`, then the fixed actions as the game writes them (`silent`,
    `announce Robin`, `challenge`, `pass`, `keep`, `swap`, `name Peasant`)."""
    if label < kl.CHOICE_FIXED:
        return ("peek", "use", "reveal", "pick")[label]
    code = label - kl.CHOICE_FIXED
    if k.A_ANNOUNCE <= code < k.A_ANNOUNCE + k.NUM_CHARACTERS:
        return f"announce {NAMES[code - k.A_ANNOUNCE]}"
    if k.A_NAME <= code < k.A_NAME + k.NUM_CHARACTERS:
        return f"name {NAMES[code - k.A_NAME]}"
    return {k.A_SILENT: "silent", k.A_CHALLENGE: "challenge", k.A_PASS: "pass",
            k.A_KEEP: "keep", k.A_SWAP: "swap"}[code]


def by_choice_frame(splits: tuple[SeatSplit, SeatSplit]) -> pd.DataFrame:
    """What the lookahead played at each decision kind and sub-key of the split, both
    seats together: one row per kind of action (`played`, `choice_label`) that either
    the lookahead or its continuation takes there. `lbr_share` is the share of the
    lookahead's decisions there on which it took it, `strategy_share` the continuation's
    mean probability of it at the same decisions (what the strategy itself would have
    played, when the LBR continues as the strategy), `gain_per_decision` the mean
    advantage over the continuation where the lookahead took it (NaN where it never
    did; valued like `by_decision`). A leak reads as a large lbr_share where the
    strategy_share is small, with a positive gain per decision."""
    choices = splits[0].choices + splits[1].choices
    gains = splits[0].choice_gain + splits[1].choice_gain
    mass = splits[0].strategy_mass + splits[1].strategy_mass
    decisions = splits[0].decisions + splits[1].decisions
    rows = []
    for row in range(kl.SPLIT_TOTAL):
        if decisions[row] == 0:
            continue
        kind, sub = _row_names(row)
        for label in range(kl.CHOICE_LABELS):
            if choices[row, label] == 0 and mass[row, label] < 1e-12:
                continue
            taken = int(choices[row, label])
            rows.append({"kind": kind, "sub_key": sub, "played": choice_label(label),
                         "decisions": taken, "lbr_share": taken / decisions[row],
                         "strategy_share": mass[row, label] / decisions[row],
                         "gain_per_decision": (gains[row, label] / taken if taken
                                               else float("nan"))})
    return pd.DataFrame(rows, columns=list(BY_CHOICE_COLUMNS))


@dataclasses.dataclass
class SeatLBR:
    """The LBR in `seat` against the agent in the other seat."""

    seat: int
    rounds: int
    wins: int
    draws: int
    losses: int
    turn_cap_draws: int
    value: float                 # the LBR's mean payoff against the agent
    half_width: float            # its 95% half-width
    self_play_value: float       # the agent's mean payoff in `seat` against itself
    self_play_half_width: float
    self_play_rounds: int
    seconds: float
    counters: dict

    @property
    def gain(self) -> float:
        return self.value - self.self_play_value

    @property
    def gain_half_width(self) -> float:
        return math.hypot(self.half_width, self.self_play_half_width)


@dataclasses.dataclass
class LBRReport:
    agent: str
    variant: str
    seed: int
    particles: int
    rollouts: int
    continuation: str
    seats: tuple[SeatLBR, SeatLBR]
    kinds: tuple[str, ...] = DECISION_KINDS   # the decisions the lookahead takes
    split: str = "off"                        # how the gain was split by decision
    splits: tuple[SeatSplit, SeatSplit] | None = None   # per seat (None: not split)

    @property
    def by_decision(self) -> pd.DataFrame | None:
        """Where the gain over the continuation comes from, by decision kind and sub-key
        (`by_decision_frame`; docs/lbr.md, "Where the gain comes from, by decision");
        None when the run was not split."""
        return None if self.splits is None else by_decision_frame(self.splits)

    @property
    def by_choice(self) -> pd.DataFrame | None:
        """What the lookahead played where it decided, against what the continuation
        plays there (`by_choice_frame`; docs/lbr.md); None when the run was not split."""
        return None if self.splits is None else by_choice_frame(self.splits)

    @property
    def gain(self) -> float:
        """Mean over seats of (LBR payoff - the agent's self-play payoff in that seat).

        The two self-play terms are the two seats of one zero-sum game, so their mean is
        exactly 0: the gain is the mean of the LBR's payoffs, and only their sampling
        error enters the interval (estimating self-play would only add noise)."""
        return (self.seats[0].value + self.seats[1].value) / 2

    @property
    def half_width(self) -> float:
        return math.hypot(self.seats[0].half_width, self.seats[1].half_width) / 2

    @property
    def interval(self) -> tuple[float, float]:
        return self.gain - self.half_width, self.gain + self.half_width

    def to_json(self) -> dict:
        lo, hi = self.interval
        seats = []
        for s in self.seats:
            row = dataclasses.asdict(s)
            row["gain"] = s.gain
            row["gain_half_width_95"] = s.gain_half_width
            seats.append(row)
        totals = {name: sum(s.counters[name] for s in self.seats) for name in _COUNTER_NAMES}
        split = self.by_decision
        return {"method": "local_best_response", "agent": self.agent,
                "variant": self.variant, "seed": self.seed, "particles": self.particles,
                "rollouts": self.rollouts, "continuation": self.continuation,
                "kinds": list(self.kinds), "gain": self.gain,
                "gain_half_width_95": self.half_width, "gain_lo": lo, "gain_hi": hi,
                "counters": totals, "seats": seats, "split": self.split,
                "by_decision": (None if split is None
                                else split.to_dict(orient="records")),
                "by_choice": (None if split is None
                              else records_without_nan(self.by_choice))}


def records_without_nan(frame: pd.DataFrame) -> list[dict]:
    """A frame's rows as dicts, NaN written as None (JSON has no NaN)."""
    return [{key: (None if isinstance(value, float) and math.isnan(value) else value)
             for key, value in row.items()} for row in frame.to_dict(orient="records")]


def _check_variant(agent: Agent, variant) -> Variant:
    if variant is None:
        variant = agent.variant
    elif isinstance(variant, str):
        import game_def

        variant = game_def.parse(variant)
    if variant is None:
        raise AgentError(f"{agent.name} is a bot, which plays any variant: give variant= "
                         f"(e.g. 'standard')")
    if agent.variant is not None and agent.variant != variant:
        raise AgentError(f"agent {agent.name} was trained on {agent.variant}, not {variant}")
    if variant.players != 2 or variant.teams:
        raise AgentError(f"the local best response plays two-player rounds, not {variant}")
    return variant


def _positive(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise AgentError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


SELF = "self"   # the continuation that is the strategy itself


def continuation_player(name: str, seat: int, agent: Agent):
    """The continuation (a bot, a league player, or SELF: `agent` itself) as the LBR
    seat's player."""
    if name == SELF:
        return agent.player(seat)
    if name not in BOT_NAMES:
        raise AgentError(f"unknown continuation {name!r}: choose one of "
                         f"{', '.join(BOT_NAMES)}, or {SELF!r} (the strategy itself)")
    return bot(name).player(seat)


def _kinds(kinds) -> tuple[str, ...]:
    if isinstance(kinds, str):
        kinds = tuple(kinds.split(","))
    kinds = tuple(kinds)
    unknown = [name for name in kinds if name not in DECISION_KINDS]
    if unknown:
        raise AgentError(f"unknown decision kind {unknown[0]!r}: choose from "
                         f"{', '.join(DECISION_KINDS)}")
    return tuple(name for name in DECISION_KINDS if name in kinds)


def _self_play(rules, rounds: int, seed: int, seat: int, agent: Agent, max_turns: int):
    results = np.zeros(4, dtype=np.int64)
    lengths = np.zeros(max_turns + 1, dtype=np.int64)
    coverage = np.zeros((2, ka.NUM_DECISION_KINDS, ka.NUM_COVERAGE), dtype=np.int64)
    ka.play(rules, rounds, seed, seat, seated(agent, agent, seat), 1,
            ka.Tally(results, lengths, coverage))
    return _mean_and_half_width(int(results[0]), int(results[2]), rounds)


@dataclasses.dataclass(frozen=True)
class SelfPlayBaseline:
    """The agent's self-play value in each seat with its 95% half-width, over `rounds`
    rounds a seat: what a local best response's gain is measured from. One baseline
    serves every local best response against the same agent (it depends on neither the
    continuation nor the lookahead), so a caller running several computes it once."""

    agent: str
    rounds: int
    values: tuple[float, float]
    half_widths: tuple[float, float]


def self_play_baseline(agent: Agent, *, rounds: int = 20_000, seed: int = 0,
                       workers: int = 2, variant: Variant | str | None = None
                       ) -> SelfPlayBaseline:
    """`agent` against itself, `rounds` rounds with it in each seat, on the streams
    local_best_response(agent, seed=seed) uses for its own baseline (so passing this to
    it changes no figure); one thread a seat when workers >= 2."""
    variant = _check_variant(agent, variant)
    rounds = _positive("self_play_rounds", rounds)
    rules = rules_array(variant)
    seeds = np.random.SeedSequence(int(seed)).generate_state(4, dtype=np.uint64)
    out = [None, None]

    def play(s: int) -> None:
        out[s] = _self_play(rules, rounds, int(seeds[2 + s] % (1 << 31)), s, agent,
                            variant.max_turns)

    in_both_seats(play, workers)
    return SelfPlayBaseline(agent.name, rounds, (out[0][0], out[1][0]),
                            (out[0][1], out[1][1]))


def local_best_response(agent: Agent, *, rounds: int = 2000, seed: int = 0,
                        particles: int = DEFAULT_PARTICLES, rollouts: int = DEFAULT_ROLLOUTS,
                        workers: int = 2, variant: Variant | str | None = None,
                        continuation: str = DEFAULT_CONTINUATION,
                        group_positions: bool = True,
                        self_play_rounds: int = 20_000,
                        kinds=DECISION_KINDS, split: str = DEFAULT_SPLIT,
                        baseline: SelfPlayBaseline | None = None) -> LBRReport:
    """The LBR in each seat against `agent`, `rounds` rounds a seat (one thread per seat
    when workers >= 2; the same seed gives the same report either way).

    `particles` is the belief's size, `rollouts` the rollouts per scored action,
    `continuation` the player the LBR seat becomes after its lookahead step (a bot or
    league player, or "self": the agent itself, so that each decision is a one-step
    improvement on the agent's own play). `variant` is
    needed for bots (tables carry theirs). `kinds` (of DECISION_KINDS: turn, after_peek,
    respond, power) are the decisions the lookahead takes; the continuation takes the
    others, and with none the LBR is its continuation (`leaks` compares them).

    `split` says how the report's `by_decision` splits the gain over the continuation
    by decision: "fresh" (each lookahead decision's advantage over the continuation's
    mix, valued on fresh rollouts from a stream of its own: unbiased, costs rollouts),
    "reuse" (valued on the rollouts that chose the action: free, biased upward) or
    "off". It never changes the rounds: the gain is the same for any `split`.

    `baseline` (self_play_baseline's, of this agent) replaces the self-play this call
    would otherwise play (`self_play_rounds` a seat) to measure the gain from."""
    variant = _check_variant(agent, variant)
    if baseline is not None and baseline.agent != agent.name:
        raise AgentError(f"the self-play baseline is {baseline.agent}'s, not "
                         f"{agent.name}'s: compute it with self_play_baseline(agent)")
    rounds = _positive("rounds", rounds)
    particles = _positive("particles", particles)
    rollouts = _positive("rollouts", rollouts)
    self_play_rounds = _positive("self_play_rounds", self_play_rounds)
    kinds = _kinds(kinds)
    if split not in SPLITS:
        raise AgentError(f"split must be one of {', '.join(SPLITS)}, got {split!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise AgentError(f"seed must be a non-negative integer, got {seed!r}")
    rules = rules_array(variant)
    cfg = config_array(particles, rollouts, group_positions=group_positions, kinds=kinds,
                       split=split)
    matches = [kl.Match(rules, np.int64(s), agent.player(1 - s), agent.player(1 - s),
                        agent.player(1 - s).params[None, :].copy(),
                        continuation_player(continuation, s, agent), cfg) for s in (0, 1)]
    max_steps = _max_steps(variant)
    seeds = np.random.SeedSequence(int(seed)).generate_state(4, dtype=np.uint64)
    counters = np.zeros((2, kl.C_SIZE), dtype=np.int64)
    accumulators = (kl.split(), kl.split())
    seconds = [0.0, 0.0]

    def play(lbr: int) -> None:
        start = time.perf_counter()
        ws = kl.workspace(cfg, max_steps)
        kl.play_rounds(rounds, np.uint64(seeds[lbr]), matches[lbr], ws, counters[lbr],
                       accumulators[lbr])
        seconds[lbr] = time.perf_counter() - start

    in_both_seats(play, workers)
    seats = []
    for s in (0, 1):
        c = counters[s]
        value, hw = _mean_and_half_width(int(c[kl.C_WINS]), int(c[kl.C_LOSSES]), rounds)
        if baseline is None:
            sp, sp_hw = _self_play(rules, self_play_rounds, int(seeds[2 + s] % (1 << 31)),
                                   s, agent, variant.max_turns)
        else:
            sp, sp_hw = baseline.values[s], baseline.half_widths[s]
        seats.append(SeatLBR(s, rounds, int(c[kl.C_WINS]), int(c[kl.C_DRAWS]),
                             int(c[kl.C_LOSSES]), int(c[kl.C_TURN_CAP]), value, hw, sp, sp_hw,
                             self_play_rounds if baseline is None else baseline.rounds,
                             seconds[s],
                             {name: int(c[i]) for name, i in zip(_COUNTER_NAMES,
                                                                 _COUNTER_INDEX)}))
    splits = None
    if split != "off":
        splits = tuple(SeatSplit(rounds, a.sums.copy(), a.squares.copy(),
                                 a.decisions.copy(), a.choices.copy(),
                                 a.choice_gain.copy(), a.strategy_mass.copy())
                       for a in accumulators)
    return LBRReport(agent.name, str(variant), int(seed), particles, rollouts, continuation,
                     tuple(seats), kinds, split, splits)


def belief_posterior(agent: Agent, history, seat: int, *, variant: Variant | str | None = None,
                     particles: int = 4096, seed: int = 0) -> np.ndarray:
    """What seat `seat` believes after `history` (core action ids, chance included,
    ending at a decision) against `agent` in the other seat: an (n, 10) array whose
    [p, c] is the particle estimate of P(the card at position p is character c | what
    the seat observed). An undealt card counts as a draw from its particle's pool."""
    variant = _check_variant(agent, variant)
    particles = _positive("particles", particles)
    if seat not in (0, 1):
        raise AgentError(f"seat must be 0 or 1, got {seat!r}")
    history = np.ascontiguousarray(history, dtype=np.int64)
    rules = rules_array(variant)
    cfg = config_array(particles, 1)
    ws = kl.workspace(cfg, len(history) + 1)
    counters = np.zeros(kl.C_SIZE, dtype=np.int64)
    match = kl.Match(rules, np.int64(seat), agent.player(1 - seat), agent.player(1 - seat),
                     agent.player(1 - seat).params[None, :].copy(),
                     continuation_player(DEFAULT_CONTINUATION, seat, agent), cfg)
    if not kl.belief_after(history, match, ws, np.uint64(seed), counters):
        raise AgentError("no particle is consistent with this history (regeneration "
                         "failed): is it a history the agent can play?")
    n = int(rules[k.R_N])
    cards = ws.belief.state[:particles, k.S_CARD:k.S_CARD + n]
    pools = ws.belief.state[:particles, k.S_POOL:k.S_POOL + k.NUM_CHARACTERS].astype(float)
    totals = pools.sum(axis=1, keepdims=True)
    draw = np.divide(pools, totals, out=np.zeros_like(pools), where=totals > 0)
    out = np.zeros((n, k.NUM_CHARACTERS))
    w = ws.belief.w[:particles]
    for p in range(n):
        dealt = cards[:, p] >= 0
        np.add.at(out[p], cards[dealt, p], w[dealt])
        out[p] += (w[~dealt, None] * draw[~dealt]).sum(axis=0)
    return out


def leaks(agent: Agent, *, continuation: str = DEFAULT_CONTINUATION, rounds: int = 1000,
          seed: int = 0, variant: Variant | str | None = None, workers: int = 2,
          **lbr_options) -> pd.DataFrame:
    """Where `agent` can be exploited: the LBR's gain when its lookahead takes one kind of
    decision only (the continuation plays the rest), beside the continuation alone and
    the full LBR. `added` is a row's gain minus the continuation's: what looking ahead
    at that kind of decision wins against this agent. A large `added` at `respond`
    means the agent's announcements say too much (the LBR challenges or passes knowing
    how often they are true); at `after_peek`, that its responses can be bluffed; at
    `turn` and `power`, that its peeks and unmaskings leave openings. One
    `local_best_response` per row, `rounds` rounds a seat, all from `seed` (not split by
    decision unless lbr_options ask for it: `split`)."""
    lbr_options.setdefault("split", "off")
    rows = []
    for label, kinds in (("continuation alone", ()),
                         *((name, (name,)) for name in DECISION_KINDS),
                         ("all", DECISION_KINDS)):
        report = local_best_response(agent, rounds=rounds, seed=seed, variant=variant,
                                     workers=workers, continuation=continuation,
                                     kinds=kinds, **lbr_options)
        rows.append({"lookahead at": label, "gain": report.gain,
                     "half_width": report.half_width,
                     "decisions": report.to_json()["counters"]["decisions"]})
    frame = pd.DataFrame(rows).set_index("lookahead at")
    frame["added"] = frame["gain"] - frame.loc["continuation alone", "gain"]
    frame.attrs = {"agent": agent.name, "continuation": continuation, "rounds": rounds,
                   "seed": seed}
    return frame
