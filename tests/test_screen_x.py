"""Window finding, capture and the input driver against a private Xvfb, with windows made here.

No browser: the windows are bare X windows created with python-xlib, which
record the pointer events they receive, so a test sees exactly what the
driver sent.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from desktop import needs_xvfb, xdotool

from autoplayer.errors import Aborted, InputError, UserError
from autoplayer.geometry import Button, Click, Drag, Key, Rect
from autoplayer.screen.xvfb import Xvfb

SCREEN = (800, 600)

pytestmark = needs_xvfb


class RecordingWindow:
    """A mapped X window with a title and class that records pointer events."""

    def __init__(self, display: str, rect: Rect, title: str, wm_class: tuple[str, str],
                 colour: int = 0x336699, parent: int | None = None) -> None:
        from Xlib import X
        from Xlib import display as xdisplay

        self.disp = xdisplay.Display(display)
        screen = self.disp.screen()
        holder = (screen.root if parent is None
                  else self.disp.create_resource_object("window", parent))
        self.win = holder.create_window(
            rect.x, rect.y, rect.w, rect.h, 0, screen.root_depth,
            background_pixel=colour, override_redirect=False,
            event_mask=(X.ButtonPressMask | X.ButtonReleaseMask | X.PointerMotionMask
                        | X.ExposureMask | X.KeyPressMask),
        )
        self.win.set_wm_name(title)
        self.win.set_wm_class(*wm_class)
        self.win.map()
        self.disp.sync()
        time.sleep(0.05)

    def events(self) -> list[tuple[str, int, int, int]]:
        """(kind, x, y, button) of every press, release and motion so far, in window pixels."""
        from Xlib import X

        self.disp.sync()
        time.sleep(0.05)
        out = []
        while self.disp.pending_events():
            e = self.disp.next_event()
            if e.type == X.ButtonPress:
                out.append(("press", e.event_x, e.event_y, e.detail))
            elif e.type == X.ButtonRelease:
                out.append(("release", e.event_x, e.event_y, e.detail))
            elif e.type == X.MotionNotify:
                out.append(("motion", e.event_x, e.event_y, 0))
            elif e.type == X.KeyPress:
                out.append(("key", e.event_x, e.event_y, e.detail))
        return out

    def close(self) -> None:
        from Xlib import error as xerror

        try:
            self.win.destroy()
            self.disp.sync()
        except xerror.XError:
            pass  # already gone with its parent
        self.disp.close()


@pytest.fixture
def make_window(xserver: Xvfb) -> Iterator[Any]:
    made: list[RecordingWindow] = []

    def make(rect: Rect, title: str = "Test board", wm_class: tuple[str, str] = ("tb", "Tb"),
             **kw: Any) -> RecordingWindow:
        w = RecordingWindow(xserver.display, rect, title, wm_class, **kw)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


# -- window finding ---------------------------------------------------------

def test_find_by_title_substring_exact_and_class(xserver: Xvfb, make_window: Any) -> None:
    from autoplayer.screen.window import find_window, open_display

    w = make_window(Rect(40, 30, 200, 150), "Nonogram 15x15 - autoplayer", ("nono", "Nono"))
    disp = open_display(xserver.display)
    found = find_window(disp, "nonogram 15x15")
    assert found.id == w.win.id
    assert found.rect == Rect(40, 30, 200, 150)
    assert found.viewable
    assert find_window(disp, "Nonogram 15x15 - autoplayer", exact=True).id == w.win.id
    assert find_window(disp, wm_class="Nono").id == w.win.id
    with pytest.raises(UserError, match=r"no window matches title = 'Nonogram'.*Nonogram 15x15"):
        find_window(disp, "Nonogram", exact=True)
    with pytest.raises(UserError, match="no window matches"):
        find_window(disp, "Nonogram", wm_class="other")


def test_several_matches_and_unmapped_are_clear_errors(xserver: Xvfb, make_window: Any) -> None:
    from autoplayer.screen.window import find_window, open_display

    make_window(Rect(0, 0, 50, 50), "Game one")
    make_window(Rect(60, 0, 50, 50), "Game two")
    disp = open_display(xserver.display)
    with pytest.raises(UserError, match="2 windows match title containing 'game'"):
        find_window(disp, "game")
    hidden = make_window(Rect(120, 0, 50, 50), "Hidden puzzle")
    hidden.win.unmap()
    hidden.disp.sync()
    with pytest.raises(UserError, match="not mapped"):
        find_window(disp, "hidden puzzle")


def test_client_inside_a_frame_is_chosen_and_covering_is_seen(
    xserver: Xvfb, make_window: Any
) -> None:
    """A reparenting window manager's frame carries the title too; the client is the answer."""
    from autoplayer.screen.window import check_visible, covering, find_window, locate, open_display

    frame = make_window(Rect(100, 100, 300, 250), "Pattern")
    client = make_window(Rect(5, 25, 290, 220), "Pattern", ("sgt-pattern", "Sgt-pattern"),
                         parent=frame.win.id)
    disp = open_display(xserver.display)
    found = find_window(disp, "Pattern", exact=True)
    assert found.id == client.win.id
    assert found.rect == Rect(105, 125, 290, 220)
    assert found.top_level == frame.win.id
    assert covering(disp, found) == []
    check_visible(disp, found)

    cover = make_window(Rect(350, 300, 100, 100), "Terminal")
    assert [c.id for c in covering(disp, found)] == [cover.win.id]
    with pytest.raises(UserError, match="covered by"):
        check_visible(disp, found)

    frame.win.configure(x=10, y=20)
    frame.disp.sync()
    assert locate(disp, client.win.id).rect == Rect(15, 45, 290, 220)


