"""A small local HTTP server for the bundled browser games, and the record of what they report.

The server hands each page its puzzle as JSON inside the HTML (made in Python,
so tests know the clues without reading the screen), serves the static files,
and keeps the latest board state and layout each page POSTs, per session id:

    GET  /                        index of the games
    GET  /<game>?...              a game page (`nonogram`: size=WxH&seed=N or puzzle=ID,
                                  skin=, theme=, cell=, session=)
    GET  /static/<path>           CSS/JS under autoplayer/webgame/static
    GET  /api/state?session=S     the page's latest report: grid, solved, events, ... (404: none)
    POST /api/state               the page reports (JSON with `session` and `seq`)
    GET  /api/layout?session=S    the page's own layout in page pixels (test ground truth)
    POST /api/layout
    GET  /api/puzzle?session=S    the clues the page was given

Each game is a `GamePage` (a name, an HTML file, a function from query to page
config, a puzzle-file loader) defined by a module named in `GAME_PAGES`; a
second game (the 15-puzzle) is one more module and one more line there.
"""

from __future__ import annotations

import html
import importlib
import json
import secrets
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from autoplayer.errors import UserError

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 1 << 20
"""A 60×60 grid as JSON is ~15 KB; anything near a megabyte is not from our page."""

_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".json": "application/json",
          ".png": "image/png"}


@dataclass
class Session:
    """One page's puzzle and what it last reported."""

    game: str
    config: dict[str, Any]
    """What the page was given (puzzle clues, skin, ...)."""
    payload: Any = None
    """A game-specific object the config was made from (a nonogram `Puzzle`)."""
    state: dict[str, Any] | None = None
    layout: dict[str, Any] | None = None


@dataclass(frozen=True)
class PageConfig:
    """What a game page's `configure` returns: the JSON for the page, and its own object."""

    config: dict[str, Any]
    payload: Any
    title: str


@dataclass(frozen=True)
class GamePage:
    """A game the server can show: `/<name>` renders `html` with the config from `configure`."""

    name: str
    html: str
    """Path under the static folder of the page template (placeholders {{CONFIG}}, {{TITLE}})."""
    configure: Callable[[GameServer, Mapping[str, str]], PageConfig]
    """Query parameters -> the page's config; raises UserError for a bad parameter (HTTP 400)."""
    load: Callable[[str | Path], Any]
    """A puzzle file -> the object `configure` finds under `puzzle=ID` (UserError when bad)."""
    example: str = "size=10x10&seed=1"
    """The query of the index page's link to this game."""


def query_int(query: Mapping[str, str], key: str, default: int) -> int:
    """A whole-number URL parameter, for pages' `configure` (UserError: HTTP 400)."""
    text = query.get(key)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise UserError(f"{key}={text!r} is not a whole number") from None


def query_cell(query: Mapping[str, str], key: str, width: int, height: int) -> tuple[int, int]:
    """A URL parameter 'R,C' (0-based row and column) naming a cell of a width×height board."""
    text = query[key]
    row, sep, col = text.partition(",")
    if not sep or not row.strip().isdigit() or not col.strip().isdigit():
        raise UserError(f"{key}={text!r} is not ROW,COLUMN (0-based)")
    r, c = int(row), int(col)
    if not (r < height and c < width):
        raise UserError(f"{key} cell {r},{c} is outside the {width}x{height} board")
    return r, c


GAME_PAGES: tuple[str, ...] = ("autoplayer.webgame.nonogram", "autoplayer.webgame.fifteen",
                              "autoplayer.webgame.ripple")
"""Modules that define `PAGE`, a `GamePage`; another game's page is one more line here."""


