"""Frequency tables of a strategy profile, from the counts of analysis._counts.

One class for exact and sampled statistics: `ProfileStatistics(variant, counts,
rounds_sampled)`. Exact counts (rounds_sampled=None) are reach probabilities summed over
the tree; sampled counts are totals over `rounds_sampled` self-play rounds, and their
tables add 95% intervals (`*_lo`, `*_hi` columns).

Every table is a tidy pandas DataFrame. Units: `*_per_round` columns are expected counts
per round (an event can happen several times in one round); `*_rate` columns are
conditional probabilities; turns are numbered from 1.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pandas as pd

from game_def.characters import NAMES, Character
from game_def.simulate import wilson_interval
from game_def.variant import Variant

from ._counts import (ANNOUNCED, BY_ELIMINATION, BY_PEEK, BY_REVEAL, BY_TURN_CAP,
                      BY_UNMASK, DRAW_COLUMN, FACE_UP, MISTAKE, SILENT, WIN, Counts)

Z95 = 1.959964
# Split tables (by strikes, by turn) leave out situations reached less than once in
# 10,000 rounds: an equilibrium mixes tiny probabilities into every situation, and a
# rate over one of those is noise.
SPLIT_MIN_PER_ROUND = 1e-4
LEADERS = ("Robin", "Sheriff")


def turn_buckets(max_turns: int) -> list[tuple[str, int, int]]:
    """(label, first turn, last turn) groups of turns 1..max_turns, finer early on where
    most rounds are decided: 1, 2, 3, 4, 5-6, 7-8, 9-12, 13-16, 17-24, 25-32, ..."""
    edges = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33]
    while edges[-1] <= max_turns:
        edges.append(edges[-1] + 16)
    buckets = []
    for lo, nxt in zip(edges, edges[1:]):
        if lo > max_turns:
            break
        hi = min(nxt - 1, max_turns)
        buckets.append((str(lo) if lo == hi else f"{lo}-{hi}", lo, hi))
    return buckets


def best_of_three(p_start, p_other, p_draw):
    """P(the player who starts a best-of-3 match wins it), given one round's outcome
    probabilities for whoever starts the round (p_start wins, p_other wins, p_draw).

    Match rule of docs/rules.md "The match" (as game_def.simulate plays it): the loser
    of a round starts the next; a drawn round counts for nobody and the player who did
    not start it starts the next. Works elementwise on arrays; NaN if p_draw == 1.
    """
    ps, po, pd_ = (np.asarray(x, dtype=float) for x in (p_start, p_other, p_draw))
    # v[a][b] = (P(A wins | A starts next), P(A wins | B starts next)) with A holding
    # a round wins and B b of them; a round won by A makes B start, and vice versa.
    with np.errstate(invalid="ignore", divide="ignore"):
        denom = 1 - pd_ * pd_
        v = {}
        for a, b in ((1, 1), (1, 0), (0, 1), (0, 0)):
            a_won = 1.0 if a + 1 == 2 else v[(a + 1, b)][1]   # B starts after A wins
            b_won = 0.0 if b + 1 == 2 else v[(a, b + 1)][0]   # A starts after B wins
            r1 = ps * a_won + po * b_won   # A starts the round
            r2 = po * a_won + ps * b_won   # B starts the round
            v[(a, b)] = ((r1 + pd_ * r2) / denom, (r2 + pd_ * r1) / denom)
    return v[(0, 0)][0]


@dataclasses.dataclass
class ProfileStatistics:
    """Reach-weighted statistics of a two-player strategy profile (both seats follow it).

    counts: totals recorded by analysis._counts (see `Counts` for the axes).
    rounds_sampled: None for exact counts (reach probabilities, one round of total
    weight); else the number of self-play rounds the counts were summed over.
    """

    variant: Variant
    counts: Counts
    rounds_sampled: int | None = None

    def __post_init__(self):
        recorded = float(self.counts.rounds[0])
        expected = 1.0 if self.rounds_sampled is None else float(self.rounds_sampled)
        if self.rounds_sampled is not None and self.rounds_sampled < 1:
            raise ValueError(f"rounds_sampled must be at least 1 (got {self.rounds_sampled})")
        if abs(recorded - expected) > 1e-6 * max(1.0, expected):
            raise ValueError(f"the counts hold {recorded:g} rounds of weight, not "
                             f"{expected:g}: pass the totals (weight 1 per sampled round) "
                             f"and rounds_sampled, or exact reach and None")

    # ----- basics ------------------------------------------------------------------
    @property
    def exact(self) -> bool:
        return self.rounds_sampled is None

    @property
    def _per(self) -> float:
        return 1.0 if self.rounds_sampled is None else float(self.rounds_sampled)

    @property
    def announce_mass(self) -> np.ndarray:
        """[seat, peeked card, announced character or SILENT], expected count a round."""
        return self.counts.announce.sum(axis=(1, 2, 3)) / self._per

    @property
    def challenge_mass(self) -> np.ndarray:
        """[announced character, claim true?, challenged?], expected count a round."""
        return self.counts.challenge.sum(axis=(0, 1, 2, 3)) / self._per

    @property
    def outcome(self) -> np.ndarray:
        """[P(seat 0 wins), P(seat 1 wins), P(draw)]."""
        return self.counts.outcome.sum(axis=1) / self._per

    @property
    def length(self) -> np.ndarray:
        """P(round lasts t turns), t = 0..max_turns."""
        return self.counts.length / self._per

    @property
    def traitor_hits(self) -> np.ndarray:
        """Expected Traitor strikes per round, per seat (peeked or revealed)."""
        return self.counts.traitor_hits.sum(axis=1) / self._per

    def _peeked_rows(self) -> list[Character]:
        return [c for c in Character if self.variant.counts[c] and c != Character.TRAITOR]

    def _interval(self, rate: float, per_round: float) -> tuple[float, float]:
        """Approximate 95% Wilson interval of a rate measured on per_round * rounds
        occasions (sampled only; treats the occasions as independent)."""
        trials = int(round(per_round * self._per))
        if not np.isfinite(rate) or trials == 0:
            return (np.nan, np.nan)
        return wilson_interval(int(round(rate * trials)), trials)

    def _with_intervals(self, frame: pd.DataFrame, rate: str, per_round: str) -> pd.DataFrame:
        if self.exact:
            return frame
        bounds = [self._interval(r, n) for r, n in zip(frame[rate], frame[per_round])]
        at = frame.columns.get_loc(rate) + 1
        frame.insert(at, f"{rate}_lo", [b[0] for b in bounds])
        frame.insert(at + 1, f"{rate}_hi", [b[1] for b in bounds])
        return frame

    # ----- announcements -------------------------------------------------------------
    def announcement_matrix(self, seat: int | None = None) -> pd.DataFrame:
        """P(action | peeked card): rows are peeked cards, columns `silent` and the
        announced characters; truth is the diagonal, bluffs are off it (a peeked
        Trickster has no `silent`: its row is the forced lie). `reach` is the expected
        number of such peeks per round."""
        mass = self.announce_mass.sum(axis=0) if seat is None else self.announce_mass[seat]
        rows = self._peeked_rows()
        cols = [SILENT] + [int(c) for c in self.variant.announceable]
        sub = mass[np.ix_([int(c) for c in rows], cols)]
        totals = sub.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            probs = np.where(totals[:, None] > 0, sub / np.where(totals > 0, totals, 1)[:, None],
                             np.nan)
        frame = pd.DataFrame(probs, index=pd.Index([c.label for c in rows], name="peeked"),
                             columns=["silent"] + [NAMES[c] for c in cols[1:]])
        frame["reach"] = totals
        return frame

    def peek_summary(self) -> pd.DataFrame:
        """Per peeked card: peeks_per_round, silent_rate (says nothing), truth_rate
        (announces the card itself), bluff_rate (announces another character); the
        three rates sum to 1."""
        mass = self.announce_mass.sum(axis=0)
        rows = []
        for c in self._peeked_rows():
            row = mass[int(c)]
            total = row.sum()
            silent, true = row[SILENT], row[int(c)]
            rate = (lambda x: x / total if total > 0 else np.nan)
            rows.append({"peeked": c.label, "peeks_per_round": total,
                         "silent_rate": rate(silent), "truth_rate": rate(true),
                         "bluff_rate": rate(total - silent - true)})
        return pd.DataFrame(rows).set_index("peeked")

    def forced_lies(self) -> pd.DataFrame:
        """What a player announces having peeked the Trickster (a forced lie): per
        announced character, probability (sums to 1) and times per round. Empty when the
        deck has no Trickster."""
        row = self.announce_mass.sum(axis=0)[Character.TRICKSTER]
        total = row.sum()
        frame = pd.DataFrame(
            [{"announced": c.label, "per_round": row[int(c)],
              "probability": row[int(c)] / total if total > 0 else np.nan}
             for c in self.variant.announceable] if self.variant.counts[Character.TRICKSTER]
            else [], columns=["announced", "per_round", "probability"])
        return frame.set_index("announced")

    def _bluff_rows(self, mass: np.ndarray) -> list[dict]:
        """mass[peeked, announced or SILENT] -> one row per announced character + all."""
        rows, all_total, all_true = [], 0.0, 0.0
        for c in self.variant.announceable:
            total, true = mass[:, int(c)].sum(), mass[int(c), int(c)]
            all_total += total
            all_true += true
            rows.append((c.label, total, true))
        rows.append(("all", all_total, all_true))
        return [{"announced": name, "announcements_per_round": total / self._per,
                 "bluff_rate": (total - true) / total if total > 0 else np.nan}
                for name, total, true in rows]

    def bluff_rates(self) -> pd.DataFrame:
        """Per announced character (and `all`): announcements_per_round and bluff_rate,
        P(the announced character is not the peeked card | it is announced)."""
        frame = pd.DataFrame(self._bluff_rows(self.counts.announce.sum(axis=(0, 1, 2, 3))))
        return self._with_intervals(frame.set_index("announced"), "bluff_rate",
                                    "announcements_per_round")

    def bluff_rates_by_strikes(self) -> pd.DataFrame:
        """bluff_rates split by the announcer's and the opponent's strikes at the time;
        rows reached less than SPLIT_MIN_PER_ROUND times a round are left out."""
        a = self.counts.announce.sum(axis=(0, 3))  # [own, opp, peeked, col]
        rows = []
        for own in range(a.shape[0]):
            for opp in range(a.shape[1]):
                for r in self._bluff_rows(a[own, opp]):
                    rows.append({"announcer_strikes": own, "opponent_strikes": opp, **r})
        return self._tidy(rows, ["announced", "announcer_strikes", "opponent_strikes"],
                          "bluff_rate", "announcements_per_round")

    def bluff_rates_by_turn(self) -> pd.DataFrame:
        """bluff_rates split by turn bucket (turns numbered from 1)."""
        a = self.counts.announce.sum(axis=(0, 1, 2))  # [turn, peeked, col]
        rows = []
        for label, lo, hi in turn_buckets(self.variant.max_turns):
            for r in self._bluff_rows(a[lo - 1:hi].sum(axis=0)):
                rows.append({"turns": label, **r})
        return self._tidy(rows, ["announced", "turns"], "bluff_rate",
                          "announcements_per_round")

    def _tidy(self, rows, keys, rate, per_round) -> pd.DataFrame:
        frame = pd.DataFrame(rows)
        frame = frame[frame[per_round] >= SPLIT_MIN_PER_ROUND].reset_index(drop=True)
        frame = self._with_intervals(frame, rate, per_round)
        order = {name: i for i, name in
                 enumerate([c.label for c in self.variant.announceable] + ["all"])}
        frame["_order"] = frame["announced"].map(order)
        return frame.sort_values(["_order"], kind="stable").drop(columns="_order") \
            .set_index(keys)

    # ----- challenges ----------------------------------------------------------------
    def _challenge_rows(self, mass: np.ndarray) -> list[dict]:
        """mass[announced, true, challenged] -> one row per announced character + all."""
        rows = [(c.label, mass[int(c)]) for c in self.variant.announceable]
        rows.append(("all", sum(m for _, m in rows)))
        out = []
        for name, m in rows:
            offered, challenged = m.sum(), m[:, 1].sum()
            out.append({
                "announced": name, "responses_per_round": offered / self._per,
                "challenge_rate": challenged / offered if offered > 0 else np.nan,
                "challenges_per_round": challenged / self._per,
                "challenge_right_rate": m[0, 1] / challenged if challenged > 0 else np.nan,
                "pass_on_bluff_rate": m[0, 0] / m[0].sum() if m[0].sum() > 0 else np.nan,
            })
        return out

    def challenge_rates(self) -> pd.DataFrame:
        """Per announced character (and `all`): responses_per_round (announcements the
        opponent answers), challenge_rate = P(challenge | announced),
        challenge_right_rate = P(it was a bluff | challenged), pass_on_bluff_rate =
        P(pass | the announcement is a bluff)."""
        frame = pd.DataFrame(self._challenge_rows(self.counts.challenge.sum(axis=(0, 1, 2, 3))))
        frame = frame.set_index("announced")
        frame = self._with_intervals(frame, "challenge_rate", "responses_per_round")
        return self._with_intervals(frame, "challenge_right_rate", "challenges_per_round")

    def challenge_precision(self) -> pd.DataFrame:
        """Per claimed character (and `all`), of the challenges of claims of it, the
        share that caught a false claim: challenges_per_round, precision = P(the claim
        was false | challenged), and lo, hi its 95% Wilson interval over the challenges
        (sampled statistics; the counts are the players' probabilities summed along the
        sampled rounds, so the interval treats their rounded total as the trials, as
        every rate's here does; exact statistics have no sampling error and give the
        precision itself as both ends). NaN where no claim of it was challenged. This
        one function builds the table: a column added here reaches the report and
        tables/ as it is.

        break_even: the precision above which a challenge of that claim gains, from
        the strikes each side risks and the claim's power as the sound default values
        it (solver.scripted.sound.claim_break_even, docs/sound-play.md), taken at the
        strikes where each challenge was made and averaged over the challenges (the
        start of a round's where none was): a seat ahead in strikes gains more by
        striking the claimant than it risks, so its break-even is lower (1/3 for a
        Peasant claim at two strikes to one), and a precision read against the start's
        alone would call its sound challenges losing. NaN for the leaders, whose
        power's cost depends on the unmasking's chance. below_break_even: the
        precision's whole interval lies below it, so that those challenges lose on
        average."""
        mass = self.counts.challenge.sum(axis=(0, 1, 2, 3))   # [said, true, did]
        claims = [(c.label, c, mass[int(c)]) for c in self.variant.announceable]
        claims.append(("all", None, sum(m for _, _, m in claims)))
        rows = []
        for name, character, m in claims:
            challenged = m[:, 1].sum()
            precision = m[0, 1] / challenged if challenged > 0 else np.nan
            per_round = challenged / self._per
            if self.exact or not np.isfinite(precision):
                lo = hi = precision
            else:
                lo, hi = self._interval(precision, per_round)
            even = (self._challenged_break_even(int(character)) if character is not None
                    else np.nan)
            rows.append({"claim": name, "challenges_per_round": per_round,
                         "precision": precision, "lo": lo, "hi": hi, "break_even": even,
                         "below_break_even": bool(hi < even)})
        return pd.DataFrame(rows).set_index("claim")

    def _challenged_break_even(self, character: int) -> float:
        """The break-even of challenges of claims of `character`, at the strikes (the
        challenger's, the claimant's) of each challenge, averaged by their mass; the
        start of a round's where none was challenged."""
        from solver.scripted.sound import claim_break_even

        # [challenger strikes, claimant strikes] of the challenges of this claim
        did = self.counts.challenge.sum(axis=(0, 3))[:, :, character, :, 1].sum(axis=2)
        if did.sum() <= 0:
            return claim_break_even(self.variant, character)
        total = 0.0
        for own, other in zip(*np.nonzero(did)):
            total += did[own, other] * claim_break_even(
                self.variant, character, seat=1, claimant=0, strikes=(int(other), int(own)))
        return total / did.sum()

    def challenge_rates_by_strikes(self) -> pd.DataFrame:
        """challenge_rates split by the challenger's and the announcer's strikes."""
        m = self.counts.challenge.sum(axis=(0, 3))  # [own, announcer, said, true, did]
        rows = []
        for own in range(m.shape[0]):
            for other in range(m.shape[1]):
                for r in self._challenge_rows(m[own, other]):
                    rows.append({"challenger_strikes": own, "announcer_strikes": other, **r})
        return self._tidy(rows, ["announced", "challenger_strikes", "announcer_strikes"],
                          "challenge_rate", "responses_per_round")

    def challenge_rates_by_turn(self) -> pd.DataFrame:
        """challenge_rates split by turn bucket (turns numbered from 1)."""
        m = self.counts.challenge.sum(axis=(0, 1, 2))  # [turn, said, true, did]
        rows = []
        for label, lo, hi in turn_buckets(self.variant.max_turns):
            for r in self._challenge_rows(m[lo - 1:hi].sum(axis=0)):
                rows.append({"turns": label, **r})
        return self._tidy(rows, ["announced", "turns"], "challenge_rate",
                          "responses_per_round")

    # ----- powers ----------------------------------------------------------------------
    def power_use(self) -> pd.DataFrame:
        """Per character in the deck (Traitor aside): announced_per_round,
        runs_after_announcement_per_round (unchallenged, or challenged and true),
        face_up_uses_per_round (`use` of a face-up card; a Peasant or Trickster use is a
        pass), runs_per_round (both ways)."""
        announced = self.announce_mass.sum(axis=(0, 1))
        runs = self.counts.power_runs.sum(axis=0) / self._per  # [character, how]
        rows = []
        for c in self._peeked_rows():
            rows.append({"character": c.label, "announced_per_round": announced[int(c)],
                         "runs_after_announcement_per_round": runs[int(c), ANNOUNCED],
                         "face_up_uses_per_round": runs[int(c), FACE_UP],
                         "runs_per_round": runs[int(c)].sum()})
        return pd.DataFrame(rows).set_index("character")

    def unmasking(self) -> pd.DataFrame:
        """Per unmasking power (Robin unmasks the Sheriff's camp, the Sheriff Robin's):
        attempts_per_round, wins_per_round, success_rate = P(win | attempt), and the
        single reveals: reveals_per_round, reveal_hit_rate (a camp card turned up)."""
        u = self.counts.unmask.sum(axis=0) / self._per      # [leader, mistake/win]
        r = self.counts.reveals.sum(axis=0) / self._per     # [leader, miss/hit]
        rows = []
        for i, name in enumerate(LEADERS):
            attempts = u[i].sum()
            rows.append({"power": name, "attempts_per_round": attempts,
                         "wins_per_round": u[i, WIN], "mistakes_per_round": u[i, MISTAKE],
                         "success_rate": u[i, WIN] / attempts if attempts > 0 else np.nan,
                         "reveals_per_round": r[i].sum(),
                         "reveal_hit_rate": r[i, 1] / r[i].sum() if r[i].sum() > 0 else np.nan})
        frame = pd.DataFrame(rows).set_index("power")
        return self._with_intervals(frame, "success_rate", "attempts_per_round")

    def traitor(self) -> pd.DataFrame:
        """Per seat: Traitor strikes per round, by peeking it and (option
        traitor_strikes_on_reveal) by revealing it with Robin or the Sheriff."""
        t = self.counts.traitor_hits / self._per
        return pd.DataFrame({"seat": [0, 1], "hits_by_peek_per_round": t[:, BY_PEEK],
                             "hits_by_reveal_per_round": t[:, BY_REVEAL]}).set_index("seat")

    def witch_choices(self) -> pd.DataFrame:
        """Per seat: Witch keep/swap choices per round and P(swap)."""
        w = self.counts.witch / self._per
        total = w.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            swap = np.where(total > 0, w[:, 1] / np.where(total > 0, total, 1), np.nan)
        return pd.DataFrame({"seat": [0, 1], "choices_per_round": total,
                             "swap_rate": swap}).set_index("seat")

    # ----- balance ---------------------------------------------------------------------
    def outcomes(self) -> pd.DataFrame:
        """One row: seat0_wins, seat1_wins, draws (sum to 1), seat0_value (= wins - losses,
        the game value for seat 0), mean_turns, turn_cap_rate (draw by the turn cap: the
        only draw), and how rounds end: ended_by_unmask, ended_by_elimination (sum to
        1 - draws). Sampled: 95% intervals (Wilson for rates, normal for the value)."""
        o = self.outcome
        by_cause = self.counts.outcome.sum(axis=0) / self._per
        turns = np.arange(len(self.length))
        row = {"seat0_wins": o[0], "seat1_wins": o[1], "draws": o[DRAW_COLUMN],
               "seat0_value": o[0] - o[1], "mean_turns": float((turns * self.length).sum()),
               "turn_cap_rate": float(by_cause[BY_TURN_CAP]),
               "ended_by_unmask": float(by_cause[BY_UNMASK]),
               "ended_by_elimination": float(by_cause[BY_ELIMINATION])}
        frame = pd.DataFrame([row])
        if not self.exact:
            n = self.rounds_sampled
            for name, p in (("seat0_wins", o[0]), ("seat1_wins", o[1]),
                            ("draws", o[DRAW_COLUMN])):
                lo, hi = wilson_interval(int(round(p * n)), n)
                frame.insert(frame.columns.get_loc(name) + 1, f"{name}_lo", lo)
                frame.insert(frame.columns.get_loc(name) + 2, f"{name}_hi", hi)
            value = o[0] - o[1]
            half = Z95 * math.sqrt(max(o[0] + o[1] - value * value, 0.0) / n)
            at = frame.columns.get_loc("seat0_value") + 1
            frame.insert(at, "seat0_value_lo", value - half)
            frame.insert(at + 1, "seat0_value_hi", value + half)
            frame["rounds_sampled"] = n
        return frame

    def match(self) -> pd.DataFrame:
        """Best of three (first to two round wins) for the player who starts the match,
        with the rule that the loser of a round starts the next (see best_of_three):
        starter_round_win, starter_round_loss, round_draw (the starting seat's round
        outcome under this profile) and starter_match_win. Sampled: a 95% interval by
        the parametric bootstrap (round outcomes resampled, 4000 times, seed 0)."""
        first = self.variant.first_player
        o = self.outcome
        ps, po, pd_ = o[first], o[1 - first], o[DRAW_COLUMN]
        row = {"starter_round_win": ps, "starter_round_loss": po, "round_draw": pd_,
               "starter_match_win": float(best_of_three(ps, po, pd_))}
        if not self.exact:
            n = self.rounds_sampled
            p = np.clip(np.array([ps, po, pd_]), 0, None)
            again = np.random.default_rng(0).multinomial(n, p / p.sum(), 4000) / n
            m = best_of_three(again[:, 0], again[:, 1], again[:, 2])
            lo, hi = np.nanquantile(m, [0.025, 0.975])
            point = row["starter_match_win"]  # resampled counts are whole numbers
            row["starter_match_win_lo"], row["starter_match_win_hi"] = \
                min(lo, point), max(hi, point)
        return pd.DataFrame([row])

    def round_length(self) -> pd.Series:
        """P(the round lasts t turns), indexed by t (0 .. max_turns)."""
        return pd.Series(self.length, index=pd.Index(range(len(self.length)), name="turns"),
                         name="probability")

    def round_length_table(self) -> pd.DataFrame:
        """turns, probability (sums to 1), cumulative."""
        s = self.round_length()
        return pd.DataFrame({"probability": s, "cumulative": s.cumsum()})

    # ----- export ------------------------------------------------------------------
    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by a file-friendly name, in reading order; tables about a
        character the deck does not hold (the Witch's choices in rspx) are left out."""
        tables = {
            "outcomes": self.outcomes(),
            "match": self.match(),
            "round_length": self.round_length_table(),
            "announcement_matrix": self.announcement_matrix(),
            "announcement_matrix_seat0": self.announcement_matrix(0),
            "announcement_matrix_seat1": self.announcement_matrix(1),
            "peek_summary": self.peek_summary(),
            "forced_lies": self.forced_lies(),
            "bluff_rates": self.bluff_rates(),
            "bluff_rates_by_strikes": self.bluff_rates_by_strikes(),
            "bluff_rates_by_turn": self.bluff_rates_by_turn(),
            "challenge_rates": self.challenge_rates(),
            "challenge_precision": self.challenge_precision(),
            "challenge_rates_by_strikes": self.challenge_rates_by_strikes(),
            "challenge_rates_by_turn": self.challenge_rates_by_turn(),
            "power_use": self.power_use(),
            "unmasking": self.unmasking(),
            "traitor": self.traitor(),
            "witch_choices": self.witch_choices(),
        }
        held = {c.label for c in self.variant.in_deck}
        needs = {"forced_lies": ("Trickster",), "unmasking": ("Robin", "Sheriff"),
                 "traitor": ("Traitor",), "witch_choices": ("Witch",)}
        return {name: table for name, table in tables.items()
                if name not in needs or any(c in held for c in needs[name])}

    def export(self, directory, fmt: str = "csv") -> list[Path]:
        """Write every table to directory/<name>.csv (or .parquet); returns the paths."""
        return export_tables(self.tables(), directory, fmt)


def export_tables(tables: dict[str, pd.DataFrame], directory, fmt: str = "csv") -> list[Path]:
    """Write tables as CSV or Parquet (index kept as columns); returns the paths."""
    from game_def.errors import RobinWoodError

    if fmt not in ("csv", "parquet"):
        raise RobinWoodError(f"table format must be csv or parquet (got {fmt!r})")
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise RobinWoodError("Parquet export needs pyarrow: pip install pyarrow") from None
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, frame in tables.items():
        path = directory / f"{name}.{fmt}"
        flat = frame.reset_index() if _has_named_index(frame) else frame
        if fmt == "csv":
            flat.to_csv(path, index=False)
        else:  # Parquet columns have one type: mixed text/number columns become text
            mixed = [c for c in flat.columns if flat[c].dtype == object]
            flat.astype({c: str for c in mixed}).to_parquet(path, index=False)
        paths.append(path)
    return paths


def _has_named_index(frame: pd.DataFrame) -> bool:
    return any(name is not None for name in frame.index.names)
