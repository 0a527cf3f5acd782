"""`autoplayer play` (play a game from the screen) and `autoplayer demo` (the bundled game).

numpy, mss, pynput and the game back-ends are imported inside the command
functions: pynput cannot even be imported without an X display.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path
from typing import Any

from autoplayer.errors import UserError

GAMES: dict[str, str] = {
    "nonogram": "autoplayer.games.nonogram.game:make_game",
}
"""Game name -> 'module:factory'; a factory takes the keyword options of `make_game`."""

EXIT_OK, EXIT_NOT_SOLVED, EXIT_BAD_INPUT, EXIT_ABORTED = 0, 1, 2, 3


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
    play = subparsers.add_parser(
        "play",
        help="play a game shown on the screen: read it, solve it, click it out, verify",
        description="Captures the game (a window found by title, a screen region or a "
        "monitor), reads the puzzle, solves it, sends the fewest clicks and drags, then "
        "captures again and repairs any cell that did not take. Esc or moving the mouse "
        "aborts (exit 3). Exit 0 solved and verified, 1 not solved after the repairs "
        "allowed, 2 bad input (unreadable board, no such window), 3 aborted.",
    )
    where = play.add_mutually_exclusive_group()
    where.add_argument("--window", metavar="TITLE",
                       help="the window whose title contains TITLE (case-insensitive)")
    where.add_argument("--region", metavar="X,Y,W,H", help="a screen rectangle")
    where.add_argument("--monitor", metavar="N", type=int,
                       help="a whole monitor (1 = the first; the default is monitor 1)")
    play.add_argument("--exact", action="store_true", help="--window TITLE must match exactly")
    play.add_argument("--window-class", metavar="CLASS",
                      help="the window whose WM_CLASS is CLASS (with or without --window)")
    play.add_argument("--game", choices=sorted(GAMES), default="nonogram")
    play.add_argument("--profile", metavar="NAME",
                      help="the game's input rules (nonogram: web, pattern); "
                      "default: from the window class")
    play.add_argument("--dry-run", action="store_true",
                      help="read and solve only; send no input at all")
    play.add_argument("--overlay", metavar="OUT.png", type=Path,
                      help="write what was read, drawn over the capture, to OUT.png")
    play.add_argument("--templates", metavar="NAME",
                      help="digit templates from templates/NAME (see `autoplayer calibrate`)")
    play.add_argument("--time-budget", metavar="S", type=float, default=300.0,
                      help="abort after S seconds (default 300)")
    play.add_argument("--pace", metavar="MS", type=float,
                      help="at least MS milliseconds between gestures (default: the game's pace)")
    play.set_defaults(func=run_play)

    demo = subparsers.add_parser(
        "demo",
        help="play the bundled nonogram game in Chromium, end to end",
        description="Starts the bundled browser game on a 15x15 puzzle in a Chromium app "
        "window, plays it from the screen, and prints the game's own verdict and the time "
        "per stage. Without a display it starts its own Xvfb and saves before/after "
        "screenshots.",
    )
    demo.add_argument("--size", type=int, default=15, help="puzzle side (default 15)")
    demo.add_argument("--seed", type=int, default=1, help="puzzle seed (default 1)")
    demo.add_argument("--skin", help="the game's skin (default: the game's default)")
    demo.add_argument("--out", metavar="DIR", type=Path,
                      help="where the before/after screenshots go (default: a new temp dir)")
    demo.add_argument("--xvfb", action="store_true",
                      help="use a private Xvfb even when a display is available")
    demo.set_defaults(func=run_demo)


def load_game(name: str, **options: Any) -> Any:
    module, _, factory = GAMES[name].partition(":")
    return getattr(importlib.import_module(module), factory)(**options)


def _positive(value: float | None, what: str) -> None:
    if value is not None and value <= 0:
        raise UserError(f"{what} must be positive, not {value:g}")


def run_play(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    _positive(args.time_budget, "--time-budget")
    if args.pace is not None and args.pace < 0:
        raise UserError(f"--pace must not be negative, not {args.pace:g}")
    if args.overlay is not None and not args.overlay.parent.is_dir():
        raise UserError(f"--overlay: directory {args.overlay.parent} does not exist")

    from autoplayer.play import play
    from autoplayer.screen.capture import Screen, parse_region
    from autoplayer.screen.source import RegionSource, WindowSource

    region = parse_region(args.region) if args.region is not None else None
    screen = Screen()
    window = None
    if args.window is not None or args.window_class is not None:
        source: Any = WindowSource(screen, args.window, exact=args.exact,
                                   wm_class=args.window_class)
        window = source.window
    elif region is not None:
        source = RegionSource(screen, region)
    else:
        source = RegionSource(screen, screen.monitor(1 if args.monitor is None else args.monitor))
    try:
        game = load_game(args.game, templates=args.templates, profile=args.profile,
                         window=window)
        pace = game.pace.slower(args.pace) if args.pace is not None else None
        report = play(game, source, dry_run=args.dry_run, overlay=args.overlay,
                      time_budget=args.time_budget, pace=pace, started=started)
    finally:
        source.close()
    for line in report.lines():
        print(line)
    return EXIT_OK


def run_demo(args: argparse.Namespace) -> int:
    from autoplayer.demo import run

    return run(size=args.size, seed=args.seed, skin=args.skin, out=args.out,
               force_xvfb=args.xvfb, stream=sys.stdout)
