"""`autoplayer play` (play a game from the screen) and `autoplayer demo` (the bundled game).

numpy, mss, pynput and the game back-ends are imported inside the command
functions: pynput cannot even be imported without an X display.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from autoplayer.commands import summary
from autoplayer.commands.options import (
    SEED_MAX,
    add_templates_option,
    int_arg,
    seconds_arg,
    whole,
)
from autoplayer.errors import UserError
from autoplayer.play.registry import GAMES, game_for, load_game, window_names

EXIT_OK, EXIT_NOT_SOLVED, EXIT_BAD_INPUT, EXIT_ABORTED, EXIT_UNSEEN = 0, 1, 2, 3, 4


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
    play = subparsers.add_parser(
        "play",
        help=summary("play"),
        description="Captures the game (a window found by title, a screen region or a "
        "monitor), reads the puzzle, solves it, sends the fewest clicks and drags, then "
        "captures again and repairs any cell that did not take. A nonogram game's looks, "
        "buttons, drags and sign of completion are learned on the board the first time "
        "(a few watched presses) and kept per window in the user's config directory. "
        "Esc or moving the mouse aborts (exit 3). The move that completes the board is "
        "sent alone once every other cell is verified, and whatever the game then changes "
        "beyond that move (a dialog, a dim, a restyled board, a window over it) is its "
        "answer: no input follows it. Exit 0 the game answered the last move, or every "
        "cell verified and the game gave no sign; 1 a cell in view still wrong after the "
        "repairs allowed, or stopped because the game did something the bot cannot "
        "explain or something covers the board over wrong cells; 2 bad input (unreadable "
        "board, no such window, bad rules file); 3 aborted; 4 every cell in view right but "
        "some hidden and no answer from the game.",
    )
    where = play.add_mutually_exclusive_group()
    where.add_argument("--window", metavar="TITLE",
                       help="the window whose title contains TITLE (case-insensitive)")
    where.add_argument("--region", metavar="X,Y,W,H", help="a screen rectangle")
    where.add_argument("--monitor", metavar="N", type=int_arg(0, 64),
                       help="a whole monitor (1 = the first; the default is monitor 1)")
    play.add_argument("--exact", action="store_true", help="--window TITLE must match exactly")
    play.add_argument("--window-class", metavar="CLASS",
                      help="the window whose WM_CLASS is CLASS (with or without --window)")
    play.add_argument("--game", choices=sorted(GAMES),
                      help="which game the window shows (default: the one the window's title "
                      "or class names, else ripple when the picture shows rooms with digits "
                      "in their cells, else nonogram)")
    play.add_argument("--profile", metavar="FILE",
                      help="nonogram: the rules file to use (and to keep what is learned in); "
                      "default: the one kept for this window's class and title in the user's "
                      "config directory, learned by experiment the first time")
    play.add_argument("--scheme", choices=("type", "count", "cycle", "pad"),
                      help="ripple: how the game takes a digit, as `serve --scheme` names it "
                      "(default: found out on the board)")
    play.add_argument("--solver", choices=("optimal", "fast"),
                      help="fifteen: a shortest solution or a human-style one, as "
                      "`fifteen solve --optimal/--fast` (default: optimal where it can)")
    play.add_argument("--relearn", action="store_true",
                      help="forget the input rules kept for this game and learn them "
                      "again")
    play.add_argument("--dry-run", action="store_true",
                      help="read and solve only; send no input at all")
    play.add_argument("--overlay", metavar="OUT.png", type=Path,
                      help="write what was read, drawn over the capture, to OUT.png")
    add_templates_option(play)
    play.add_argument("--time-budget", metavar="S", type=seconds_arg(86_400), default=300.0,
                      help="abort after S seconds (default 300)")
    play.add_argument("--json", action="store_true",
                      help="print the report as one JSON object instead of lines")
    play.add_argument("--pace", metavar="MS", type=int_arg(0, 10_000),
                      help="at least MS milliseconds between gestures (default: the game's pace)")
    play.set_defaults(func=run_play)

    demo = subparsers.add_parser(
        "demo",
        help=summary("demo"),
        description="Starts the bundled browser game on a 15x15 puzzle in a Chromium app "
        "window, plays it from the screen, and prints the game's own verdict and the time "
        "per stage. Without a display it starts its own Xvfb and saves before/after "
        "screenshots.",
    )
    demo.add_argument("--size", type=board_size, default=(15, 15), metavar="WxH",
                      help="puzzle size, width first as in every command, e.g. 20x15; "
                      "N is an NxN square (default 15)")
    demo.add_argument("--seed", type=int_arg(0, SEED_MAX), default=1,
                      help="puzzle seed (default 1)")
    demo.add_argument("--skin", help="the game's skin (default: the game's default)")
    demo.add_argument("--out", metavar="DIR", type=Path,
                      help="where the before/after screenshots go (default: a new temp dir)")
    demo.add_argument("--xvfb", action="store_true",
                      help="use a private Xvfb even when a display is available")
    demo.set_defaults(func=run_demo)


def board_size(text: str) -> tuple[int, int]:
    """An argparse `type`: `WxH` (width first) or `N` for a square, each side 2..40."""
    from autoplayer.limits import shown

    body = text.strip().lower()
    parts = body.split("x") if "x" in body else [body, body]
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"'{shown(text)}' is not WxH (width first) or N")
    try:
        width, height = (whole(p, "the size", 2, 40) for p in parts)
    except UserError as err:
        raise argparse.ArgumentTypeError(
            f"'{shown(text)}' is not WxH (width first) or N, each 2..40: {err}") from None
    return width, height


def run_play(args: argparse.Namespace) -> int:
    started = time.perf_counter()
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
        undecided = args.game is None and window_names(window) is None
        chosen = game_for(args.game, window, source.grab().pixels if undecided else None)
        game = load_game(chosen, templates=args.templates, profile=_game_profile(args, chosen),
                         window=window, relearn=args.relearn)
        pace = game.pace.slower(args.pace) if args.pace is not None else None
        report = play(game, source, dry_run=args.dry_run, overlay=args.overlay,
                      time_budget=args.time_budget, pace=pace, started=started)
    finally:
        source.close()
    if args.json:
        import json

        print(json.dumps(report.as_dict()))
    else:
        for line in report.lines():
            print(line)
    return EXIT_OK


OLD_PROFILES = {"ripple": ("scheme", ("type", "count", "pad")),
                "fifteen": ("solver", ("optimal", "fast"))}
"""What `--profile` once also meant: a ripple input scheme, a fifteen solver."""


def _game_profile(args: argparse.Namespace, game: str) -> str | None:
    """The one option each game's factory takes as `profile`. `--profile` is the nonogram
    rules file; the old `--profile type` (ripple) or `--profile fast` (fifteen) still works,
    with a note to use `--scheme`/`--solver`, and anything else there is refused."""
    if game == "nonogram":
        if args.scheme or args.solver:
            raise UserError("--scheme is for ripple games and --solver for fifteen")
        return args.profile
    option, values = OLD_PROFILES.get(game, ("", ()))
    other = "solver" if option == "scheme" else "scheme"
    if getattr(args, other, None):
        raise UserError(f"--{other} is not an option of {game}")
    value = getattr(args, option, None) if option else None
    if args.profile is not None:
        if args.profile not in values or value is not None:
            raise UserError(f"--profile is the nonogram rules file; for {game} use "
                            f"--{option} ({', '.join(values)})" if option else
                            f"--profile is the nonogram rules file; {game} takes none")
        print(f"autoplayer play: note: --profile {args.profile} is now --{option} "
              f"{args.profile}", file=sys.stderr)
        value = args.profile
    return value


def run_demo(args: argparse.Namespace) -> int:
    if args.out is not None and args.out.exists() and not args.out.is_dir():
        raise UserError(f"--out {args.out} is not a directory")
    return demo(size=args.size, seed=args.seed, skin=args.skin, out=args.out,
                force_xvfb=args.xvfb, stream=sys.stdout)


class BundledGame:
    """The bundled nonogram page open in a Chromium app window, and its server's record."""

    def __init__(self, server: Any, session: str, window: int) -> None:
        self.server, self.session, self.window = server, session, window

    def state(self) -> dict[str, Any]:
        """The page's latest report: grid, solved, events (mouse presses it took)."""
        return self.server.state(self.session) or {}

    def puzzle(self) -> Any:
        return self.server.puzzle(self.session)


