"""How strong a strategy is: tournaments with 95% intervals and coverage, the league,
the trained exploiter, the local best response, their maximum as a lower bound on
exploitability (`measure`), and the abstraction's exact cost on reduced decks.
"""

from solver.evaluation.abstraction_cost import AbstractionCost, exact_evaluation
from solver.evaluation.exploiter import ExploiterReport, exploit
from solver.evaluation.lbr import LBRReport, local_best_response
from solver.evaluation.league import LEAGUE, play_league
from solver.evaluation.strength import StrengthReport, measure
from solver.evaluation.tournament import HeadToHead, coverage_frame, head_to_head

__all__ = ["AbstractionCost", "ExploiterReport", "HeadToHead", "LBRReport", "LEAGUE",
           "StrengthReport", "coverage_frame", "exact_evaluation", "exploit", "head_to_head",
           "local_best_response", "measure", "play_league"]
