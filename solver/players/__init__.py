"""Players of two-player rounds: the baseline bots, the league of scripted players
(docs/bots.md), and table agents that play a Monte Carlo CFR strategy, each as an
`Agent` that kernels can play, and as an OpenSpiel policy or bot.
"""

from solver.players.agents import (BOT_NAMES, BOTS, LEAGUE_BOTS, Agent, AgentError,
                                   AgentPolicy, agent_bot, bot, load_agent,
                                   load_table_agent, table_agent, trained_agent)
from solver.players.lookup import TableLookup

__all__ = ["BOTS", "BOT_NAMES", "LEAGUE_BOTS", "Agent", "AgentError", "AgentPolicy",
           "TableLookup", "agent_bot", "bot", "load_agent", "load_table_agent",
           "table_agent", "trained_agent"]
