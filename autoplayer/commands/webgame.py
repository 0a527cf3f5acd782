"""`autoplayer serve`: the bundled browser games on a local server, for a person to play.

The server (and numpy with it) is imported inside the command so that
`autoplayer --help` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator

from autoplayer.commands import summary
from autoplayer.commands.options import SEED_MAX, int_arg
from autoplayer.errors import UserError

SKIN_NAMES = ("pixel", "sans", "serif", "mono", "bars")
"""Kept here as text so building the parser reads no files; a test keeps it in step."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
    serve = subparsers.add_parser(
        "serve",
        help=summary("serve"),
        description="Starts the game server on 127.0.0.1 (a free port unless --port) and prints "
        "the page URL; the puzzle is a random one from --size and --seed, or --puzzle FILE. "
        "Runs until interrupted (Ctrl+C). Exit 0 on Ctrl+C, 2 on bad arguments.",
    )
    serve.add_argument("--game", default="nonogram", choices=("nonogram", "fifteen", "ripple"),
                       help="which page to open (default nonogram)")
    serve.add_argument("--size", metavar="WxH",
                       help="board size for a random puzzle (default 10x10; fifteen 4x4, "
                       "3x3..6x6; ripple 8x8, 4x4..15x15)")
    serve.add_argument("--seed", type=int_arg(0, SEED_MAX), default=1,
                      help="seed of the random puzzle")
    serve.add_argument("--puzzle", metavar="FILE",
                       help="a puzzle file (any format `autoplayer convert` reads) or game ID")
    serve.add_argument("--skin", choices=SKIN_NAMES, help="nonogram skin (default pixel)")
    serve.add_argument("--theme", choices=("light", "dark"),
                       help="nonogram or ripple theme (default light)")
    serve.add_argument("--cell", type=int_arg(1, 1000), metavar="PX",
                       help="cell size in pixels (nonogram 12..40, ripple 28..64)")
    serve.add_argument("--look", type=int_arg(0, SEED_MAX), metavar="N",
                       help="ripple: a random look from seed N (borders, lines, font, theme, "
                       "pencil marks, cell size); --theme and --cell override it")
    serve.add_argument("--scheme", choices=("type", "count", "cycle", "pad"),
                       help="ripple input: type (click, then type the digit), count "
                       "(click the selected cell to count up, right-click down), cycle (every "
                       "click counts up, right-click down; nothing is selected) or pad "
                       "(click a cell, then a digit on the number pad); default type (the "
                       "URL takes more: commit=enter, focus=click, lag=MS, rules=N)")
    serve.add_argument("--rules", metavar="KEY=VALUE,...",
                       help="nonogram rule set: fill, mark, highlight, buttons, drag, rule, "
                       "sign (docs/development.md: rule sets), "
                       "e.g. buttons=cycle,drag=enter,sign=dialog")
    serve.add_argument("--port", type=int_arg(0, 65535), default=0,
                       help="port (default: a free one)")
    serve.add_argument("--open", action="store_true",
                       help="also open the page in a Chromium app window on $DISPLAY")
    serve.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    from autoplayer.webgame.puzzles import parse_size
    from autoplayer.webgame.server import GameServer

    if args.open and not os.environ.get("DISPLAY"):
        raise UserError("--open needs an X display (DISPLAY is not set)")
    if args.game != "ripple" and (args.look is not None or args.scheme):
        raise UserError("--look and --scheme are options of the ripple page")
    if args.game != "nonogram" and args.rules:
        raise UserError("--rules is an option of the nonogram page")
    if args.game == "fifteen":
        from autoplayer.webgame.fifteen import board_size

        if args.skin or args.theme or args.cell is not None:
            raise UserError("--skin, --theme and --cell are options of the nonogram page")
        size = None if args.puzzle else board_size(args.size or "4x4")
        look: dict[str, object] = {}
    elif args.game == "ripple":
        from autoplayer.webgame.ripple import parse_board_size

        if args.skin:
            raise UserError("--skin is an option of the nonogram page (ripple: --look)")
        rows, cols = parse_board_size(args.size or "8x8")
        size = None if args.puzzle else (cols, rows)
        look = {"theme": args.theme, "cell": args.cell, "look": args.look,
                "scheme": args.scheme}
    else:
        size = None if args.puzzle else parse_size(args.size or "10x10")
        look = {"skin": args.skin or "pixel", "theme": args.theme or "light", "cell": args.cell}
        if args.rules:
            from autoplayer.webgame.nonogram import parse_rules

            look.update(parse_rules(args.rules))
    try:
        server = GameServer(port=args.port)
    except OSError as err:
        raise UserError(f"cannot listen on 127.0.0.1:{args.port}: {err.strerror}") from None
    with _ctrl_c() as stopped, server:
        url = server.url(size=size, seed=args.seed, puzzle=args.puzzle, game=args.game, **look)
        print(url, flush=True)
        if args.open:
            _open(url, stopped)
        else:
            print("Open the URL in a browser; Ctrl+C stops the server.", file=sys.stderr)
            while not stopped():
                time.sleep(POLL)
    return 0


POLL = 0.1
"""Seconds between looks at whether Ctrl+C was pressed (or the browser closed)."""


@contextlib.contextmanager
def _ctrl_c() -> Iterator[Callable[[], bool]]:
    """Ctrl+C handled as a request to stop, not as KeyboardInterrupt, until the server has
    closed: a second one (`timeout -s INT` signals the process and then its group) or one
    landing inside a lock's wait made a clean stop exit 130, or fail with "release unlocked
    lock". Yields whether Ctrl+C was pressed. Off the main thread, where no signal handler
    can be set, a KeyboardInterrupt stops it as before."""
    import signal

    pressed: list[int] = []
    try:
        before = signal.signal(signal.SIGINT, lambda sig, _frame: pressed.append(sig))
    except ValueError:
        with contextlib.suppress(KeyboardInterrupt):
            yield lambda: False
        return
    try:
        yield lambda: bool(pressed)
    finally:
        signal.signal(signal.SIGINT, before)


def _open(url: str, stopped: Callable[[], bool]) -> None:
    from autoplayer.webgame.browser import launch_app

    with launch_app(url, display=os.environ["DISPLAY"], width=1100, height=850) as app:
        print("Playing in Chromium; close its window or press Ctrl+C to stop.", file=sys.stderr)
        while app.process.poll() is None and not stopped():
            time.sleep(POLL)
