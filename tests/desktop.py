"""Real programs on a private X display, for the end-to-end tests.

One way to do each thing the end-to-end modules share: the skip marks for the
programs they drive, a Tatham game or a bundled page in its own window, the
pointer parked where a user's would be, `autoplayer` run as a user types it,
and the user who grabs the mouse mid-game. The display itself is the
`xserver` fixture in conftest.py (`autoplayer.screen.xvfb.virtual_display`);
browser windows are `autoplayer.webgame.browser.launch_app`, Pattern is
`autoplayer.games.nonogram.pattern.session.PatternProcess`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pytest

from autoplayer.games.nonogram.pattern.session import PATTERN
from autoplayer.screen.process import Helper
from autoplayer.screen.xvfb import Xvfb
from autoplayer.webgame.browser import CHROMIUM_NAMES

if TYPE_CHECKING:
    from autoplayer.screen.source import WindowSource
    from autoplayer.screen.window import WindowInfo
    from autoplayer.webgame.browser import AppWindow
    from autoplayer.webgame.server import GameServer

FIFTEEN = "/usr/games/sgt-fifteen"


def _needs(program: str, missing: bool) -> pytest.MarkDecorator:
    return pytest.mark.skipif(missing, reason=f"{program} is not installed "
                                              "(make system-deps installs it)")


needs_xvfb = _needs("Xvfb", shutil.which("Xvfb") is None)
needs_xdotool = _needs("xdotool", shutil.which("xdotool") is None)
needs_chromium = _needs("Chromium", not any(shutil.which(n) for n in CHROMIUM_NAMES))
needs_pattern = _needs("sgt-pattern", not os.path.exists(PATTERN))
needs_fifteen = _needs("sgt-fifteen", not os.path.exists(FIFTEEN))


def xdotool(display: str, *args: str) -> str:
    """`xdotool ARGS` on the display (XTEST: input as a person's); its output."""
    return subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display},
                          capture_output=True, text=True, check=True, timeout=20).stdout


def park_pointer(xserver: Xvfb) -> None:
    """The pointer in the screen's far corner, off every window (they open at the top left),
    where a user starting the bot from a terminal would have it."""
    xdotool(xserver.display, "mousemove", str(xserver.width - 1), str(xserver.height - 1))


def settled_window(xserver: Xvfb, window_id: int) -> WindowSource:
    """A WindowSource on the window, the pointer parked off it, once it has finished painting."""
    from autoplayer.commands.play import wait_until_still
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.source import WindowSource

    park_pointer(xserver)
    source = WindowSource(Screen(xserver.display), window_id=window_id, display=xserver.display)
    wait_until_still(source)
    return source


def locate_window(display: str, window_id: int) -> WindowInfo:
    """Where the window is now (a WindowInfo), asked over a connection of its own."""
    from autoplayer.screen.window import locate, open_display

    disp = open_display(display)
    try:
        return locate(disp, window_id)
    finally:
        disp.close()


def _wait_for_window(display: str, title: str, program: Helper, timeout: float) -> int:
    from autoplayer.errors import UserError
    from autoplayer.screen.window import find_window, open_display

    disp = open_display(display)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                return find_window(disp, title, exact=True).id
            except UserError:
                program.check("before showing its window")
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
    finally:
        disp.close()


@contextmanager
def tatham_game(xserver: Xvfb, binary: str, game_id: str, title: str,
                timeout: float = 20.0) -> Iterator[WindowSource]:
    """`binary GAME_ID` (one of Tatham's games) on the display until the block ends; yields
    a settled WindowSource on its window, the one titled `title`."""
    with Helper(os.path.basename(binary), [binary, game_id], env=xserver.env()) as game:
        source = settled_window(xserver, _wait_for_window(xserver.display, title, game, timeout))
        try:
            yield source
        finally:
            source.close()


@contextmanager
def page_window(server: GameServer, xserver: Xvfb, *, width: int, height: int,
                timeout: float = 60.0, **params: Any) -> Iterator[AppWindow]:
    """The server's page (`server.url(**params)`, a `session` among them) in a Chromium app
    window, once the page has drawn its board and reported it; yields the AppWindow."""
    from autoplayer.webgame.browser import launch_app

    session = params["session"]
    with launch_app(server.url(**params), display=xserver.display, width=width,
                    height=height) as app:
        assert server.wait_for(session, lambda st, lay: st is not None and lay is not None,
                               timeout), "the page did not load"
        yield app


def solved_state(server: GameServer, session: str, timeout: float = 10.0,
                 quiet: float = 0.5) -> dict[str, Any]:
    """The page's report once it calls itself solved and its counts have stopped changing
    for `quiet` seconds (its last posts can arrive after the bot has returned), or after
    `timeout`, for the asserts."""
    deadline = time.monotonic() + timeout
    server.wait_for(session, lambda s, _: bool(s and s.get("solved")), timeout)
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        state = server.state(session) or {}
        key = (state.get("events"), state.get("changes"), state.get("solved"))
        if key != last:
            last, since = key, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return state
        time.sleep(0.05)
    return server.state(session) or {}


def _autoplayer(*args: str) -> list[str]:
    return [sys.executable, "-m", "autoplayer", *args]


def run_autoplayer(display: str, *args: str,
                   timeout: float = 180.0) -> subprocess.CompletedProcess[str]:
    """`autoplayer ARGS` in a fresh process on the display, as a user types it, to its end."""
    return subprocess.run(_autoplayer(*args), env={**os.environ, "DISPLAY": display},
                          capture_output=True, text=True, timeout=timeout, check=False)


def start_autoplayer(display: str, *args: str) -> subprocess.Popen[str]:
    """`autoplayer ARGS` started on the display; the caller waits for it (output piped)."""
    return subprocess.Popen(_autoplayer(*args), env={**os.environ, "DISPLAY": display},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def user_grabs_the_mouse(
    display: str, server: GameServer, session: str, *args: str,
) -> tuple[subprocess.CompletedProcess[str], int, dict[str, Any]]:
    """Runs `autoplayer ARGS` against a page; once the page has taken three presses the user
    moves the mouse. Returns the finished command, the presses the page had taken when it
    exited, and the page's report a second later (any input after the exit shows there)."""
    proc = start_autoplayer(display, *args)

    def user_moves_mouse() -> None:
        server.wait_for(session, lambda s, _: bool(s and s["events"] >= 3), 120)
        xdotool(display, "mousemove", "3", "3")

    mover = threading.Thread(target=user_moves_mouse)
    mover.start()
    try:
        out, err = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        mover.join()
    time.sleep(0.5)
    at_exit = (server.state(session) or {})["events"]
    time.sleep(1.0)
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    return done, at_exit, server.state(session) or {}
