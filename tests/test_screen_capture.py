"""Capture and gesture coordinate maths: frame pixels <-> screen points, clamping, regions."""

from __future__ import annotations

import numpy as np
import pytest

from autoplayer.errors import InputError, UserError
from autoplayer.geometry import Button, Click, Drag, Key, Rect, points, to_screen
from autoplayer.screen.capture import Frame, bgra_to_rgb, clamp, parse_region
from autoplayer.screen.input import check_inside


def frame(w: int = 100, h: int = 50, origin: tuple[int, int] = (0, 0), scale: float = 1.0):
    return Frame(np.zeros((h, w, 3), dtype=np.uint8), origin, scale)


def test_clamp_cuts_regions_to_the_root() -> None:
    root = Rect(0, 0, 1920, 1080)
    assert clamp(Rect(10, 10, 100, 100), root) == Rect(10, 10, 100, 100)
    assert clamp(Rect(-50, 1000, 200, 200), root) == Rect(0, 1000, 150, 80)
    assert clamp(Rect(1900, -10, 100, 30), root) == Rect(1900, 0, 20, 20)
    assert clamp(Rect(2000, 0, 10, 10), root) is None
    assert clamp(Rect(0, 1080, 10, 10), root) is None
    # A second monitor left of the first: negative coordinates are real screen space.
    both = Rect(-1280, 0, 3200, 1080)
    assert clamp(Rect(-1300, 5, 100, 10), both) == Rect(-1280, 5, 80, 10)


def test_frame_points_map_to_screen_points_with_origin_and_scale() -> None:
    f = frame(origin=(300, 200))
    assert f.to_screen(0, 0) == (300, 200)
    assert f.to_screen(10, 5) == (310, 205)
    assert f.rect_to_screen(Rect(10, 5, 20, 10)) == Rect(310, 205, 20, 10)
    # Captured at 2 pixels a screen unit (HiDPI): frame pixel 10 is 5 units in.
    hi = frame(200, 100, origin=(300, 200), scale=2.0)
    assert hi.to_screen(10, 6) == (305, 203)
    assert hi.rect_to_screen(Rect(11, 0, 20, 10)) == Rect(306, 200, 9, 5)
    assert to_screen(Click(10, 6), hi.origin, hi.scale) == Click(305, 203)
    assert to_screen(Drag(0, 0, 40, 0, Button.RIGHT, 3), (1, 2), 2.0) == Drag(
        1, 2, 21, 2, Button.RIGHT, 3)
    assert to_screen(Key("left"), (5, 5)) == Key("left")


def test_crop_keeps_screen_positions() -> None:
    f = Frame(np.arange(50 * 100 * 3, dtype=np.uint8).reshape(50, 100, 3), (300, 200))
    part = f.crop(Rect(90, 40, 30, 30))
    assert part.pixels.shape == (10, 10, 3)
    assert part.origin == (390, 240)
    assert (part.pixels == f.pixels[40:, 90:]).all()
    with pytest.raises(InputError, match="outside the frame"):
        f.crop(Rect(100, 0, 5, 5))


def test_bgra_becomes_contiguous_rgb() -> None:
    bgra = np.array([[[1, 2, 3, 255], [4, 5, 6, 255]]], dtype=np.uint8)
    rgb = bgra_to_rgb(bgra)
    assert rgb.tolist() == [[[3, 2, 1], [6, 5, 4]]]
    assert rgb.flags["C_CONTIGUOUS"]


def test_parse_region() -> None:
    assert parse_region("1,2,30,40") == Rect(1, 2, 30, 40)
    assert parse_region("-100,0,10,10") == Rect(-100, 0, 10, 10)
    for bad in ("1,2,3", "a,b,c,d", "1,2,0,5"):
        with pytest.raises(UserError):
            parse_region(bad)


def test_drag_waypoints_end_at_the_target() -> None:
    assert Drag(0, 0, 90, 0, steps=3).waypoints() == [(30, 0), (60, 0), (90, 0)]
    assert Drag(5, 5, 5, 50).waypoints() == [(5, 50)]
    assert points(Drag(0, 10, 0, 40, steps=2)) == [(0, 10), (0, 25), (0, 40)]
    assert points(Key("a")) == []


def test_bound_check_covers_every_point_of_every_gesture() -> None:
    board = Rect(100, 100, 50, 50)
    check_inside([Click(100, 100), Click(149, 149), Drag(100, 120, 149, 120, steps=5)], board)
    for outside in (Click(150, 120), Click(99, 120), Click(120, 150),
                    Drag(120, 120, 120, 150), Drag(99, 120, 140, 120)):
        with pytest.raises(InputError, match="outside the board"):
            check_inside([Click(120, 120), outside], board)
