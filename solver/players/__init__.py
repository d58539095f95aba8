"""Players of rounds at any table size: the baseline bots, the league of scripted players
(docs/bots.md), and table agents that play a Monte Carlo CFR strategy, each as an
`Agent` that kernels can play, and as an OpenSpiel policy or bot. A table agent plays
a league player's rules where its table has not learned (`Fallback`, docs/mccfr.md).
"""

from solver.players.agents import (BOT_NAMES, BOTS, DEFAULT_FALLBACK, LEAGUE_BOTS, Agent,
                                   AgentError, AgentPolicy, Fallback, agent_bot, bot,
                                   load_agent, load_table_agent, parse_fallback,
                                   table_agent, trained_agent)
from solver.players.lookup import TableLookup

__all__ = ["BOTS", "BOT_NAMES", "DEFAULT_FALLBACK", "LEAGUE_BOTS", "Agent", "AgentError",
           "AgentPolicy", "Fallback", "TableLookup", "agent_bot", "bot", "load_agent",
           "load_table_agent", "parse_fallback", "table_agent", "trained_agent"]
