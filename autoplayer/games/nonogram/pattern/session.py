"""A real Pattern game on an X display, and a watch for its completion flash.

For the end-to-end tests, the benchmark and anyone checking the bot from
outside: the flash is the game's own word that the puzzle is finished (it
flashes only when `execute_move` marks the game complete, never after a
"solve" from its menu), so a watcher that sees it needs no trust in the bot.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path
from types import TracebackType

import numpy as np

from autoplayer.errors import UserError
from autoplayer.screen.process import Helper

PATTERN = "/usr/games/sgt-pattern"
TITLE = "Pattern"


def generate(params: str, binary: str = PATTERN) -> str:
    """A game ID from Pattern's own generator; `params` like '15x15#seed'."""
    out = subprocess.run([binary, "--generate", "1", params], capture_output=True, text=True,
                         timeout=60, check=False)
    game_id = out.stdout.strip()
    if out.returncode != 0 or ":" not in game_id:
        raise UserError(f"sgt-pattern --generate {params!r} failed: {out.stderr.strip()}")
    return game_id


def canvas_size(width: int, height: int, tile: int) -> tuple[int, int]:
    """The drawing area Pattern asks for (pattern.c's geometry; it never shrinks to fit)."""
    border, gutter = 3 * tile // 4, tile // 2

    def side(d: int, other: int) -> int:
        return 2 * border + gutter + tile * (other // 5 + 2 + d)

    return side(width, height), side(height, width)


class PatternProcess:
    """`sgt-pattern GAME_ID` on `display` with `PATTERN_TILESIZE=tile`, until closed."""

    def __init__(self, game_id: str, display: str, tile: int = 24, *,
                 binary: str = PATTERN, env: dict[str, str] | None = None) -> None:
        self.game_id, self.display, self.tile, self.binary = game_id, display, tile, binary
        self.env = env or {}
        self.helper: Helper | None = None
        self.window_id = 0

    def start(self, timeout: float = 15.0) -> PatternProcess:
        from autoplayer.screen.window import find_window, open_display

        env = {**os.environ, **self.env, "DISPLAY": self.display,
               "PATTERN_TILESIZE": str(self.tile)}
        self.helper = helper = Helper(Path(self.binary).name, [self.binary, self.game_id],
                                      env=env)
        disp = open_display(self.display)
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    self.window_id = find_window(disp, TITLE, exact=True).id
                    break
                except UserError:
                    helper.check("before showing its window")
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
        finally:
            disp.close()
        self.wait_drawn()
        return self

    def wait_drawn(self, timeout: float = 10.0) -> None:
        """Until the window shows a board (GTK maps it before the first draw)."""
        from autoplayer.vision.lattice import find_grid

        deadline = time.monotonic() + timeout
        while True:
            try:
                find_grid(self.grab())
                return
            except UserError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def grab(self) -> np.ndarray:
        """The window's client area now (RGB)."""
        from autoplayer.screen.capture import window_pixels

        return window_pixels(self.display, self.window_id)

    @property
    def proc(self) -> subprocess.Popen[bytes] | None:
        return None if self.helper is None else self.helper.proc

    def close(self) -> None:
        helper, self.helper = self.helper, None
        if helper is not None:
            helper.stop()

    def __enter__(self) -> PatternProcess:
        return self.start() if self.helper is None else self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class FlashWatch:
    """Polls a Pattern window's cells from a thread; `flashed` is set when the board inverts.

    Every cell's centre pixel is sampled a few hundred times a second (the
    flash's inverted phases last about 43 ms each). A flash is two
    consecutive samples, both with every cell decided, in which every cell
    swapped black for white. It follows the window if it moves.
    """

    UNDECIDED_TOLERANCE = 40.0
    """Luminance steps an undecided cell's centre may differ by from the grey of the first
    look at the board."""

    def __init__(self, game: PatternProcess, interval: float = 0.002) -> None:
        self.game = game
        self.interval = interval
        self.flashed = threading.Event()
        self.flashed_at: float | None = None
        self.first_change_at: float | None = None
        self.changed = threading.Event()
        """Set when any cell first changes (the bot started)."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def start(self) -> FlashWatch:
        from autoplayer.games.nonogram.game import NonogramGame
        from autoplayer.games.nonogram.model import UNKNOWN
        from autoplayer.screen.capture import Frame
        from autoplayer.vision.image import luminance

        pixels = self.game.grab()
        read = NonogramGame().read(Frame(pixels))
        undecided = read.shown == UNKNOWN
        if not undecided.any() or read.layout.ink_level is None:
            raise UserError("the flash watch needs a board with undecided cells and clues")
        self._xs = np.round(np.array(read.xs)).astype(int)
        self._ys = np.round(np.array(read.ys)).astype(int)
        self._first = read.shown.copy()
        self._ink = read.layout.ink_level
        centres = luminance(pixels[self._ys[:, None], self._xs[None, :]])
        self._unknown = float(np.median(centres[undecided]))
        self._board = read.grid
        self._thread = threading.Thread(target=self._run, name="pattern-flash-watch",
                                        daemon=True)
        self._thread.start()
        return self

    def _cells(self, screen: object, disp: object) -> np.ndarray:
        """Every cell's centre pixel: FILLED nearer the clue ink than an undecided cell's
        grey, EMPTY when far from that grey the other way, else UNKNOWN."""
        from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
        from autoplayer.geometry import Rect
        from autoplayer.screen.window import locate
        from autoplayer.vision.image import luminance

        info = locate(disp, self.game.window_id)  # type: ignore[arg-type]
        r = self._board
        shot = screen.grab(Rect(info.rect.x + r.x, info.rect.y + r.y, r.w, r.h))  # type: ignore[attr-defined]
        lum = luminance(shot.pixels[self._ys[:, None] - r.y, self._xs[None, :] - r.x])
        filled = np.abs(lum - self._ink) < np.abs(lum - self._unknown)
        empty = ~filled & (np.abs(lum - self._unknown) > self.UNDECIDED_TOLERANCE)
        return np.where(filled, FILLED, np.where(empty, EMPTY, UNKNOWN))

    def _run(self) -> None:
        from autoplayer.games.nonogram.model import UNKNOWN
        from autoplayer.screen.capture import Screen
        from autoplayer.screen.window import open_display

        try:
            disp = open_display(self.game.display)
        except BaseException as err:
            self.error = err
            return
        try:
            with Screen(self.game.display) as screen:
                previous = None
                while not self._stop.is_set():
                    cells = self._cells(screen, disp)
                    now = time.perf_counter()
                    if not self.changed.is_set() and (cells != self._first).any():
                        self.first_change_at = now
                        self.changed.set()
                    if (previous is not None and not (cells == UNKNOWN).any()
                            and not (previous == UNKNOWN).any() and (cells != previous).all()):
                        self.flashed_at = now
                        self.flashed.set()
                        return
                    previous = cells
                    time.sleep(self.interval)
        except BaseException as err:  # reported to whoever waits on the watch
            self.error = err
        finally:
            disp.close()

    def wait(self, timeout: float) -> bool:
        """Whether the game flashed within `timeout` seconds."""
        done = self.flashed.wait(timeout)
        if self.error is not None and not done:
            raise self.error
        return done

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
