"""The mid-end's hands: the input driver, gestures from frame pixels to the screen,
bounded by the board, and the pointer parked only once the game has drawn the rest."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from autoplayer.geometry import Gesture, Move, Rect, to_screen
from autoplayer.play.settle import Moment, observe, still_for, watched
from autoplayer.screen.input import InputDriver, Pace, check_inside

if TYPE_CHECKING:
    from autoplayer.games.base import Game
    from autoplayer.play.report import Report
    from autoplayer.screen.capture import Frame
    from autoplayer.screen.source import FrameSource

DriverFactory = Callable[[Rect, Pace, float | None], Any]

PACED_LIMIT = 0.3
"""A paced gesture that changes nothing for this long is taken as handled (a click on the
cell already selected, a key the page ignores): the verification judges it."""
PACED_POLL = 0.01
PACED_OUTSIDE = 0.15

PARK_QUIET = 0.05
"""Stillness of the board that counts as input handled, before the pointer is parked."""
PARK_LIMIT = 1.0


def default_driver(bounds: Rect, pace: Pace, deadline: float | None) -> InputDriver:
    return InputDriver(bounds, pace, deadline)


class EarlyDriver:
    """The input driver, made and started on a thread as soon as play begins (pynput's
    import and its listeners take a while; a dry run never makes one)."""

    def __init__(self, factory: DriverFactory, pace: Pace, deadline_perf: float | None) -> None:
        self.driver: Any = None
        self.error: BaseException | None = None
        deadline = None
        if deadline_perf is not None:
            deadline = time.monotonic() + (deadline_perf - time.perf_counter())

        def make() -> None:
            try:
                self.driver = factory(Rect(0, 0, 0, 0), pace, deadline).start()
            except BaseException as err:  # handed to the loop at its first input
                self.error = err

        self.thread = threading.Thread(target=make, name="input-driver", daemon=True)
        self.thread.start()

    def get(self, bounds: Rect) -> Any:
        self.thread.join()
        if self.error is not None:
            raise self.error
        self.driver.bounds = bounds
        return self.driver

    def close(self, report: Report) -> None:
        self.thread.join()
        if self.driver is not None:
            report.events = self.driver.events
            self.driver.stop()


class Hands:
    """Gestures in frame pixels, sent inside the board the last reading located."""

    def __init__(self, early: EarlyDriver, source: FrameSource, game: Game[Any, Any, Any],
                 report: Report, started: float, pace: Pace | None = None) -> None:
        self.early, self.source, self.game, self.report = early, source, game, report
        self.pace = pace
        """The pace the user asked for (--pace), which the game's own does not replace."""
        self.started = started
        self.frame: Any = None
        self.reading: Any = None

    def act(self, gestures: Sequence[Gesture], *, settle: bool = True,
            interrupt: Callable[[], bool] | None = None) -> bool:
        """The gestures; a parking route at their end (moves only) is sent once the game
        has drawn the rest (`until_drawn`), with `settle`. With `interrupt`, it is asked
        between gestures and stops them when it says so. Whether every gesture was sent."""
        frame, report = self.frame, self.report
        bounds = frame.rect_to_screen(self.game.board(self.reading))
        on_screen = [to_screen(g, frame.origin, frame.scale) for g in gestures]
        driver = self.early.get(bounds)
        if self.pace is None:
            driver.pace = self.game.pace  # what the game learned may change its pace
        if hasattr(self.source, "allow_cover"):
            self.source.allow_cover = True  # from now on a window over the game is news
        driver.reach = frame.rect_to_screen(Rect(0, 0, frame.width, frame.height))
        if report.first_input is None:
            report.first_input = time.perf_counter() - self.started
            report.first_input_epoch = time.time()
        check_inside(on_screen, bounds)  # the whole batch, before any of it is sent
        split = len(on_screen)
        while split > 0 and isinstance(on_screen[split - 1], Move):
            split -= 1
        body, park = on_screen[:split], on_screen[split:]
        sent = True
        if interrupt is not None:
            for i, g in enumerate(body):
                if i and interrupt():
                    sent = False
                    body = body[:i]
                    break
                driver.perform([g])
        elif body and self.game.paced:
            self._paced(driver, body, frame, self.game.board(self.reading))
        elif body:
            driver.perform(body)
        report.gestures += sum(1 for g in body if not isinstance(g, Move))
        if park:
            if settle and body:
                self.until_drawn(self.game.board(self.reading))
            driver.perform(park)
        return sent

    def _paced(self, driver: Any, body: Sequence[Gesture], frame: Frame, board: Rect) -> None:
        """Each gesture once the window shows the one before (never pressing again before
        seeing what the last press did: a page busy drawing drops what comes meanwhile).

        Drawn: the window changed and then held still for the game's `paced_quiet`, no
        sooner than its `paced_floor` after the gesture; a change only outside the board
        (a move counter, an entry field's echo) must hold PACED_OUTSIDE longer, since a
        page updates its counter at once and may then stall before the board's own
        animation starts."""
        last = frame
        quiet = self.game.paced_quiet
        floor = self.game.paced_floor
        limit = max(PACED_LIMIT, 2 * floor)
        for g in body:
            driver.perform([g])
            if isinstance(g, Move):
                continue
            before = last

            def drawn(m: Moment, before: Frame = before) -> bool:
                now, then = m.frame.pixels, before.pixels
                if now.shape != then.shape:
                    return m.held >= quiet and m.waited >= floor
                if np.array_equal(now, then) or m.held < quiet or m.waited < floor:
                    return False
                return (not np.array_equal(watched(m.frame, board), watched(before, board))
                        or m.held >= quiet + PACED_OUTSIDE)

            last = observe(self.source, drawn, limit=limit, poll=PACED_POLL).frame

    def until_drawn(self, board: Rect) -> None:
        """Wait until the board has looked the same for PARK_QUIET seconds (at most
        PARK_LIMIT): the game has handled the input sent so far.

        A toolkit busy drawing queues the pointer's motions and then handles only the
        last of them (Qt merges them), so a parking route sent at once would never be
        seen to enter the cell it passes through: a game that keeps the last cell
        entered lit would keep the one pressed last instead."""
        observe(self.source, still_for(PARK_QUIET), region=board, limit=PARK_LIMIT)

    def grab(self) -> Frame:
        frame = self.source.grab()
        self.frame = frame
        return frame
