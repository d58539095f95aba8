"""Could a policy over features capture the turn starts' one-step gap? A held-out probe.

The turn starts leak most, and no table key of tractable size separates them
(docs/abstraction.md, "Fine key on classes"; docs/lbr.md, "Which turn starts"). Before
building a parametric policy, this asks whether one could help: it collects self-play
turn starts of RUN's strategy, each group valued twice by the lookahead on independent
rollouts (`bench_turn_gaps.turn_starts`), fits linear scores of a group from features
(ridge regression on the first set's values, centred per decision) on the even rounds,
and plays them on the odd rounds: a model picks its best-scoring group, and its gain is
that group's value on the second set minus the strategy's mix on the second set. Neither
the model nor the pick has seen the second set, so the gain is unbiased; the first set's
own best pick is the reference a perfect one-step policy would reach.

Models, each adding to the one before:
- letter: one weight per card letter (what kind of card the peek or use acts on);
- + strikes: a letter's weight by the strikes (own, opponent);
- + company: a letter's weight by each other letter on offer (the interactions a
  table key would need one entry per combination for);
- + strategy: the strategy's own probability of the group, so the model corrects the
  table instead of replacing it.

The ridge strength is chosen on the even rounds by 5-fold cross-validation of the squared
error. The collected turn starts are cached in RUN (a pickle named after the arguments).

    .venv/bin/python benchmarks/probes/bench_turn_policy_probe.py runs/NAME [--rounds 200] [--seeds 1,2]
"""

from __future__ import annotations

import argparse
import pickle
from pathlib import Path

import numpy as np

from _probe import _header, _write
from bench_turn_gaps import turn_starts

MODELS = ("letter", "+ strikes", "+ company", "+ strategy")
RIDGES = (0.3, 3.0, 30.0, 300.0)


def collect(run: str, rounds: int, rollouts: int, seed: int) -> list:
    cache = Path(run) / f"turn_starts-r{rounds}-x{rollouts}-s{seed}.pkl"
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    decisions = list(turn_starts(run, rounds, rollouts, seed))
    tmp = cache.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(decisions))
    tmp.replace(cache)
    return decisions


def design(decisions, letters: dict[str, int], level: int):
    """Rows (one per group), the decision each belongs to, the groups' ids, and targets
    (first-set value minus the decision's mean over its groups)."""
    n = len(letters)
    width = n * (1 + (4 if level >= 1 else 0) + (n if level >= 2 else 0)) + (level >= 3)
    rows, owner, gids, target = [], [], [], []
    for i, d in enumerate(decisions):
        names = {g: d.letters[members[0]] for g, members in d.groups.items()}
        offered = np.zeros(n)
        for name in names.values():
            offered[letters[name]] = 1.0
        centre = np.mean([d.first[g] for g in d.groups])
        strikes = 2 * d.strikes[0] + d.strikes[1]
        for g, members in d.groups.items():
            x = np.zeros(width, dtype=np.float32)
            ell = letters[names[g]]
            x[ell] = 1.0
            at = n
            if level >= 1:
                x[at + 4 * ell + strikes] = 1.0
                at += 4 * n
            if level >= 2:
                x[at + n * ell: at + n * (ell + 1)] = offered
                at += n * n
            if level >= 3:
                x[at] = sum(d.probs[a] for a in members)
            rows.append(x)
            owner.append(i)
            gids.append(g)
            target.append(d.first[g] - centre)
    return np.array(rows), np.array(owner), np.array(gids), np.array(target)


def ridge(x: np.ndarray, y: np.ndarray, strength: float) -> np.ndarray:
    gram = x.T.astype(np.float64) @ x + strength * np.eye(x.shape[1])
    return np.linalg.solve(gram, x.T.astype(np.float64) @ y)


def choose_strength(x, y, owner) -> float:
    folds = owner % 5
    errors = []
    for strength in RIDGES:
        err = 0.0
        for f in range(5):
            w = ridge(x[folds != f], y[folds != f], strength)
            err += float(np.sum((x[folds == f] @ w - y[folds == f]) ** 2))
        errors.append(err)
    return RIDGES[int(np.argmin(errors))]


def gains(decisions, scores, owner, gids) -> np.ndarray:
    """Each decision's gain when the model plays its best-scoring group."""
    best = {}
    for s, i, g in zip(scores, owner, gids):
        if i not in best or s > best[i][0]:
            best[i] = (s, g)
    return np.array([d.second[best[i][1]] - d.mix for i, d in enumerate(decisions)])


def summary(label: str, values: np.ndarray, z95: float) -> str:
    half = z95 * values.std(ddof=1) / np.sqrt(len(values))
    return f"{label:<40} {values.mean():>+8.3f} ± {half:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--rollouts", type=int, default=48)
    parser.add_argument("--seeds", default="1",
                        help="comma-separated; each seed's rounds are collected (and "
                             "cached) on their own, so two can run at once")
    parser.add_argument("--collect-only", action="store_true",
                        help="collect and cache the turn starts of the seeds, fit nothing")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]

    from solver.evaluation.tournament import Z95

    decisions = [d for seed in seeds for d in collect(args.run, args.rounds, args.rollouts, seed)]
    if args.collect_only:
        print(f"{len(decisions):,} turn starts cached in {args.run}")
        return
    # the rounds of every seed alternate between fitting and playing
    train = [d for d in decisions if d.round % 2 == 0]
    test = [d for d in decisions if d.round % 2 == 1]
    names = sorted({name for d in decisions for name in d.letters.values()})
    letters = {name: i for i, name in enumerate(names)}
    endgame = np.array([d.strikes == (1, 1) for d in test])

    lines = _header(f"Linear turn-start policies on {Path(args.run).name}, held out "
                    f"({args.rounds} self-play rounds a seed, {args.rollouts} rollouts a group, "
                    f"seeds {args.seeds}; fitted on {len(train):,} turn starts of the even "
                    f"rounds, played on {len(test):,} of the odd, "
                    f"{int(endgame.sum()):,} of them with one strike each)")
    lines.append("gain a decision over the strategy's mix, on the second set of rollouts (95%)")
    lines.append(f"{'policy':<40} {'all':>16} {'one strike each':>18}   features  ridge")
    oracle = np.array([d.gap for d in test])
    rows = [("lookahead (first set's best)", oracle, "", "")]
    for level, model in enumerate(MODELS):
        x, owner, _, y = design(train, letters, level)
        strength = choose_strength(x, y, owner)
        w = ridge(x, y, strength)
        xt, owner_t, gid_t, _ = design(test, letters, level)
        rows.append((model, gains(test, xt @ w, owner_t, gid_t), x.shape[1], strength))
    for label, values, width, strength in rows:
        left = summary(label, values, Z95)
        right = summary("", values[endgame], Z95).strip()
        lines.append(f"{left}   {right:>16}   {width!s:>8}  {strength!s:>5}")
    _write(f"bench_turn_policy_probe_{Path(args.run).name}.txt", lines)


if __name__ == "__main__":
    main()
