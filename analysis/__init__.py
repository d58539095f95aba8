"""Turns solved strategies into what designers read (tables now; reports to come)."""

from .exact import ProfileStatistics, profile_statistics, profile_statistics_from_run

__all__ = ["ProfileStatistics", "profile_statistics", "profile_statistics_from_run"]
