"""How strong a strategy is: every opponent the project can build, and what they gain.

A strategy's quality is what the strongest opponent found gets against it. `measure`
plays the strategy against the baseline bots, the league of scripted players and the
scripted players held out from training (solver.evaluation.league: LEAGUE, HELD_OUT;
method "held-out"), and, when given a budget, trains an exploiter against it
(solver.evaluation.exploiter) and runs the local best response (solver.evaluation.lbr).

Each opponent's *gain* is an estimate, with a 95% interval, of its expected payoff
against the strategy averaged over the two seats, which is at most the strategy's
exploitability (NashConv / 2; solver.evaluation.league derives it). What is estimated
is the same for every opponent, the sample differs:
- bots, league and held-out players: the opponent's seat-averaged payoff, -1 times the
  strategy's (`-HeadToHead.value`); nothing is subtracted;
- the exploiter: per seat, its payoff minus a sampled estimate of the strategy's
  self-play payoff in that seat, averaged over the seats (the self-play terms are 0 in
  expectation, their noise widens the interval);
- the local best response: the mean of its two seats' payoffs (the self-play terms
  cancel exactly in a zero-sum game, so they are not subtracted).

The stated lower bound is not the largest gain: the maximum of many noisy gains is
biased upward (the opponent that looks strongest is partly the luckiest). `measure`
chooses the strongest opponent on its sample of rounds (the selection sample) and
replays that opponent on fresh rounds from an independent seed (the exploiter's
trained tables again, the local best response with the same continuation, the bot's
match again); the replay's gain and 95% interval are the stated bound
(`held_out_bound`). Beside it, `simultaneous_bound` states the largest lower end when
every opponent's interval on the selection sample is widened to hold for all of them
at once (Bonferroni). Coverage counts say how many of the strategy's decisions landed
on a trained table entry, in self-play and against each bot.

Where the strategy leaks: each local best response splits its gain over its
continuation by decision kind and sub-key (solver.evaluation.lbr, `by_decision`), and
the report keeps the split of the strongest (`lbr_by_decision`: its held-out replay's
when the stated bound replays a local best response, else the strongest one's on the
selection sample).
"""

from __future__ import annotations

import dataclasses
import math
from statistics import NormalDist
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from solver.players.agents import BOTS, Agent, AgentError, bot
from solver.evaluation.exploiter import exploit
from solver.evaluation.lbr import (SelfPlayBaseline, local_best_response, records_without_nan,
                                  self_play_baseline)
from solver.evaluation.league import HELD_OUT, LEAGUE
from solver.evaluation.tournament import Z95, coverage_frame, head_to_head

# The sound default alone (docs/sound-play.md), what a table plays where it has not
# learned: the table adds to it only if it beats it.
DEFAULT_PLAYERS = ("sound",)


@dataclasses.dataclass
class Opponent:
    """One opponent's result against the strategy."""

    name: str
    method: str            # bot, league, held-out, exploiter, local best response
    gain: float            # its seat-averaged payoff against the strategy (module docstring)
    half_width: float      # 95%
    detail: str = ""
    rounds: int | None = None   # rounds a seat this gain was measured on
    seed: int | None = None     # the seed they were played from
    # a local best response's gain over its continuation, by decision (LBRReport)
    by_decision: pd.DataFrame | None = dataclasses.field(default=None, repr=False,
                                                         compare=False)
    # what it played there, beside the strategy's own play (LBRReport.by_choice)
    by_choice: pd.DataFrame | None = dataclasses.field(default=None, repr=False,
                                                       compare=False)

    def row(self) -> dict:
        return {"opponent": self.name, "method": self.method, "gain": self.gain,
                "gain_lo": self.gain - self.half_width, "gain_hi": self.gain + self.half_width,
                "detail": self.detail, "rounds": self.rounds, "seed": self.seed}


