"""Play-time search over a blueprint table: the one-step searcher (searcher), the
depth-limited re-solver (resolver, resolve, ranges; docs/resolve.md), and the
belief-and-lookahead kernels they share with the local best response (kernels)."""

from solver.search.searcher import (  # noqa: F401
    SearchConfig, Searcher, SearchResult, play_search, search_action,
)
from solver.search.resolver import (  # noqa: F401
    Resolver, ResolverPolicy, play_resolver, search_policy,
)
from solver.search.resolve import ResolveConfig  # noqa: F401
