"""The input driver: executes clicks, drags and keys with pynput, paced and abortable.

Fail-safes, all checked before every low-level event:
- Esc (a keyboard listener) aborts;
- any pointer movement the bot did not make aborts: the mouse listener flags
  motion to a point we never sent it to (its `injected` flag would say more,
  but on X it only reflects XSendEvent, so XTest events from us and from
  other programs look alike), and before each gesture the pointer must still
  be where we left it;
- a time budget;
- every pointer position is checked against the board rectangle first: a
  gesture outside it raises and nothing of that batch is sent.
Aborting raises `autoplayer.errors.Aborted` (exit 3) and never leaves a
button down. pynput is imported lazily: it needs DISPLAY before import.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any

from autoplayer.errors import Aborted, InputError, UserError
from autoplayer.geometry import Button, Click, Dismiss, Drag, Gesture, Key, Move, Rect, points

ABORT_KEY = "esc"


@dataclass(frozen=True)
class Pace:
    """How fast a game takes input (a per-game profile; seconds)."""

    gesture: float = 0.0
    """Pause after every gesture."""
    motion: float = 0.0
    """Pause before every motion of a drag and before its release. GTK (Tatham's
    games) drops a motion arriving within about 30 ms of the previous one."""
    click: float = 0.0
    """Pause between arriving on a point and pressing there."""
    hold: float = 0.0
    """How long a click holds the button down."""
    release: float | None = None
    """Pause between a drag's last motion and its release (None: the motion pause)."""

    def slower(self, ms: float) -> Pace:
        """At least `ms` milliseconds after every gesture (the --pace option)."""
        return replace(self, gesture=max(self.gesture, ms / 1000))


def check_inside(gestures: Sequence[Gesture], bounds: Rect) -> None:
    """Raise before anything is sent when any point of any gesture leaves `bounds`."""
    for g in gestures:
        if isinstance(g, Key) and g.name.lower() == ABORT_KEY:
            raise InputError(f"the {ABORT_KEY} key is the abort key; a game cannot use it")
        for x, y in points(g):
            if not bounds.contains(x, y):
                raise InputError(
                    f"refusing input at ({x}, {y}): outside the board located on screen",
                    region=(bounds.x, bounds.y, bounds.w, bounds.h),
                )