@dataclasses.dataclass
class Bound:
    """The stated lower bound: the opponent chosen on the selection sample (the largest
    gain there) and its gain on a held-out replay, fresh rounds from another seed.

    The replay's gain is an unbiased estimate of the chosen opponent's true gain, which
    is at most the exploitability; its 95% interval is an honest one for that opponent
    (the choice used none of its rounds). The selection gain is kept for comparison: it
    is the maximum of the noisy gains and overstates, on average, the chosen opponent's
    true gain."""

    opponent: str
    opponent_method: str
    selection_gain: float
    selection_half_width: float
    gain: float            # on the held-out replay
    half_width: float      # its 95%
    rounds: int | None     # the replay's rounds a seat
    seed: int | None       # the replay's seed
    detail: str
    candidates: int        # opponents the choice was made among
    method: str = "held-out"

    @property
    def lower(self) -> float:
        """The 95% interval's lower end of the held-out gain."""
        return self.gain - self.half_width

    def to_json(self) -> dict:
        return {"opponent": self.opponent, "method": self.opponent_method,
                "selection_gain": self.selection_gain,
                "selection_half_width": self.selection_half_width,
                "gain": self.gain, "half_width": self.half_width,
                "gain_lo": self.gain - self.half_width,
                "gain_hi": self.gain + self.half_width, "rounds": self.rounds,
                "seed": self.seed, "detail": self.detail, "candidates": self.candidates}


def held_out_bound(selection: Sequence[Opponent],
                   replay: Callable[[Opponent], Opponent]) -> Bound:
    """Choose the opponent with the largest gain in `selection` and state its gain as
    `replay(chosen)` measures it again (on rounds independent of the selection's)."""
    if not selection:
        raise AgentError("no opponent to choose from")
    chosen = max(selection, key=lambda o: o.gain)
    again = replay(chosen)
    return Bound(chosen.name, chosen.method, chosen.gain, chosen.half_width, again.gain,
                 again.half_width, again.rounds, again.seed, again.detail, len(selection))


@dataclasses.dataclass
class SimultaneousBound:
    """Every opponent's selection-sample interval widened to hold for all of them at
    once (Bonferroni: each at the 1 - 0.05 / k level, k opponents); with 95%
    probability each true gain is above its lower end, so the largest lower end is a
    95% lower bound on the largest true gain, and on exploitability."""

    lower: float           # the largest widened lower end
    opponent: str          # whose it is
    candidates: int
    z: float               # the normal quantile each half-width is scaled to
    confidence: float = 0.95
    method: str = "bonferroni"

    def to_json(self) -> dict:
        return {"method": self.method, "confidence": self.confidence,
                "candidates": self.candidates, "z": self.z, "lower": self.lower,
                "opponent": self.opponent}


def simultaneous_bound(selection: Sequence[Opponent],
                       confidence: float = 0.95) -> SimultaneousBound:
    """The Bonferroni statement over all of `selection` (half-widths are 95% ones)."""
    if not selection:
        raise AgentError("no opponent to choose from")
    k = len(selection)
    z = NormalDist().inv_cdf(1 - (1 - confidence) / (2 * k))
    lowest = max(selection, key=lambda o: o.gain - o.half_width * z / Z95)
    return SimultaneousBound(lowest.gain - lowest.half_width * z / Z95, lowest.name, k, z,
                             confidence)