# -- capture ----------------------------------------------------------------

def test_capture_region_window_and_clamping(xserver: Xvfb, make_window: Any) -> None:
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.window import find_window, open_display

    make_window(Rect(100, 50, 40, 30), "Red", colour=0xFF0000)
    with Screen(xserver.display) as screen:
        assert screen.root() == Rect(0, 0, 800, 600)
        info = find_window(open_display(xserver.display), "Red")
        frame = screen.grab_window(info)
        assert frame.pixels.shape == (30, 40, 3) and frame.pixels.dtype == np.uint8
        assert (frame.pixels == [255, 0, 0]).all()
        assert frame.origin == (100, 50) and frame.scale == 1.0

        # A region hanging off the screen is cut to it; the origin stays true.
        edge = screen.grab(Rect(780, 590, 50, 50))
        assert edge.pixels.shape == (10, 20, 3) and edge.origin == (780, 590)
        with pytest.raises(UserError, match="off the screen"):
            screen.grab(Rect(900, 0, 10, 10))

        # Frame pixel -> screen point agrees with where the window is.
        whole = screen.grab_monitor(1)
        assert whole.to_screen(120, 60) == (120, 60)
        inner = whole.crop(Rect(100, 50, 40, 30))
        assert inner.origin == (100, 50)
        assert (inner.pixels == frame.pixels).all()
        with pytest.raises(UserError, match="monitor 5 does not exist"):
            screen.grab_monitor(5)


# -- input ------------------------------------------------------------------

def test_clicks_and_drags_land_where_asked(xserver: Xvfb, make_window: Any) -> None:
    from autoplayer.screen.input import InputDriver, Pace

    w = make_window(Rect(100, 100, 300, 200))
    board = Rect(100, 100, 300, 200)
    with InputDriver(board, Pace(motion=0.005)) as drv:
        drv.perform([
            Click(150, 120),
            Click(160, 130, Button.RIGHT),
            Drag(110, 150, 390, 150, Button.LEFT, steps=4),
        ])
        assert drv.gestures == 3
    ev = w.events()
    presses = [e for e in ev if e[0] in ("press", "release")]
    assert presses == [
        ("press", 50, 20, 1), ("release", 50, 20, 1),
        ("press", 60, 30, 3), ("release", 60, 30, 3),
        ("press", 10, 50, 1), ("release", 290, 50, 1),
    ]
    drag = ev[ev.index(("press", 10, 50, 1)):ev.index(("release", 290, 50, 1))]
    assert [(x, y) for kind, x, y, _ in drag if kind == "motion"] == [
        (80, 50), (150, 50), (220, 50), (290, 50)]