@contextmanager
def bundled_game(
    display: str, *, size: int | tuple[int, int] = 15, seed: int = 1, skin: str | None = None,
    theme: str | None = None, cell: int | None = None, puzzle: Any = None,
    window: tuple[int, int] = (1200, 1000), timeout: float = 60.0, game: str = "nonogram",
    **extra: Any,
) -> Iterator[BundledGame]:
    """Serve a puzzle, open it in Chromium, and wait until the page has drawn and reported.

    `game` names the page; `extra` are its other URL parameters (ripple: look, scheme)."""
    from autoplayer.webgame.browser import launch_app
    from autoplayer.webgame.server import GameServer, new_session_id

    with GameServer() as server:
        session = new_session_id()
        wh = (size, size) if isinstance(size, int) else size
        url = server.url(size=None if puzzle is not None else wh, puzzle=puzzle,
                         seed=seed, skin=skin, theme=theme, cell=cell, session=session,
                         game=game, **extra)
        with launch_app(url, display=display, width=window[0], height=window[1],
                        timeout=timeout) as app:
            ready = server.wait_for(
                session, lambda state, layout: state is not None and layout is not None,
                timeout=timeout)
            if not ready:
                raise UserError(f"the game page did not load within {timeout:g} s ({url})")
            yield BundledGame(server, session, app.window)