@dataclasses.dataclass
class StrengthReport:
    strategy: str
    variant: str
    rounds: int
    opponents: list[Opponent]
    coverage: dict[str, pd.DataFrame]   # "self-play" and each bot -> coverage_frame
    fallback: dict | None = None        # the Fallback's fields: who moves where the
                                        # table has not learned (None: uniform play)
    bound: Bound | None = None          # the stated bound (held-out replay)
    simultaneous: SimultaneousBound | None = None
    lbr_by_decision: dict | None = None  # `lbr_split` (None without a local best response)

    def table(self) -> pd.DataFrame:
        """One row per opponent, strongest first (on the selection sample)."""
        frame = pd.DataFrame([o.row() for o in self.opponents]).set_index("opponent")
        return frame.sort_values("gain", ascending=False)

    @property
    def strongest(self) -> Opponent:
        """The opponent with the largest gain on the selection sample: the one the
        bound replays (its gain here is biased upward; `bound` has the replay's)."""
        return max(self.opponents, key=lambda o: o.gain)

    @property
    def unlearned_self_play(self) -> float:
        """Share of the strategy's self-play decisions that found no table entry."""
        return float(self.coverage["self-play"].loc["all", "unlearned"])

    def to_json(self) -> dict:
        best = self.strongest
        bound = self.bound
        simultaneous = self.simultaneous or simultaneous_bound(self.opponents)
        return {"strategy": self.strategy, "fallback": self.fallback,
                "variant": self.variant, "rounds": self.rounds,
                # without a replay the stated figure is the selection maximum, labelled so
                "bound_method": bound.method if bound else "selection maximum",
                "exploitability_lower_bound": bound.gain if bound else best.gain,
                "exploitability_lower_bound_half_width": (bound.half_width if bound
                                                          else best.half_width),
                "strongest": best.name,
                "selection_gain": best.gain,
                "selection_half_width": best.half_width,
                "holdout": bound.to_json() if bound else None,
                "simultaneous": simultaneous.to_json(),
                "opponents": [o.row() for o in self.opponents],
                "coverage": {name: frame.reset_index().to_dict(orient="records")
                             for name, frame in self.coverage.items()},
                "lbr_by_decision": self.lbr_by_decision}


def lbr_split(opponents: Sequence[Opponent], bound: Bound | None,
              replayed: Opponent | None = None) -> dict | None:
    """Where the strongest local best response's gain over its continuation comes
    from, by decision (solver.evaluation.lbr.by_decision_frame), as strength.json keeps
    it: from the held-out replay (`replayed`) when the stated bound replays a local
    best response, else from the local best response with the largest gain on the
    selection sample (whose split shares that selection's upward bias). `each` holds
    every local best response's split on the selection sample (measure's
    split_runs="every"; empty when only the replay splits); `choices` what the chosen
    one played at each decision beside its continuation (LBRReport.by_choice; absent
    when it was not recorded). None without one."""
    split = [o for o in opponents if o.by_decision is not None]
    if (bound is not None and bound.opponent_method == "local best response"
            and replayed is not None and replayed.by_decision is not None):
        source, sample = replayed, "held-out replay"
    elif split:
        source, sample = max(split, key=lambda o: o.gain), "selection"
    else:
        return None
    return {"opponent": source.name, "sample": sample, "gain": source.gain,
            "half_width": source.half_width, "rounds": source.rounds, "seed": source.seed,
            "rows": source.by_decision.to_dict(orient="records"),
            "choices": (None if source.by_choice is None
                        else records_without_nan(source.by_choice)),
            "each": {o.name: o.by_decision.to_dict(orient="records") for o in split}}


def choices_at_leaks(split: dict, leaks: int = 3) -> pd.DataFrame | None:
    """What the local best response played at the `leaks` decisions where it gains
    most (a split's `choices` beside its `rows`), each action it or the strategy took
    there: its share of the lookahead's decisions, the strategy's own share at the
    same decisions, and the mean advantage where the lookahead took it. Indexed by
    (kind, sub-key, played); None when the split has no choices."""
    if not split.get("choices"):
        return None
    table = by_decision_table(split["rows"])
    top = [key for key in table.index if key[0] != "all"][:leaks]
    frame = pd.DataFrame(split["choices"])
    parts = []
    for kind, sub in top:
        rows = frame[(frame["kind"] == kind) & (frame["sub_key"] == sub)]
        parts.append(rows.sort_values("lbr_share", ascending=False, kind="stable"))
    if not parts:
        return None
    out = pd.concat(parts).set_index(["kind", "sub_key", "played"])
    return out[["lbr_share", "strategy_share", "gain_per_decision", "decisions"]]


