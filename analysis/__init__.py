"""Turns solved strategies into what designers read (tables now; reports to come)."""

from .exact import profile_statistics, profile_statistics_from_run
from .statistics import ProfileStatistics, best_of_three

__all__ = ["ProfileStatistics", "best_of_three", "profile_statistics", "profile_statistics_from_run"]
