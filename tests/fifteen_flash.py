"""Tatham's Fifteen's completion flash, watched from outside the bot.

The game flashes only when its own `execute_move` finds every tile home (never
after its Solve menu): for 2 x 0.13 s it redraws every tile's face and the gap
in its highlight colour, then in its lowlight colour, instead of the background.
A watcher that sees both phases needs no trust in the bot or its reader. The
tiles' places come from the first look at the board; what counts is only the
colour at a point inside each cell, clear of the number, sampled about a hundred
times a second (each phase lasts 0.13 s).
"""

from __future__ import annotations

import threading
import time

import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.grid import Grid

SAME = 6.0
"""Largest difference (summed over RGB) between cells that show one colour."""
APART = 24.0
"""Least difference (summed over RGB) between the flash colours and the background."""


class FifteenFlash:
    """Polls a Fifteen window from a thread; `flashed` is set once both flash phases showed.

    `grid` is the tiles' interiors in window pixels (a first reading's grid).
    """

    def __init__(self, display: str, window_id: int, grid: Grid,
                 interval: float = 0.005) -> None:
        self.display, self.window_id, self.interval = display, window_id, interval
        self._xs = np.array([a + max(3, (b - a) // 7) for a, b in grid.xs])
        self._ys = np.array([a + max(3, (b - a) // 7) for a, b in grid.ys])
        self._box = Rect(int(self._xs.min()), int(self._ys.min()),
                         int(self._xs.max() - self._xs.min() + 1),
                         int(self._ys.max() - self._ys.min() + 1))
        self.flashed = threading.Event()
        self.phases: list[str] = []
        """'highlight' and 'lowlight', in the order they first showed."""
        self.background: np.ndarray | None = None
        self.moved = False
        """Some cell probe left the background (a tile slid): the watch was looking."""
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    def _probes(self, screen: object, disp: object) -> np.ndarray:
        """The colour at each cell's probe point now, one RGB row per cell."""
        from autoplayer.screen.window import locate

        at = locate(disp, self.window_id).rect  # type: ignore[arg-type]
        box = self._box
        shot = screen.grab(Rect(at.x + box.x, at.y + box.y, box.w, box.h))  # type: ignore[attr-defined]
        px = shot.pixels[self._ys[:, None] - box.y, self._xs[None, :] - box.x]
        return px.reshape(-1, 3).astype(float)

    def _phase(self, probes: np.ndarray) -> str | None:
        """Which flash phase every cell shows at once, if any."""
        assert self.background is not None
        mean = probes.mean(axis=0)
        if np.abs(probes - mean).sum(axis=1).max() > SAME:
            return None
        shift = float((mean - self.background).sum())
        if abs(shift) < APART:
            return None
        return "highlight" if shift > 0 else "lowlight"

    def start(self, timeout: float = 5.0) -> FifteenFlash:
        """Starts watching once the board shows its background in every cell probe."""
        self._thread = threading.Thread(target=self._run, name="fifteen-flash-watch",
                                        daemon=True)
        self._thread.start()
        self._ready.wait(timeout)
        if self.error is not None:
            raise self.error
        assert self._ready.is_set(), "the flash watch never started"
        return self

    def _run(self) -> None:
        from autoplayer.screen.capture import Screen
        from autoplayer.screen.window import open_display

        try:
            disp = open_display(self.display)
        except BaseException as err:
            self.error = err
            self._ready.set()
            return
        try:
            with Screen(self.display) as screen:
                first = self._probes(screen, disp)
                self.background = np.median(first, axis=0)
                if np.abs(first - self.background).sum(axis=1).max() > SAME:
                    raise AssertionError(f"the cell probes do not all show the board's "
                                         f"background at rest: {first.tolist()}")
                self._ready.set()
                while not self._stop.is_set():
                    probes = self._probes(screen, disp)
                    self.moved |= bool(
                        np.abs(probes - self.background).sum(axis=1).max() > APART)
                    phase = self._phase(probes)
                    if phase is not None and phase not in self.phases:
                        self.phases.append(phase)
                        if len(self.phases) == 2:
                            self.flashed.set()
                            return
                    time.sleep(self.interval)
        except BaseException as err:  # reported to whoever waits on the watch
            self.error = err
        finally:
            self._ready.set()
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
