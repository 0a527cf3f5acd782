"""The only place the bot waits for the screen: capture until a judgement says it is done.

Games draw input late (a loaded browser lags behind a burst of clicks; a toolkit
merges queued motions while it draws; a dialog fades in), so every wait of the
mid-end is the same loop: capture, compare with the last capture, and ask a
judgement whether what it has seen is enough. Only the judgements differ: the
board still for a moment, a press drawn, an answer to the last move settled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from autoplayer.geometry import Rect

if TYPE_CHECKING:
    from autoplayer.screen.capture import Frame
    from autoplayer.screen.source import FrameSource

POLL = 0.015
"""Captures this far apart (a board capture takes a few ms)."""


@dataclass(frozen=True)
class Moment:
    """One capture while waiting, and how long the watched pixels have held still."""

    frame: Frame
    held: float
    """Seconds the watched pixels have been the same (0 on the capture that changed them)."""
    waited: float
    """Seconds since the wait began."""
    first: bool = False


Judge = Callable[[Moment], bool]


def observe(source: FrameSource, judge: Judge, *, region: Rect | None = None,
            limit: float = 10.0, poll: float | Callable[[Moment], float] = POLL,
            clock: Callable[[], float] = time.monotonic) -> Moment:
    """Capture until `judge` says done or `limit` seconds pass; the last moment seen.

    Stillness (`Moment.held`) is judged on `region` (frame pixels; the whole frame when
    None). Every capture is shown to the judge, so it can also track what it sees."""
    start = clock()
    last: np.ndarray | None = None
    since = start
    first = True
    while True:
        frame = source.grab()
        now = clock()
        pixels = watched(frame, region)
        if last is None or last.shape != pixels.shape or not np.array_equal(last, pixels):
            last, since = pixels, now
        moment = Moment(frame, now - since, now - start, first)
        first = False
        if judge(moment) or moment.waited >= limit:
            return moment
        time.sleep(poll(moment) if callable(poll) else poll)


def watched(frame: Frame, region: Rect | None) -> np.ndarray:
    """The pixels of `region` (frame pixels, clipped to the frame)."""
    if region is None:
        return frame.pixels
    x0, y0 = max(region.x, 0), max(region.y, 0)
    return frame.pixels[y0:max(region.bottom, 0), x0:max(region.right, 0)]


def still_for(quiet: float, *, at_least: float = 0.0) -> Judge:
    """Done once the watched pixels have held still for `quiet` seconds (and `at_least`
    seconds have passed)."""
    return lambda m: m.held >= quiet and m.waited >= at_least


def until_still(source: FrameSource, *, quiet: float, limit: float,
                region: Rect | None = None, poll: float = POLL) -> Frame:
    """The first frame after the watched pixels held still for `quiet` seconds (or the last
    one at `limit`)."""
    return observe(source, still_for(quiet), region=region, limit=limit, poll=poll).frame