def test_stopping_the_driver_sends_the_game_no_key(xserver: Xvfb, make_window: Any) -> None:
    """The listeners are stopped without a key reaching the focused window: after the
    last move the game may have answered, and nothing more may reach it."""
    from Xlib import X

    from autoplayer.screen.input import InputDriver, Pace

    w = make_window(Rect(100, 100, 300, 200))
    w.win.set_input_focus(X.RevertToParent, X.CurrentTime)
    w.disp.sync()
    started = time.monotonic()
    with InputDriver(Rect(100, 100, 300, 200), Pace(motion=0.005)) as drv:
        drv.perform([Click(150, 150)])
    assert time.monotonic() - started < 1.5  # the listeners ended without waiting out joins
    events = w.events()
    assert ("press", 50, 50, 1) in events
    assert [e for e in events if e[0] == "key"] == []


def test_gesture_outside_the_board_is_refused_before_any_input(
    xserver: Xvfb, make_window: Any
) -> None:
    from autoplayer.screen.input import InputDriver

    w = make_window(Rect(100, 100, 300, 200))
    with InputDriver(Rect(100, 100, 300, 200)) as drv:
        with pytest.raises(InputError, match=r"refusing input at \(400, 150\)"):
            drv.perform([Click(150, 150), Drag(150, 150, 400, 150)])
        with pytest.raises(InputError, match="outside"):
            drv.perform([Click(99, 150)])
        with pytest.raises(InputError, match="abort key"):
            drv.perform([Key("esc")])
        assert drv.events == 0
    assert [e for e in w.events() if e[0] != "motion"] == []


def test_pointer_moved_by_someone_else_aborts(xserver: Xvfb, make_window: Any) -> None:
    from autoplayer.screen.input import InputDriver, Pace

    w = make_window(Rect(0, 0, 400, 300))
    clicks = [Click(20 + 10 * i, 50) for i in range(30)]
    with InputDriver(Rect(0, 0, 400, 300), Pace(gesture=0.05)) as drv:
        mover = threading.Timer(0.4, xdotool, (xserver.display, "mousemove", "300", "250"))
        mover.start()
        with pytest.raises(Aborted, match="mouse moved"):
            drv.perform(clicks)
        mover.join()
        sent = drv.gestures
    presses = [e for e in w.events() if e[0] == "press"]
    assert 0 < sent < len(clicks)
    assert len(presses) == sent
    # Nothing after the foreign move: every press is one the driver made before it.
    assert all(y == 50 for _, _, y, _ in presses)


def test_esc_and_time_budget_abort(xserver: Xvfb, make_window: Any) -> None:
    from autoplayer.screen.input import InputDriver, Pace

    make_window(Rect(0, 0, 400, 300))
    clicks = [Click(20 + 10 * i, 50) for i in range(30)]
    with InputDriver(Rect(0, 0, 400, 300), Pace(gesture=0.05)) as drv:
        threading.Timer(0.3, xdotool, (xserver.display, "key", "Escape")).start()
        with pytest.raises(Aborted, match="Esc"):
            drv.perform(clicks)
    with InputDriver(Rect(0, 0, 400, 300), Pace(gesture=0.05)) as drv:
        # The budget starts once the listeners are up: starting them can take
        # longer than 0.3 s on a loaded machine, which left no gesture inside it.
        drv.deadline = time.monotonic() + 0.3
        with pytest.raises(Aborted, match="time budget"):
            drv.perform(clicks)
        assert 0 < drv.gestures < len(clicks)


def test_held_modifier_is_released_before_input(xserver: Xvfb, make_window: Any) -> None:
    """Shift held while clicking would turn Tatham's fills into erases."""
    from autoplayer.screen.input import InputDriver

    w = make_window(Rect(0, 0, 200, 200))
    xdotool(xserver.display, "keydown", "shift")
    with InputDriver(Rect(0, 0, 200, 200)) as drv:
        drv.perform([Click(10, 10)])
    press = [e for e in w.events() if e[0] == "press"]
    assert len(press) == 1
    from Xlib import X
    from Xlib import display as xdisplay

    d = xdisplay.Display(xserver.display)
    assert not d.screen().root.query_pointer().mask & X.ShiftMask
    d.close()
