"""Play-time search over a blueprint table (searcher), and the belief-and-lookahead
kernels it shares with the local best response (kernels, settings)."""

from solver.search.searcher import (  # noqa: F401
    SearchConfig, Searcher, SearchResult, play_search, search_action,
)
