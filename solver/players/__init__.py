"""Players of rounds at any table size: the baseline bots, the league of scripted players
(docs/bots.md), and table agents that play a Monte Carlo CFR strategy, each as an
`Agent` that kernels can play, and as an OpenSpiel policy or bot. A table agent plays
a fallback player's rules where its table has not learned (`Fallback`, docs/mccfr.md; by
default the sound default's, docs/sound-play.md, at every announcement and response and
at thin turn starts and powers: `default_fallback`).
"""

from solver.players.agents import (AUTO_FALLBACK, BOT_NAMES, BOTS, DEFAULT_FALLBACK,
                                   LEAGUE_BOTS, TABLE_FALLBACK, Agent, AgentError,
                                   AgentPolicy, Fallback, agent_bot, bot, default_fallback,
                                   load_agent, load_table_agent, parse_fallback,
                                   table_agent, trained_agent)
from solver.players.lookup import TableLookup

__all__ = ["AUTO_FALLBACK", "BOTS", "BOT_NAMES", "DEFAULT_FALLBACK", "LEAGUE_BOTS",
           "TABLE_FALLBACK", "Agent", "AgentError", "AgentPolicy", "Fallback", "TableLookup",
           "agent_bot", "bot", "default_fallback", "load_agent",
           "load_table_agent", "parse_fallback", "table_agent", "trained_agent"]