class InputDriver:
    """Sends gestures to the screen; use as a context manager (it runs listeners).

    `bounds` is the board in screen coordinates; `deadline` a `time.monotonic()`
    value after which it aborts.
    """

    def __init__(
        self, bounds: Rect, pace: Pace = Pace(), deadline: float | None = None,
        *, listen: bool = True,
    ) -> None:
        self.bounds = bounds
        self.reach: Rect | None = None
        """Where a bare pointer move (parking) may go: the captured window; None: nowhere."""
        self._own_esc_until = 0.0
        self.pace = pace
        self.deadline = deadline
        self.listen = listen
        self.events = 0
        """Low-level events sent (motions, presses, releases, keys)."""
        self.gestures = 0
        self._abort = threading.Event()
        self._reason = ""
        # Every point the bot moved to: the listener runs behind a burst of input and must
        # still recognise our motion however far back it is.
        self._ours: set[tuple[int, int]] = set()
        self._ours_lock = threading.Lock()
        self._left_at: tuple[int, int] | None = None
        self._armed = False
        self._listeners: list[Any] = []
        self._mouse: Any = None
        self._keyboard: Any = None
        self._pynput: Any = None

    # -- lifetime ---------------------------------------------------------
    def start(self) -> InputDriver:
        if not os.environ.get("DISPLAY") and sys.platform.startswith("linux"):
            raise UserError("no X display (DISPLAY is not set): input needs one")
        try:
            import pynput.keyboard
            import pynput.mouse
        except ImportError as err:
            raise UserError(f"cannot send input here: {err}") from None
        self._pynput = pynput
        self._mouse = pynput.mouse.Controller()
        self._keyboard = pynput.keyboard.Controller()
        self._release_held()
        if self.listen:
            mouse = pynput.mouse.Listener(on_move=self._on_move, on_scroll=self._on_scroll)
            keys = pynput.keyboard.Listener(on_press=self._on_key)
            for listener in (mouse, keys):
                listener.start()
                listener.wait()
                self._listeners.append(listener)
        self._armed = False
        return self

    def arm(self) -> None:
        """From now on any pointer movement the bot did not make aborts.

        Separate from `start` so the listeners can start while the game is still
        being read (the user may still be letting go of the mouse then); `perform`
        arms the driver itself if nobody did.
        """
        self._left_at = self._position()
        self._armed = True

    def stop(self) -> None:
        for listener in self._listeners:
            listener.stop()
        if self._listeners:
            self._wake_listeners()
        for listener in self._listeners:
            listener.join(1)
        self._listeners = []
        # Their X connections close now, while the server is surely still there.
        self._mouse = self._keyboard = None

    def __enter__(self) -> InputDriver:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _wake_listeners(self) -> None:
        """pynput's X listeners only notice `stop()` on their next event, or once their
        recording is ended from another connection.

        The pointer is moved to where it already is; a key with no symbol (an unmapped
        keycode) is pressed only where the recording could not be ended otherwise.
        """
        with self._ours_lock:
            self._ours.add(self._position())
        self._mouse.position = self._position()
        # A key reaches the focused window, the game's: an input after the game may
        # have answered. Where pynput's listener holds a second connection for stopping,
        # its recording is ended on that one, flushed, and no key is sent.
        if all(_end_recording(listener) for listener in self._listeners):
            return
        display = getattr(self._keyboard, "_display", None)
        if display is None:
            return
        from Xlib import X
        from Xlib.ext import xtest

        info = display.display.info
        first, count = info.min_keycode, info.max_keycode - info.min_keycode + 1
        mapping = display.get_keyboard_mapping(first, count)
        unmapped = [first + i for i, syms in enumerate(mapping) if not any(syms)]
        if unmapped:
            xtest.fake_input(display, X.KeyPress, unmapped[-1])
            xtest.fake_input(display, X.KeyRelease, unmapped[-1])
            display.sync()

    # -- fail-safes -------------------------------------------------------
    def abort(self, reason: str) -> None:
        """Stop at the next check (callable from any thread)."""
        if not self._abort.is_set():
            self._reason = reason
            self._abort.set()

    def _on_move(self, x: int, y: int, injected: bool = False) -> None:
        if injected or not self._armed:
            return
        with self._ours_lock:
            if (x, y) in self._ours:
                return
        self.abort(f"the mouse moved to ({x}, {y}) without the bot")

    def _on_scroll(self, x: int, y: int, dx: int, dy: int, injected: bool = False) -> None:
        if not injected and self._armed:
            self.abort("the mouse wheel turned")

    def _on_key(self, key: Any, injected: bool = False) -> None:
        if key == self._pynput.keyboard.Key.esc:
            if time.monotonic() < self._own_esc_until:
                return  # the bot's own Dismiss (the listener may run a little behind)
            self.abort("Esc pressed")

    def _check(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.abort("the time budget ran out")
        if self._abort.is_set():
            raise Aborted(f"aborted: {self._reason}")

    def _check_pointer(self) -> None:
        """The pointer must be where we left it: otherwise someone else moved it."""
        self._check()
        now = self._position()
        if self._left_at is not None and now != self._left_at:
            self.abort(f"the mouse moved to {now} without the bot (left at {self._left_at})")
            self._check()

    def _wait(self, seconds: float) -> None:
        if seconds > 0 and self._abort.wait(seconds):
            self._check()
        self._check()

    def _position(self) -> tuple[int, int]:
        x, y = self._mouse.position
        return int(x), int(y)

    def _release_held(self) -> None:
        """No modifier may be down: Shift turns Tatham's fill into an erase, Alt into a mark."""
        kb = self._pynput.keyboard.Key
        for name in ("shift", "shift_r", "ctrl", "ctrl_r", "alt", "alt_r", "alt_gr",
                     "cmd", "cmd_r"):
            key = getattr(kb, name, None)
            if key is not None and _is_down(self._keyboard, key):
                self._keyboard.release(key)
                self.events += 1

    # -- acting -----------------------------------------------------------
    def _move(self, x: int, y: int) -> None:
        self._check()
        with self._ours_lock:
            self._ours.add((x, y))
        self._mouse.position = (x, y)
        self._left_at = (x, y)
        self.events += 1

    def _button(self, button: Button) -> Any:
        return getattr(self._pynput.mouse.Button, button.value)

    def perform(self, gestures: Sequence[Gesture]) -> None:
        """Every gesture in order; checks the whole batch against the board first."""
        if self._mouse is None:
            raise RuntimeError("InputDriver.perform before start()")
        if not self._armed:
            self.arm()
        check_inside(gestures, self.bounds)
        for g in gestures:
            self._check_pointer()
            check_inside([g], self.bounds)
            if isinstance(g, Click):
                self._click(g)
            elif isinstance(g, Drag):
                self._drag(g)
            elif isinstance(g, Move):
                self._park(g)
            elif isinstance(g, Dismiss):
                self._dismiss()
            else:
                self._key(g)
            self.gestures += 1
            self._wait(self.pace.gesture)

    def _click(self, g: Click) -> None:
        self._move(g.x, g.y)
        self._wait(self.pace.click)
        button = self._button(g.button)
        self._mouse.press(button)
        self.events += 1
        try:
            self._wait(self.pace.hold)
        finally:
            self._mouse.release(button)
            self.events += 1

    def _drag(self, g: Drag) -> None:
        self._move(g.x0, g.y0)
        self._wait(self.pace.click)
        button = self._button(g.button)
        self._mouse.press(button)
        self.events += 1
        try:
            for x, y in g.waypoints():
                self._wait(self.pace.motion)
                self._check_pointer()
                self._move(x, y)
            self._wait(self.pace.motion if self.pace.release is None else self.pace.release)
        finally:
            # Never leave a button down, even when aborting mid-drag.
            self._mouse.release(button)
            self.events += 1

    def _park(self, g: Move) -> None:
        if self.reach is None or not self.reach.contains(g.x, g.y):
            raise InputError(f"refusing to move the pointer to ({g.x}, {g.y}): outside the "
                             "window being played")
        self._move(g.x, g.y)
        self._wait(g.dwell)

    def _dismiss(self) -> None:
        self._check()
        esc = self._pynput.keyboard.Key.esc
        self._own_esc_until = time.monotonic() + 1.0
        self._keyboard.press(esc)
        self._keyboard.release(esc)
        self.events += 2

    def _key(self, g: Key) -> None:
        self._check()
        kb = self._pynput.keyboard
        key = getattr(kb.Key, g.name, None) if len(g.name) > 1 else g.name
        if key is None:
            raise InputError(f"unknown key name {g.name!r}")
        self._keyboard.press(key)
        self._keyboard.release(key)
        self.events += 2


def _end_recording(listener: Any) -> bool:
    """Ends an X listener's recording from its stopping connection (flushed, so the
    blocked recording thread returns at once); whether that could be done."""
    stop, context = getattr(listener, "_display_stop", None), getattr(listener, "_context", None)
    if stop is None or context is None:
        return False
    try:
        stop.record_disable_context(context)
        stop.flush()
    except Exception:  # a closed connection: the thread has ended already
        return True
    return True


def _is_down(keyboard: Any, key: Any) -> bool:
    """Whether the X server thinks `key` is down (only checked on X; elsewhere False)."""
    display = getattr(keyboard, "_display", None)
    if display is None:
        return False
    try:
        code = keyboard._display.keysym_to_keycode(key.value.vk)
        keymap = display.query_keymap()
    except Exception:  # a backend without these: nothing we can check
        return False
    return bool(code) and bool(keymap[code // 8] & (1 << (code % 8)))
