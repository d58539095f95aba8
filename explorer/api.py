"""The explorer's JSON API. Every error is a 4xx answer {"error": message} and the
server keeps serving: 400 malformed request, 404 unknown game, 409 a move that is not
legal now (illegal action, not your turn, round over).

    GET  /api/run                      the run: variant, kind, deck, positions, players,
                                       teams, what is two-player only and why
    GET  /api/deal?seed=S              a random deal
    POST /api/browse                   {layout, actions, seed} -> board, decision, history
    GET  /api/ask                      the report's tables with example situations
    POST /api/play                     {seat, match, seed?, search?} -> {id, view}
                                       (seat 0..players-1; the strategy plays the rest)
    GET  /api/play/{id}                the view of a game
    POST /api/play/{id}/move           {action} -> view (the strategy has answered)
    POST /api/play/{id}/next           the next round of a match -> view
    POST /api/lock                     {layout, actions, seed, probs} -> a re-solve with
                                       that decision locked, started in the background
    GET  /api/lock/{id}                the re-solve: running, done (values, shift, the
                                       re-solved strategy here) or failed
"""

from __future__ import annotations

import json
import logging
import random
import threading

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from game_def.characters import Character
from game_def.errors import IllegalActionError

from . import ask
from .relock import Relocker
from .run import ExploredRun
from .session import (BadRequest, PlayGame, PlayStore, browse_view, check_layout,
                      check_seat, random_layout, replay)


_log = logging.getLogger("robinwood.explorer")


class NotFound(Exception):
    """An unknown game id."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict:
    if request.method != "POST":
        return {}
    try:
        body = json.loads(await request.body() or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadRequest("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    return body


def _handled(fn):
    """An endpoint that answers fn(request, body) in the thread pool (the event loop
    stays free while a tree is walked), with the explorer's known errors as 4xx JSON."""
    async def endpoint(request: Request):
        try:
            body = await _body(request)
            return JSONResponse(await run_in_threadpool(fn, request, body))
        except BadRequest as e:
            return _error(400, str(e))
        except NotFound as e:
            return _error(404, str(e))
        except IllegalActionError as e:
            return _error(409, str(e))
        except Exception as e:  # a bug: say so in JSON, log it, keep serving
            _log.exception("explorer: %s failed", request.url.path)
            return _error(500, f"internal error ({type(e).__name__}: {e}); please report it")
    endpoint.__name__ = fn.__name__
    return endpoint


class ExplorerAPI:
    """The routes over one loaded run."""

    def __init__(self, run: ExploredRun):
        self.run = run
        self.games = PlayStore()
        self._ask = None
        self._ask_lock = threading.Lock()
        self.relocker = Relocker(run)

    def routes(self) -> list[Route]:
        h = _handled
        return [
            Route("/api/run", h(self.get_run)),
            Route("/api/deal", h(self.get_deal)),
            Route("/api/browse", h(self.post_browse), methods=["POST"]),
            Route("/api/ask", h(self.get_ask)),
            Route("/api/play", h(self.post_play), methods=["POST"]),
            Route("/api/play/{gid}", h(self.get_play)),
            Route("/api/play/{gid}/move", h(self.post_move), methods=["POST"]),
            Route("/api/play/{gid}/next", h(self.post_next), methods=["POST"]),
            Route("/api/lock", h(self.post_lock), methods=["POST"]),
            Route("/api/lock/{jid}", h(self.get_lock)),
        ]

    def post_lock(self, request: Request, body: dict) -> dict:
        unknown = set(body) - {"layout", "actions", "seed", "probs"}
        if unknown:
            raise BadRequest(f"unknown field(s) {', '.join(sorted(unknown))}: send "
                             f"layout, actions, seed and probs")
        layout = check_layout(self.run.variant, body.get("layout"))
        seed = body.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadRequest("seed must be a whole number")
        state, _ = replay(self.run, layout, body.get("actions", []), seed)
        return self.relocker.start(state, body.get("probs")).view()

    def get_lock(self, request: Request, body: dict) -> dict:
        job = self.relocker.get(request.path_params["jid"])
        if job is None:
            raise NotFound(f"no re-solve {request.path_params['jid']!r} on this server")
        return job.view()

    def get_run(self, request: Request, body: dict) -> dict:
        v = self.run.variant
        return {**self.run.describe(), "positions": v.num_positions,
                "strikes": v.strikes, "max_turns": v.max_turns,
                "first_player": v.first_player,
                "cards": [c.label for c in Character for _ in range(v.counts[c])],
                "face_down_cards": [c.label for c in Character for _ in range(v.counts[c])
                                    if c != Character.TRAITOR],
                "traitors": v.counts[Character.TRAITOR]}

    def get_deal(self, request: Request, body: dict) -> dict:
        seed = request.query_params.get("seed")
        try:
            rng = random.Random(int(seed)) if seed is not None else random.Random()
        except ValueError:
            raise BadRequest(f"seed must be a whole number (got {seed!r})") from None
        return {"layout": random_layout(self.run.variant, rng),
                "seed": rng.randrange(1 << 31)}

    def post_browse(self, request: Request, body: dict) -> dict:
        unknown = set(body) - {"layout", "actions", "seed"}
        if unknown:
            raise BadRequest(f"unknown field(s) {', '.join(sorted(unknown))}: send "
                             f"layout, actions and seed")
        if "layout" not in body:
            raise BadRequest("layout is missing: a list of character names, one per "
                             "position (GET /api/deal draws one)")
        return browse_view(self.run, body["layout"], body.get("actions", []),
                           body.get("seed", 0))

    def get_ask(self, request: Request, body: dict) -> dict:
        with self._ask_lock:
            if self._ask is None and self.run.players > 2:
                self._ask = ask.table_ask(self.run)
            if self._ask is None:
                stats = ask.statistics(self.run)
                examples = ask.find_examples(self.run)
                kind = ("exact (every situation weighted by its reach probability)"
                        if stats.rounds_sampled is None else
                        f"sampled ({stats.rounds_sampled:,} self-play rounds)")
                self._ask = {"tables": ask.ask_tables(self.run, examples, stats),
                             "statistics": kind}
        return self._ask

    def post_play(self, request: Request, body: dict) -> dict:
        seat = body.get("seat", 0)
        match = body.get("match", False)
        seed = body.get("seed")
        search = body.get("search", False)
        if not isinstance(search, bool):
            raise BadRequest("search must be true (the AI searches, docs/search.md) or "
                             "false (it draws from the table)")
        check_seat(self.run.variant, seat)
        if not isinstance(match, bool):
            raise BadRequest("match must be true (best of 3) or false (one round)")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise BadRequest("seed must be a whole number")
        game = PlayGame(self.run, seat, match, seed, search=search)
        gid = self.games.new(game)
        return {"id": gid, "view": game.view()}

    def _game(self, request: Request) -> PlayGame:
        gid = request.path_params["gid"]
        try:
            return self.games.get(gid)
        except KeyError:
            raise NotFound(f"no game {gid!r} on this server (it may have restarted): "
                           f"start a new one") from None

    def get_play(self, request: Request, body: dict) -> dict:
        game = self._game(request)
        with game.lock:
            return game.view()

    def post_move(self, request: Request, body: dict) -> dict:
        game = self._game(request)
        if "action" not in body:
            raise BadRequest("send {\"action\": \"<action string>\"}, e.g. "
                             "{\"action\": \"peek 0\"}")
        with game.lock:
            game.move(body["action"])
            return game.view()

    def post_next(self, request: Request, body: dict) -> dict:
        game = self._game(request)
        with game.lock:
            game.next_round()
            return game.view()
