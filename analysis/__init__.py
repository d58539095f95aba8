"""Turns solved strategies into what designers read: frequency tables (exact or sampled),
figures, side-by-side comparisons and the `robinwood report` pages."""

from .audit import audit  # analysis.audit("rspmx:max_turns=3"): the function
from .exact import profile_statistics, profile_statistics_from_run
from .sampled import profile_statistics_sampled
from .statistics import ProfileStatistics, best_of_three

__all__ = ["ProfileStatistics", "audit", "best_of_three", "profile_statistics", "profile_statistics_from_run",
           "profile_statistics_sampled"]