class GameServer:
    """The game server on 127.0.0.1 and a free port, in a daemon thread; a context manager."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        pages = [importlib.import_module(name).PAGE for name in GAME_PAGES]
        self.pages: dict[str, GamePage] = {p.name: p for p in pages}
        self._sessions: dict[str, Session] = {}
        self._objects: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._httpd = _QuietServer((host, port), _handler_for(self))
        self._thread: threading.Thread | None = None

    # --- lifecycle -------------------------------------------------------
    def start(self) -> GameServer:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever, name="GameServer", daemon=True
            )
            self._thread.start()
        return self

    def close(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> GameServer:
        return self.start()

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    # --- the Python API ----------------------------------------------------
    def url(
        self,
        *,
        size: tuple[int, int] | None = None,
        puzzle: Any = None,
        seed: int = 0,
        skin: str | None = None,
        theme: str | None = None,
        cell: int | None = None,
        session: str | None = None,
        game: str = "nonogram",
        **extra: Any,
    ) -> str:
        """A page URL; its session (made up when not given) knows its puzzle at once.

        `puzzle` is a puzzle object or a file name (nonogram: anything
        `load_puzzle` reads); otherwise `size=(w, h)` and `seed` choose a random one.
        Other keywords become query parameters: nonogram takes `grid=` (an array of
        -1/0/1, a started game), `hover=(row, col)`, the layout and appearance options and
        a rule set (`nonogram.RULE_CHOICES`: fill=, mark=, buttons=, drag=, ...).
        """
        params: dict[str, str] = {}
        if puzzle is not None:
            params["puzzle"] = self.register(puzzle, game)
        elif size is not None:
            params["size"] = f"{size[0]}x{size[1]}"
            params["seed"] = str(seed)
        for key, value in (("skin", skin), ("theme", theme), ("cell", cell), *extra.items()):
            if value is not None:
                params[key] = _param(value)
        params["session"] = session or new_session_id()
        self.open_session(game, params)
        return f"{self.base_url}/{game}?{urlencode(params)}"

    def register(self, obj: Any, game: str = "nonogram") -> str:
        """Keep a puzzle (object or file) under a short ID a URL can name."""
        if isinstance(obj, str | Path):
            obj = self.pages[game].load(obj)
        with self._lock:
            for key, known in self._objects.items():
                if known is obj:
                    return key
            key = f"{game[0]}{len(self._objects) + 1}"
            self._objects[key] = obj
        return key

    def registered(self, key: str) -> Any:
        with self._lock:
            if key not in self._objects:
                raise UserError(f"no puzzle {key!r} is registered with this server")
            return self._objects[key]

    def open_session(self, game: str, query: Mapping[str, str]) -> tuple[str, PageConfig]:
        """Make (or remake) a session from page query parameters; UserError when bad."""
        if game not in self.pages:
            raise UserError(f"no game {game!r}; games: {', '.join(self.pages)}")
        made = self.pages[game].configure(self, query)
        session = query.get("session") or new_session_id()
        if not _good_session_id(session):
            raise UserError(f"session {session!r} must be 1-64 letters, digits, '-' or '_'")
        made.config["session"] = session
        made.config["game"] = game
        with self._changed:
            old = self._sessions.get(session)
            if old is None or old.config != made.config:
                self._sessions[session] = Session(game, made.config, made.payload)
            self._changed.notify_all()
        return session, made

    def state(self, session: str) -> dict[str, Any] | None:
        """The page's latest report for the session (grid, solved, events, ...), None before
        any."""
        with self._lock:
            s = self._sessions.get(session)
            return None if s is None or s.state is None else dict(s.state)

    def layout(self, session: str) -> dict[str, Any] | None:
        """The page's own account of where it drew the board (tests only; the bot never asks)."""
        with self._lock:
            s = self._sessions.get(session)
            return None if s is None or s.layout is None else dict(s.layout)

    def config(self, session: str) -> dict[str, Any] | None:
        """What the session's page was given (its puzzle's clues, skin, theme, cell size)."""
        with self._lock:
            s = self._sessions.get(session)
            return None if s is None else s.config

    def puzzle(self, session: str) -> Any:
        """The puzzle object the session's page shows (a nonogram `Puzzle`), None if unknown."""
        with self._lock:
            s = self._sessions.get(session)
            return None if s is None else s.payload

    def wait_for(
        self, session: str, check: Callable[[dict[str, Any] | None, dict[str, Any] | None], bool],
        timeout: float = 10.0,
    ) -> bool:
        """Block until check(state, layout) holds for the session, or the timeout passes."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                s = self._sessions.get(session)
                if check(None if s is None else s.state, None if s is None else s.layout):
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)

    # --- what the handler calls --------------------------------------------
    def _report(self, kind: str, data: dict[str, Any]) -> HTTPStatus:
        session = data.get("session")
        if not isinstance(session, str) or not isinstance(data.get("seq", 0), int):
            return HTTPStatus.BAD_REQUEST
        with self._changed:
            s = self._sessions.get(session)
            if s is None:
                return HTTPStatus.NOT_FOUND
            if kind == "state":
                # Requests may overtake each other on their threads: keep the newest
                # report of the newest page load (a reload starts counting again).
                old = s.state
                if (old is not None and old.get("load") == data.get("load")
                        and data.get("seq", 0) < old.get("seq", 0)):
                    return HTTPStatus.OK
                s.state = data
            else:
                s.layout = data
            self._changed.notify_all()
        return HTTPStatus.OK

    def _render(self, game: str, query: Mapping[str, str]) -> bytes:
        _, made = self.open_session(game, query)
        template = (STATIC / self.pages[game].html).read_text(encoding="utf-8")
        config = json.dumps(made.config, separators=(",", ":")).replace("</", "<\\/")
        return (
            template.replace("{{TITLE}}", html.escape(made.title, quote=False))
            .replace("{{CONFIG}}", config)
            .encode("utf-8")
        )

    def _index(self) -> bytes:
        links = "".join(
            f'<li><a href="/{name}?{html.escape(page.example)}">{name}</a></li>'
            for name, page in self.pages.items()
        )
        return (
            "<!doctype html><meta charset=utf-8><title>autoplayer games</title>"
            f"<h1>autoplayer games</h1><ul>{links}</ul>"
        ).encode()


class _QuietServer(ThreadingHTTPServer):
    """Browsers that close keep-alive connections (a killed page) are not errors."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def _param(value: Any) -> str:
    """A Python value as a query value: arrays as cell strings, pairs as 'a,b'."""
    if hasattr(value, "shape"):
        from autoplayer.webgame.puzzles import grid_param

        return grid_param(value)
    if isinstance(value, tuple | list):
        return ",".join(map(str, value))
    return str(value)


