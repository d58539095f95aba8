"""The explorer's Starlette application: the JSON API (explorer.api) and the static
front end shipped in explorer/static (plain HTML, JavaScript and CSS: no build step)."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .api import ExplorerAPI
from .run import ExploredRun, load_run

STATIC = Path(__file__).with_name("static")


def create_app(run_or_dir) -> Starlette:
    run = run_or_dir if isinstance(run_or_dir, ExploredRun) else load_run(run_or_dir)
    api = ExplorerAPI(run)

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def not_found(request, exc):
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": f"no such endpoint: {request.method} "
                                 f"{request.url.path}"}, status_code=exc.status_code)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    app = Starlette(routes=[Route("/", index), *api.routes(),
                            Mount("/static", StaticFiles(directory=STATIC), name="static")],
                    exception_handlers={404: not_found, 405: not_found})
    app.state.run = run
    app.state.api = api
    return app


def check_port_free(host: str, port: int) -> None:
    """A one-line error now rather than uvicorn's log and exit when the port is taken."""
    import socket

    from game_def.errors import RobinWoodError

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        try:
            sock.bind((host, port))
        except OSError as e:
            raise RobinWoodError(f"cannot listen on {host}:{port} ({e.strerror}): pick "
                                 f"another port with --port") from None


def serve(run_dir, host: str = "127.0.0.1", port: int = 8765, open_browser: bool = False,
          echo=print) -> None:
    """Load the run, then serve the explorer with uvicorn until interrupted."""
    import threading
    import time
    import webbrowser

    import uvicorn

    import sys

    check_port_free(host, port)
    start = time.perf_counter()
    if sys.stderr.isatty():  # a note while a big tree builds; logs get only the outcome
        echo(f"robinwood: loading {run_dir} (exact runs: the tree and the values of "
             f"every situation are computed once)")
    app = create_app(run_dir)
    run = app.state.run
    url = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0', '::') else host}:{port}/"
    echo(f"robinwood: {run.variant} ({run.kind}) ready in {time.perf_counter() - start:.1f} "
         f"s; explorer at {url} (Ctrl-C stops it)")
    if open_browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")