def by_decision_table(rows: Sequence[dict]) -> pd.DataFrame:
    """A split's rows (`lbr_split`'s "rows") as a table indexed by (kind, sub-key),
    the largest gain first and the `all` row last."""
    frame = pd.DataFrame(list(rows))
    total = frame[frame["kind"] == "all"]
    frame = frame[frame["kind"] != "all"].sort_values("gain", ascending=False,
                                                      kind="stable")
    frame = pd.concat([frame, total]).set_index(["kind", "sub_key"])
    return frame[["gain", "half_width", "gain_lo", "gain_hi", "decisions_per_round",
                  "decisions"]]


def _half(result) -> float:
    """95% half-width of a head-to-head's seat-averaged value (seats independent)."""
    halves = [(hi - lo) / 2 for lo, hi in (s.value_interval() for s in result.seats)]
    return math.sqrt(halves[0] ** 2 + halves[1] ** 2) / 2


# The local best response's continuations that `measure` tries: those after which it
# gained most against the one-hour strategy with its fallback rules (tempo 0.571, the
# strategy itself 0.531, baiter 0.448; counter 0.391 and the heuristic bot 0.088 on the
# 37k table: README, "The full game"). Chosen on that strategy's own rounds, their
# gains there overstate; the held-out replay of the strongest does not reuse them.
LBR_CONTINUATIONS = ("baiter", "tempo", "self")
# which local best responses split their gain by decision (measure's split_runs)
LBR_SPLITS = ("replay", "every")
# rounds a seat of the strategy's self-play every local best response's gain is from
LBR_BASELINE_ROUNDS = 20_000


# The held-out replay's seed: the selection's seed plus this. The kernels keep 32 bits
# of a seed, and every stream `measure` draws from seed s is s plus at most 23, so
# the replay's streams (s + 2**31 + 0..23, modulo 2**32) never meet the selection's.
HOLDOUT_SEED_OFFSET = 2**31


def _match(variant, strategy: Agent, opponent: Agent, method: str, rounds: int,
           seed: int):
    result = head_to_head(variant, strategy, opponent, rounds=rounds, seed=seed)
    return result, Opponent(opponent.name, method, -result.value, _half(result),
                            f"{rounds:,} rounds a seat", rounds, seed)


def _lbr(strategy: Agent, continuation: str, rounds: int, seed: int,
         baseline: SelfPlayBaseline, split: str) -> Opponent:
    report = local_best_response(strategy, rounds=rounds, seed=seed,
                                 continuation=continuation, baseline=baseline, split=split)
    regenerations = report.to_json()["counters"]["regenerations"]
    return Opponent(f"local best response ({continuation})", "local best response",
                    report.gain, report.half_width,
                    f"{rounds:,} rounds a seat, {report.particles} particles, "
                    f"{regenerations} belief regenerations", rounds, seed,
                    report.by_decision, report.by_choice)