def new_session_id() -> str:
    return secrets.token_hex(6)


def _good_session_id(text: str) -> bool:
    return 0 < len(text) <= 64 and all(c.isascii() and (c.isalnum() or c in "-_") for c in text)


def _handler_for(server: GameServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: a page reports on every click."""

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
            path = parts.path
            try:
                if path == "/":
                    self._send(HTTPStatus.OK, server._index(), _TYPES[".html"])
                elif path.startswith("/static/"):
                    self._static(path.removeprefix("/static/"))
                elif path in ("/api/state", "/api/layout", "/api/puzzle"):
                    self._api_get(path.removeprefix("/api/"), query.get("session", ""))
                elif path.strip("/") in server.pages:
                    body = server._render(path.strip("/"), query)
                    self._send(HTTPStatus.OK, body, _TYPES[".html"])
                else:
                    self._error(HTTPStatus.NOT_FOUND, f"no page {path}")
            except UserError as err:
                self._error(HTTPStatus.BAD_REQUEST, str(err))

        def do_POST(self) -> None:
            path = urlsplit(self.path).path
            kind = path.removeprefix("/api/")
            if kind not in ("state", "layout"):
                self._error(HTTPStatus.NOT_FOUND, f"no endpoint {path}")
                return
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                self._error(HTTPStatus.BAD_REQUEST, "body missing or too large")
                return
            try:
                data = json.loads(self.rfile.read(length))
            except ValueError:
                self._error(HTTPStatus.BAD_REQUEST, "body is not JSON")
                return
            if not isinstance(data, dict):
                self._error(HTTPStatus.BAD_REQUEST, "body is not a JSON object")
                return
            status = server._report(kind, data)
            self._send(status, b"{}", _TYPES[".json"])

        def _api_get(self, kind: str, session: str) -> None:
            if kind == "puzzle":
                config = server.config(session)
                found = None if config is None else config.get("puzzle")
            else:
                found = (server.state if kind == "state" else server.layout)(session)
            if found is None:
                self._error(HTTPStatus.NOT_FOUND, f"no {kind} for session {session!r}")
            else:
                self._send(HTTPStatus.OK, json.dumps(found).encode(), _TYPES[".json"])

        def _static(self, rel: str) -> None:
            path = (STATIC / rel).resolve()
            if not path.is_relative_to(STATIC) or not path.is_file():
                self._error(HTTPStatus.NOT_FOUND, f"no file {rel}")
                return
            self._send(HTTPStatus.OK, path.read_bytes(),
                       _TYPES.get(path.suffix, "application/octet-stream"))

        def _error(self, status: HTTPStatus, message: str) -> None:
            self._send(status, json.dumps({"error": message}).encode(), _TYPES[".json"])

        def _send(self, status: HTTPStatus, body: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return Handler
