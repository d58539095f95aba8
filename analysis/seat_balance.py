"""The seats section of an audit, exactly, for a two-player variant solved on its tree:
each seat's win share against the fair share 1/2 (a draw counting 1/2), the best-of-3
match odds, drawishness, duration, named as Ludii names them where they mean the same.

- win share: P(win) + P(draw)/2 under the solved profile, which is (1 + value)/2; the
  game value's bracket (analysis.equilibrium) brackets it;
- starter edge: the starter's win share minus 1/2 (Ludii's AdvantageP1 read against
  the fair share); balance: the largest gap between two seats' win shares (Ludii's
  Balance, as a gap rather than one minus it);
- drawishness: P(a round reaches the turn cap), the game's only draw (Ludii counts
  timeouts apart; here the cap is a rule, a draw);
- duration: turns a round lasts, mean (Ludii's Duration);
- starter_match_win: P(the player who starts a best-of-3 match wins it), the loser of
  each round starting the next (analysis.statistics.best_of_three);
- decisiveness and lead_changes: how early the eventual winner takes a strike lead it
  keeps, and how often the lead passes (analysis.decisiveness; Ludii's Decisiveness and
  LeadChange read on strikes).
"""

from __future__ import annotations

import pandas as pd

from game_def.variant import Variant
from solver.exact.tree import FlatTree

from .decisiveness import decisiveness
from .equilibrium import Solved
from .exact import profile_statistics


def seat_balance(variant: Variant, tree: FlatTree, solved: Solved,
                 symmetric: bool) -> tuple[pd.DataFrame, dict]:
    """(seats, metrics): one row per seat (win share, its bracket, minus the fair
    share, wins, losses, draws) and the variant's metrics (name -> value)."""
    stats = profile_statistics(variant, tree, solved.strategy, symmetric=symmetric)
    out = stats.outcomes().iloc[0]
    match = stats.match().iloc[0]
    draws = float(out["draws"])
    rows = []
    for seat in (0, 1):
        v, lo, hi = solved.seat_value(seat)
        wins = float(out[f"seat{seat}_wins"])
        rows.append({"seat": seat, "starts": seat == variant.first_player,
                     "win_share": (1 + v) / 2, "win_share_lo": (1 + lo) / 2,
                     "win_share_hi": (1 + hi) / 2, "fair_share": 0.5,
                     "edge": v / 2, "edge_lo": lo / 2, "edge_hi": hi / 2,
                     "wins": wins, "losses": float(out[f"seat{1 - seat}_wins"]),
                     "draws": draws, "value": v})
    seats = pd.DataFrame(rows).set_index("seat")
    first = seats.loc[variant.first_player]
    metrics = {"starter_edge": float(first["edge"]),
               "starter_edge_lo": float(first["edge_lo"]),
               "starter_edge_hi": float(first["edge_hi"]),
               "balance": float(seats["win_share"].max() - seats["win_share"].min()),
               "starter_match_win": float(match["starter_match_win"]),
               "drawishness": float(out["turn_cap_rate"]),
               "duration": float(out["mean_turns"]),
               **decisiveness(variant, tree, solved.strategy, symmetric),
               "exploitability": solved.exploitability}
    return seats, metrics