def wait_until_still(source: Any, timeout: float = 10.0, interval: float = 0.15) -> Any:
    """The first frame identical to the one before it: the page has finished painting."""
    from autoplayer.play.settle import until_still

    return until_still(source, quiet=interval, limit=timeout, poll=interval)


def _display_usable() -> bool:
    if not os.environ.get("DISPLAY"):
        return False
    from autoplayer.screen.window import open_display

    try:
        open_display().close()
    except UserError:
        return False
    return True


def demo(*, size: tuple[int, int], seed: int, skin: str | None, out: Path | None, force_xvfb: bool,
         stream: Any) -> int:
    """`autoplayer demo`: see the command's help."""
    started = time.perf_counter()
    with ExitStack() as stack:
        headless = force_xvfb or not _display_usable()
        if headless:
            from autoplayer.screen.xvfb import virtual_display

            server = stack.enter_context(virtual_display(1280, 1024))
            print(f"no usable display: playing on a private Xvfb ({server.display})",
                  file=stream)
            if out is None:
                out = Path(tempfile.mkdtemp(prefix="autoplayer-demo-"))
            out.mkdir(parents=True, exist_ok=True)
        display = os.environ["DISPLAY"]

        from autoplayer.commands.vision import save_png
        from autoplayer.games.nonogram.game import make_game
        from autoplayer.play import play
        from autoplayer.screen.capture import Screen
        from autoplayer.screen.source import WindowSource

        game_page = stack.enter_context(bundled_game(display, size=size, seed=seed, skin=skin,
                                                     sign="dialog"))
        source = WindowSource(Screen(), window_id=game_page.window)
        stack.callback(source.close)
        before = wait_until_still(source)
        print(f"game: {size[0]}x{size[1]} nonogram, seed {seed}, in Chromium window "
              f"0x{game_page.window:x} ({source.window.rect.w}x{source.window.rect.h})",
              file=stream)
        if headless and out is not None:
            save_png(str(out / "before.png"), before.pixels)
        report = play(make_game(window=source.window), source, time_budget=300.0,
                      started=time.perf_counter())
        for line in report.lines():
            print(line, file=stream)
        # The page posts its state after drawing it; give the last report time to arrive.
        game_page.server.wait_for(game_page.session,
                                  lambda st, _: bool(st and st.get("solved")), 5.0)
        state = game_page.state()
        solved = bool(state.get("solved"))
        print(f"game's verdict: {'SOLVED' if solved else 'not solved'} "
              f"({state.get('events', '?')} mouse presses taken by the page)", file=stream)
        if headless and out is not None:
            save_png(str(out / "after.png"), source.grab().pixels)
            print(f"screenshots: {out / 'before.png'} and {out / 'after.png'}", file=stream)
        print(f"demo took {time.perf_counter() - started:.1f} s", file=stream)
    return EXIT_OK if solved else EXIT_NOT_SOLVED