def measure(strategy: Agent, *, rounds: int = 20_000, seed: int = 0,
            exploiter_seconds: float | None = None, exploiter_iterations: int | None = None,
            lbr_rounds: int = 0, lbr_continuations: tuple[str, ...] = LBR_CONTINUATIONS,
            holdout_rounds: int | None = None, split_runs: str = "replay",
            say: Callable[[str], None] | None = None) -> StrengthReport:
    """Every opponent against `strategy` (a table agent) on its variant, `rounds` rounds
    in each seat; the exploiter trains for the given budget (skipped without one) and
    the local best response plays `lbr_rounds` rounds a seat (skipped at 0) once for
    each continuation in `lbr_continuations` (the player its seat becomes after the
    lookahead step: the LBR is as strong as its continuation allows, docs/lbr.md).

    Those rounds are the selection sample. The opponent with the largest gain on it is
    then played again on `holdout_rounds` fresh rounds a seat (default: as many as it
    was chosen on) from seed + HOLDOUT_SEED_OFFSET, and that replay is the report's
    `bound` (module docstring).

    Every local best response measures its gain from one self-play baseline of the
    strategy (solver.evaluation.lbr.self_play_baseline, LBR_BASELINE_ROUNDS a seat), played
    once. `split_runs` says which of them split their gain by decision (lbr_split's
    frame): "replay", the held-out replay alone (the selection's runs skip it, about a
    third of their time), or "every" run (strength.json's `each`)."""
    if split_runs not in LBR_SPLITS:
        raise AgentError(f"split_runs must be one of {', '.join(LBR_SPLITS)}, got "
                         f"{split_runs!r}")
    say = say or (lambda text: None)
    if holdout_rounds is not None and (isinstance(holdout_rounds, bool)
                                       or not isinstance(holdout_rounds, (int, np.integer))
                                       or holdout_rounds < 1):
        raise AgentError(f"holdout_rounds must be a positive integer, got "
                         f"{holdout_rounds!r}")
    variant = strategy.variant
    holdout_seed = seed + HOLDOUT_SEED_OFFSET
    # Self-play gives the coverage counts only: no gain subtracts it (module docstring).
    self_play = head_to_head(variant, strategy, strategy, rounds=rounds, seed=seed)
    coverage = {"self-play": coverage_frame(self_play.coverage[0] + self_play.coverage[1])}
    opponents = []
    replays: dict[str, Callable[[int], Opponent]] = {}
    for method, names in (("bot", BOTS), ("league", LEAGUE), ("held-out", HELD_OUT),
                          ("default", DEFAULT_PLAYERS)):
        for name in names:
            say(f"{strategy.name} against {name}")
            player = bot(name)
            result, opponent = _match(variant, strategy, player, method, rounds, seed + 1)
            if method == "bot":
                coverage[name] = coverage_frame(result.coverage[0])
            opponents.append(opponent)
            replays[opponent.name] = (
                lambda n, player=player, method=method:
                _match(variant, strategy, player, method, n, holdout_seed + 1)[1])
    if exploiter_seconds or exploiter_iterations:
        say("training an exploiter in each seat")
        report = exploit(strategy, seconds=exploiter_seconds, iterations=exploiter_iterations,
                         rounds=rounds, seed=seed + 2)
        traversals = int(np.mean([s.iterations for s in report.seats]))
        detail = f"{traversals:,} traversals a seat, {rounds:,} rounds a seat"
        opponents.append(Opponent("exploiter", "exploiter", report.gain, report.half_width,
                                  detail, rounds, seed + 2))

        def replay_exploiter(n, report=report, traversals=traversals):
            again = report.replay(strategy, rounds=n, seed=holdout_seed + 2)
            return Opponent("exploiter", "exploiter", again.gain, again.half_width,
                            f"the same {traversals:,} traversals a seat, {n:,} rounds a "
                            f"seat", n, holdout_seed + 2)

        replays["exploiter"] = replay_exploiter
    if lbr_rounds and lbr_continuations:
        say(f"{strategy.name} against itself, the local best responses' baseline "
            f"({LBR_BASELINE_ROUNDS:,} rounds a seat)")
        baseline = self_play_baseline(strategy, rounds=LBR_BASELINE_ROUNDS, seed=seed + 3)
    selection_split = "fresh" if split_runs == "every" else "off"
    for continuation in (lbr_continuations if lbr_rounds else ()):
        say(f"local best response in each seat, continuing as {continuation} "
            f"({lbr_rounds:,} rounds a seat)")
        opponent = _lbr(strategy, continuation, lbr_rounds, seed + 3, baseline,
                        selection_split)
        opponents.append(opponent)
        replays[opponent.name] = (lambda n, continuation=continuation:
                                  _lbr(strategy, continuation, n, holdout_seed + 3,
                                       baseline, "fresh"))

    replayed: list[Opponent] = []

    def replay(chosen: Opponent) -> Opponent:
        n = holdout_rounds or chosen.rounds
        say(f"held-out replay of the strongest, {chosen.name}: {n:,} fresh rounds a seat")
        replayed.append(replays[chosen.name](n))
        return replayed[-1]

    bound = held_out_bound(opponents, replay)
    fallback = (dataclasses.asdict(strategy.fallback) if strategy.fallback is not None
                else None)
    return StrengthReport(strategy.name, str(variant), rounds, opponents, coverage, fallback,
                          bound, simultaneous_bound(opponents),
                          lbr_split(opponents, bound, replayed[0] if replayed else None))
