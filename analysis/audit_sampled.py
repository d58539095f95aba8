"""The audit of a variant too big to enumerate (the printed decks, 2-4 seats, teams):
the same sections as analysis.audit, from Monte Carlo CFR tables and seeded play.

- The free game: Monte Carlo CFR at the given budget (traversals a seat, the default
  settings of `robinwood solve --algo mccfr`, the sound default where the table has not
  learned), its tables in <work>/free.
- Seats: `rounds` rounds of the table's self-play; each seat's (side's) win share, a
  draw counting 1/N, against the fair share 1/N with its 95% interval; the starter's
  edge, balance, best-of-3 odds (two players), drawishness (turn-cap rate), duration.
- What each mechanic is worth: for each restriction of analysis.restricted_play and
  each seat (side), the game is trained again with that seat restricted by forbid locks
  (solver.decisions: the seat learns over the actions left) and the other seats free,
  at `restricted_iterations` traversals a seat (at most `iterations`) and the same
  seed; the value of the mechanic is the seat's win share in the free game's self-play
  minus its share in the restricted game's, with the 95% interval of a difference of
  independent means. The free game compared is trained at the restricted games' budget
  (again, in <work>/free-restricted, where that budget is below the free game's), so
  that the two sides of a row differ by the locks alone. The restricted games are the
  audit's time (one training each, N a restriction at N sides), hence their smaller
  default budget: the tables learn a few percent of the decisions at either budget,
  the sound default playing the rest (docs/audit.md measures both).
- The skill ladder: a round robin among uniform play, the scripted styles, the sound
  default and the free table: the row player in one seat (side) against copies of the
  column player, rotated over every seat, `ladder_rounds` rounds a seat, on seeds that
  never trained anything (they start at LADDER_SEED). With `search_rounds` (two seats
  only: play-time search plays two-player rounds) the free table with play-time search
  (solver.search.Searcher at its default settings) joins it as one more row, played
  against every other player for `search_rounds` rounds a seat; its column is the
  other side of the same rounds (at two seats a draw counts 1/2 to each, so the two
  shares add to 1), and its diagonal is left empty (the searcher plays agents, not
  another searcher).

Every piece is written to the work folder as it finishes (training runs checkpoint
themselves), so an interrupted audit resumes where it stopped (`resume=True`); the
settings are recorded and a resume with other settings is refused.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

from game_def.variant import Variant
from solver.store import atomic_write_bytes

from .restricted_play import Restriction, restrictions_for
from .skill_ladder import SkillLadder
from .statistics import best_of_three

Z95 = 1.959963984540054
LADDER_SEED = 1_000_003   # ladder and seat seeds: apart from every training seed
SCRIPTED_LADDER = ("uniform", "honest", "paranoid", "heuristic")
TABLE = "table"
SEARCHED = "table+search"


class SampledAuditError(ValueError):
    """Settings or a work folder the sampled audit cannot take (one line)."""


@dataclasses.dataclass(frozen=True)
class SampledSettings:
    """Budgets of a sampled audit. iterations: Monte Carlo CFR traversals a seat for the
    free game; restricted_iterations: the same for each restricted game and the free
    game it is compared with (the smaller of the two budgets is used); rounds:
    self-play rounds for the seats and
    for each side of a restriction; ladder_rounds: rounds a seat for each ordered pair
    of the ladder; restrictions: names to run (None: all of restrictions_for);
    fallback: where the tables play their fallback rules (`robinwood solve`'s
    --fallback: "auto" is the project's default, the sound default at every claim and
    response; "sound:visits=50,turn_visits=50" lets a table play its own entries once
    they have 50 updates); search_rounds: rounds a seat for each pair of the ladder's
    row of the free table with play-time search (two seats only, ignored elsewhere; 0
    leaves it out; 30 rounds a seat against the 14 other players of the printed deck's
    ladder took about 6 minutes). The budgets' defaults are those at which `robinwood audit
    standard` (every restriction) runs within 45 minutes on 2 cores (docs/audit.md);
    larger ones narrow the intervals."""

    iterations: int = 2400
    restricted_iterations: int = 600
    rounds: int = 6000
    ladder_rounds: int = 300
    search_rounds: int = 30
    seed: int = 0
    restrictions: tuple | None = None
    fallback: str = "auto"

    def __post_init__(self):
        for name in ("iterations", "restricted_iterations", "rounds", "ladder_rounds"):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or value < 1:
                raise SampledAuditError(f"{name} must be a whole number of at least 1, "
                                        f"got {value!r}")
        if not isinstance(self.search_rounds, (int, np.integer)) or self.search_rounds < 0:
            raise SampledAuditError(f"search_rounds must be a whole number of at least 0 "
                                    f"(0 leaves search out of the ladder), got "
                                    f"{self.search_rounds!r}")
        from solver.players.agents import parse_fallback

        parse_fallback(self.fallback)   # a bad one is a one-line AgentError

    @property
    def restricted_budget(self) -> int:
        """Traversals a seat of each restricted game and of the free game compared with
        them: restricted_iterations, never more than the free game's."""
        return int(min(self.restricted_iterations, self.iterations))

    def load(self, run):
        """The table agent of a run, with this audit's fallback."""
        from solver.players.agents import load_table_agent, parse_fallback

        return load_table_agent(run, parse_fallback(self.fallback))

    def to_json(self) -> dict:
        out = dataclasses.asdict(self)
        out["restrictions"] = None if self.restrictions is None else list(self.restrictions)
        return out


def sides(variant: Variant) -> list[tuple]:
    """The seats each side holds: one seat each, or each team's pair."""
    from solver.evaluation.table_play import seat_groups

    return seat_groups(variant)


def fair_share(variant: Variant) -> float:
    return 0.5 if variant.teams else 1.0 / variant.players


def _write_json(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, json.dumps(data, indent=1).encode())


def _read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _share_interval(wins: float, draws: float, fair: float) -> tuple[float, float]:
    """A side's win share (a draw counting `fair`) and the per-round variance of its
    outcome (1, fair, 0), from the fractions of rounds it won and drew."""
    share = wins + fair * draws
    variance = (wins * (1 - share) ** 2 + draws * (fair - share) ** 2
                + (1 - wins - draws) * share ** 2)
    return share, variance


def train(variant: Variant, folder: Path, iterations: int, seed: int, locks=(),
          say=None) -> Path:
    """A Monte Carlo CFR run in `folder` at `iterations` traversals a seat: finished
    runs are kept, interrupted ones resumed from their checkpoint."""
    from solver.mccfr.job import CHECKPOINT, solve_mccfr
    from solver.mccfr.trainer import MCCFRConfig

    meta = _read_json(folder / "metadata.json")
    if meta is not None and meta.get("iterations", 0) >= iterations:
        return folder
    config = MCCFRConfig(variant, seed=seed, locks=tuple(locks))
    resume = (folder / CHECKPOINT).exists()
    solve_mccfr(config, folder, max_iterations=iterations, resume=resume,
                checkpoint_seconds=60.0, on_phase=None if say is None else
                (lambda line: say(f"  {folder.name}: {line}")))
    return folder


def forbid_locks(restriction: Restriction, seats: tuple) -> tuple[str, ...]:
    """The restriction as forbid locks, one per seat of the side."""
    return tuple(restriction.forbid_lock(seat) for seat in seats)


def seat_section(variant: Variant, agent, rounds: int, seed: int) -> tuple[pd.DataFrame,
                                                                          dict]:
    """(seats, metrics) of the agent's self-play, one row per side."""
    from .table_balance import sampled_table_balance

    balance = sampled_table_balance(agent, rounds, seed)
    rates = balance.rates()
    fair = fair_share(variant)
    draws = float(balance.totals["draws"])
    rows = []
    for side, seats in enumerate(sides(variant)):
        wins = float(balance.side_wins[side])
        share, var = _share_interval(wins, draws, fair)
        hw = Z95 * math.sqrt(var / rounds)
        rows.append({"side": side, "seats": "+".join(map(str, seats)),
                     "starts": variant.first_player in seats,
                     "win_share": share, "win_share_lo": share - hw,
                     "win_share_hi": share + hw, "fair_share": fair,
                     "edge": share - fair, "edge_lo": share - hw - fair,
                     "edge_hi": share + hw - fair, "wins": wins,
                     "losses": 1 - wins - draws, "draws": draws, "rounds": rounds})
    seats = pd.DataFrame(rows).set_index("side")
    first = seats[seats["starts"]].iloc[0]
    metrics = {"starter_edge": float(first["edge"]),
               "starter_edge_lo": float(first["edge_lo"]),
               "starter_edge_hi": float(first["edge_hi"]),
               "balance": float(seats["win_share"].max() - seats["win_share"].min()),
               "starter_match_win": float("nan"),
               "drawishness": float(rates["turn_cap_rate"]),
               "duration": float(rates["mean_turns"]),
               "decisiveness": float(balance.decisiveness),
               "lead_changes": float(balance.lead_changes),
               "bluff_rate": float(rates["bluff_rate"]),
               "challenge_rate": float(rates["challenge_rate"]),
               "challenge_right_rate": float(rates["challenge_right_rate"])}
    if variant.players == 2:
        other = seats[~seats["starts"]].iloc[0]
        metrics["starter_match_win"] = float(best_of_three(
            first["wins"], other["wins"], draws))
    return seats, metrics


def side_share(variant: Variant, agent, opponent, seats: tuple, rounds: int,
               seed: int) -> tuple[float, float]:
    """(win share, 95% half-width) of `agent` in `seats` against `opponent` elsewhere."""
    from solver.evaluation.table_play import play_side

    result = play_side(variant, agent, opponent, seats, rounds, seed)
    return result.share, result.half_width


def ladder_players(variant: Variant, table) -> dict:
    """name -> Agent: uniform, the baseline bots, the league styles, the sound default
    and the free table."""
    from solver.players.agents import bot
    from solver.scripted import LEAGUE_NAMES

    names = SCRIPTED_LADDER + LEAGUE_NAMES + ("sound",)
    players = {name: bot(name) for name in names}
    players[TABLE] = table
    return players


def ladder_pair(variant: Variant, a, b, rounds: int, seed: int) -> tuple[float, float]:
    """a's win share against copies of b, averaged over a's sides, and its half-width
    (a mean of independent sides)."""
    shares, widths = [], []
    for i, seats in enumerate(sides(variant)):
        share, hw = side_share(variant, a, b, seats, rounds, seed + i)
        shares.append(share)
        widths.append(hw)
    return (float(np.mean(shares)),
            float(math.sqrt(sum(w * w for w in widths)) / len(widths)))


def sampled_audit(text: str, work, settings: SampledSettings = SampledSettings(), *,
                  resume: bool = False, progress=None):
    """Audit `text` by Monte Carlo CFR and play, its pieces in the folder `work`
    (module docstring). Returns an analysis.audit.Audit with method "sampled"."""
    from game_def.variant import parse

    from .audit import Audit

    variant = parse(text)
    chosen_restrictions(variant, settings)   # a bad name: one line before any work
    work = Path(work)
    say = progress or (lambda line: None)
    recorded = _read_json(work / "settings.json")
    wanted = {"variant": str(variant), **settings.to_json()}
    if recorded is not None and not resume:
        raise SampledAuditError(f"{work} already holds an audit of {recorded['variant']}: "
                                f"add --resume to continue it, or choose another --out")
    if recorded is not None:   # audits recorded before these settings had none
        recorded.setdefault("search_rounds", 0)
        recorded.setdefault("restricted_iterations", recorded.get("iterations"))
    if recorded is not None and recorded != wanted:
        differ = sorted(k for k in wanted if recorded.get(k) != wanted[k])
        raise SampledAuditError(f"{work} holds an audit with other settings "
                                f"({', '.join(differ)}): resume it with the same ones "
                                f"or choose another --out")
    _write_json(work / "settings.json", wanted)
    fair = fair_share(variant)
    seconds: dict[str, float] = {}
    t = time.perf_counter()
    say(f"{variant}: Monte Carlo CFR, {settings.iterations:,} traversals a seat (free)")
    free = settings.load(train(variant, work / "free", settings.iterations,
                               settings.seed, say=say))
    seconds["free_game"] = time.perf_counter() - t
    t = time.perf_counter()
    say(f"seats: {settings.rounds:,} rounds of self-play")
    seats, metrics = seat_section(variant, free, settings.rounds, LADDER_SEED)
    metrics["learned_share"] = _learned_share(free)
    seconds["seats"] = time.perf_counter() - t
    t = time.perf_counter()
    restricted = restricted_section(variant, work, free, settings, say)
    seconds["restricted_play"] = time.perf_counter() - t
    t = time.perf_counter()
    ladder = ladder_section(variant, work, free, settings, say)
    seconds["skill_ladder"] = time.perf_counter() - t
    runs = _record_seconds(work / "seconds.json", seconds)
    seconds = {key: sum(run.get(key, 0.0) for run in runs) for key in seconds}
    info = {"method": "sampled", "iterations": settings.iterations,
            "restricted_iterations": settings.restricted_budget,
            "rounds": settings.rounds, "ladder_rounds": settings.ladder_rounds,
            "search_rounds": settings.search_rounds if SEARCHED in ladder.matrix.index
            else 0,
            "seed": settings.seed, "fair_share": fair, "fallback": settings.fallback,
            "ladder": list(ladder.matrix.index), "work": str(work), "runs": len(runs)}
    return Audit(variant, seats, metrics, restricted, ladder, seconds, info,
                 method="sampled")


def _record_seconds(path: Path, seconds: dict) -> list:
    """Add this run's seconds by section to the work folder's record and return every
    run's: an audit resumed after an interruption took the sum of its runs, not the
    last run's few seconds of reading finished pieces."""
    runs = _read_json(path) or []
    runs.append(seconds)
    _write_json(path, runs)
    return runs


def _learned_share(agent) -> float:
    """The share of self-play decisions played from learned table entries."""
    from solver.evaluation.table_play import table_coverage

    return float(table_coverage(agent, rounds=500, seed=LADDER_SEED + 7).at["all",
                                                                          "learned"])


def chosen_restrictions(variant: Variant, settings: SampledSettings) -> list:
    """The restrictions to run: all of restrictions_for, or those named (an unknown
    name is a one-line SampledAuditError)."""
    chosen = restrictions_for(variant)
    if settings.restrictions is not None:
        unknown = set(settings.restrictions) - {r.name for r in chosen}
        if unknown:
            raise SampledAuditError(f"unknown restriction(s) {', '.join(sorted(unknown))}: "
                                    f"choose among {', '.join(r.name for r in chosen)}")
        chosen = [r for r in chosen if r.name in settings.restrictions]
    return chosen


def restricted_section(variant: Variant, work: Path, free, settings: SampledSettings,
                       say) -> pd.DataFrame:
    """One row per (restriction, side): free and restricted win shares, the share lost
    and its 95% interval; each row kept in work/restricted/<name>-<side>.json. Every
    restricted game is trained at settings.restricted_budget, and so is the free game
    its row compares with: `free` itself at the full budget, else the free game trained
    again at that budget in work/free-restricted (when a row first needs it)."""
    chosen = chosen_restrictions(variant, settings)
    budget = settings.restricted_budget
    free_shares = {}
    rows = []
    reference = [free] if budget >= settings.iterations else []

    def free_reference():
        if not reference:
            say(f"restricted play: the free game again at {budget:,} traversals a seat, "
                f"the restricted games' budget")
            reference.append(settings.load(train(variant, work / "free-restricted",
                                                 budget, settings.seed, say=say)))
        return reference[0]

    def free_share_of(side: int, seats: tuple) -> tuple[float, float]:
        """The side's share in the free game's self-play on the restricted rows' seeds
        and its half-width: played once, when a row first needs it, and kept in
        work/restricted/free-side<side>.json (a resume plays it not again)."""
        if side not in free_shares:
            path = work / "restricted" / f"free-side{side}.json"
            kept = _read_json(path)
            if kept is None:
                agent = free_reference()
                kept = list(side_share(variant, agent, agent, seats, settings.rounds,
                                       LADDER_SEED + 11 + side))
                _write_json(path, kept)
            free_shares[side] = (float(kept[0]), float(kept[1]))
        return free_shares[side]

    for r in chosen:
        for side, seats in enumerate(sides(variant)):
            name = f"{r.name}-side{side}"
            done = _read_json(work / "restricted" / f"{name}.json")
            if done is not None:
                rows.append(done)
                continue
            say(f"restricted play: side {side} ({'+'.join(map(str, seats))}) {r.name}: "
                f"training")
            locks = forbid_locks(r, seats)
            run = train(variant, work / "restricted" / name, budget, settings.seed,
                        locks, say)
            agent = settings.load(run)
            share, hw = side_share(variant, agent, agent, seats, settings.rounds,
                                   LADDER_SEED + 11 + side)
            free_share, free_hw = free_share_of(side, seats)
            lost = free_share - share
            width = math.sqrt(hw * hw + free_hw * free_hw)
            row = {"restriction": r.name, "seat": "+".join(map(str, seats)),
                   "side": side, "forbids": r.words, "lock": "; ".join(locks),
                   "free_share": free_share, "restricted_share": share,
                   "share_lost": lost, "lost_lo": lost - width, "lost_hi": lost + width,
                   "applies": True}
            _write_json(work / "restricted" / f"{name}.json", row)
            rows.append(row)
    return pd.DataFrame(rows)


def ladder_section(variant: Variant, work: Path, free, settings: SampledSettings,
                   say) -> SkillLadder:
    """The round robin (diagonal included: a player against copies of itself, which
    must read the fair share within its interval); each row kept in
    work/ladder/<player>.json."""
    players = ladder_players(variant, free)
    names = list(players)
    share = np.zeros((len(names), len(names)))
    width = np.zeros_like(share)
    for i, a in enumerate(names):
        path = work / "ladder" / f"{a}.json"
        done = _read_json(path)
        if done is None or done.get("columns") != names:
            say(f"skill ladder: {a} against every player")
            row = [ladder_pair(variant, players[a], players[b], settings.ladder_rounds,
                               LADDER_SEED + 100 * (i * len(names) + j))
                   for j, b in enumerate(names)]
            done = {"columns": names, "share": [s for s, _ in row],
                    "half_width": [w for _, w in row]}
            _write_json(path, done)
        share[i] = done["share"]
        width[i] = done["half_width"]
    if settings.search_rounds > 0 and searchable(variant):
        names, share, width = _with_search_row(variant, work, free, players, names,
                                               share, width, settings.search_rounds, say)
    return SkillLadder(variant, pd.DataFrame(share, index=names, columns=names),
                         fair_share(variant),
                         half_width=pd.DataFrame(width, index=names, columns=names))


def searchable(variant: Variant) -> bool:
    """Can the ladder hold the table with play-time search (two seats, no teams)?"""
    return variant.players == 2 and not variant.teams


def search_pair(searcher, opponent, rounds: int, seed: int) -> tuple[float, float]:
    """The searcher's win share against `opponent` over both seats (a draw counting
    1/2), and its 95% half-width: (1 + value) / 2 of solver.search.play_search."""
    from solver.search import play_search

    result = play_search(searcher, opponent, rounds=rounds, seed=seed)
    return (1.0 + result.value) / 2.0, result.half_width / 2.0


def _with_search_row(variant, work, free, players, names, share, width, rounds, say):
    """The square ladder with the searched table's row and column added (module
    docstring); the row kept in work/ladder/table+search.json."""
    from solver.search import Searcher

    path = work / "ladder" / f"{SEARCHED}.json"
    done = _read_json(path)
    if done is None or done.get("columns") != names or done.get("rounds") != rounds:
        searcher = Searcher(free)
        row = []
        for j, b in enumerate(names):
            say(f"skill ladder: {SEARCHED} against {b} ({rounds} rounds a seat)")
            row.append(search_pair(searcher, players[b], rounds,
                                   LADDER_SEED + 100 * (len(names) ** 2 + j)))
        done = {"columns": names, "rounds": rounds, "share": [s for s, _ in row],
                "half_width": [w for _, w in row]}
        _write_json(path, done)
    n = len(names)
    grown = np.full((n + 1, n + 1), np.nan)
    grown_width = np.full((n + 1, n + 1), np.nan)
    grown[:n, :n], grown_width[:n, :n] = share, width
    grown[n, :n] = done["share"]
    grown[:n, n] = 1.0 - np.asarray(done["share"])   # the other side of the same rounds
    grown_width[n, :n] = grown_width[:n, n] = done["half_width"]
    return names + [SEARCHED], grown, grown_width
