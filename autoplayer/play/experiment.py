"""Experiments a back-end declares, run by the mid-end: one watched press at a time.

A back-end that learns its game's rules by trying (nonograms) writes its
experiment as a generator: it yields a `Press` (the gestures, how to sense the
board, what it looked like before) and receives what the game drew (`Seen`).
It never touches the input driver or the clock; the mid-end sends the press,
parks the pointer and waits until the game has drawn it, never pressing again
before it has seen what the last press did.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from autoplayer.geometry import Gesture, Move
from autoplayer.play.settle import Moment, observe

if TYPE_CHECKING:
    from autoplayer.play.hands import Hands
    from autoplayer.screen.capture import Frame

QUIET = 0.05
"""A drawn press: two captures this far apart show the same pixels."""
POLL = 0.015
"""Captures this far apart while a press shows no change yet (for FAST_FOR seconds): a
game draws a press a frame or two after it, and seeing that sooner is time saved on
every press; stillness is still judged over QUIET."""
FAST_FOR = 0.2
NOTHING = 0.35
"""A press that shows no change for this long did nothing."""
WATCH_LIMIT = 2.0
"""Longest wait for a game to finish drawing one press."""


@dataclass(frozen=True)
class Press:
    """One step of an experiment: gestures to send (none: only park), then watch."""

    gestures: Sequence[Gesture]
    park: Sequence[Move]
    """The route that parks the pointer afterwards."""
    sense: Callable[[Frame], np.ndarray]
    """A frame -> one sample per unit (cell) of the board."""
    moved: Callable[[np.ndarray, np.ndarray], np.ndarray]
    """(now, before) -> which units changed."""
    before: np.ndarray
    touched: np.ndarray | None = None
    """Units the gestures press; a change elsewhere must hold for NOTHING (a page lagging
    behind the pointer moves on, a menu stays)."""
    nothing: float = NOTHING
    """A press showing no change for this long did nothing (parking alone needs less)."""
    settle: bool = True
    """Park only once the game has drawn the gestures."""


@dataclass
class Seen:
    """One watched press: the frame after it and every unit's sample."""

    frame: Frame
    now: np.ndarray
    changed: bool
    """Something changed on the board."""


T = TypeVar("T")
Steps = Generator[Press, Seen, T]


def run(steps: Steps[T], hands: Hands) -> T:
    """Carry out an experiment: each press sent and watched until drawn; its result."""
    try:
        step = next(steps)
        while True:
            step = steps.send(watch(hands, step))
    except StopIteration as done:
        return done.value


def watch(hands: Hands, press: Press) -> Seen:
    """Send the press, park, and capture until the game has drawn what it did.

    Drawn: a change in any unit, then the same pixels for QUIET; or no change for
    `press.nothing` seconds. A change on units the press does not touch must hold for
    NOTHING: a menu stays, but a page lagging behind the pointer (its highlight still on
    the pressed cell's row) moves on. A window over the game (a menu of its own) needs no
    such wait."""
    sent = time.monotonic()
    hands.act([*press.gestures, *press.park], settle=press.settle)
    # A paced game's hands have already watched the window for the gestures' drawing
    # (up to PACED_LIMIT of stillness): that counts towards `press.nothing`.
    spent = time.monotonic() - sent if hands.game.paced else 0.0
    state: dict[str, Any] = {}

    def judge(m: Moment) -> bool:
        now = press.sense(m.frame)
        moved = press.moved(now, press.before)
        changed = bool(moved.any())
        state["seen"] = Seen(m.frame, now, changed)
        stray = (press.touched is not None and not m.frame.covers
                 and bool((moved & ~press.touched).any()))
        if changed:
            state["changed"] = True
            return m.held >= (NOTHING if stray else QUIET)
        return m.waited + spent >= press.nothing and m.held >= QUIET

    def poll(m: Moment) -> float:
        return QUIET if state.get("changed") or m.waited >= FAST_FOR else POLL

    observe(hands.source, judge, limit=WATCH_LIMIT, poll=poll)
    hands.frame = state["seen"].frame
    return state["seen"]
