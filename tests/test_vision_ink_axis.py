"""Clue ink told from its grounds by its colour: the picture read along the ink's colour axis."""

from __future__ import annotations

import numpy as np
from shot_fixtures import read_exactly

from autoplayer.vision.ink_axis import _nearest_in_hull


def test_grey_ink_on_olive_bars_reads_exactly() -> None:
    # skin=bars theme=light size=7x11 cell=24 open-sans black italic, ink 3.3:1 grey over
    # bars of two olive shades (BENCH_SEED=9090 draw 92 of bench/bench_nonogram_looks.py,
    # cropped): in luminance the grey digits hardly stand out from the dark bars (12 levels),
    # along their colour axis by 32. Refused before as 'the clue ink hardly stands out'.
    read_exactly("bars-light-grey-ink-olive-bars-7x11-seed618979")


def test_blue_ink_over_a_grey_shadow_as_light_reads_exactly() -> None:
    # skin=pixel theme=dark size=21x5 cell=14, blue pixel digits over a grey drop shadow of
    # about their luminance (BENCH_SEED=9090 draw 71 of bench/bench_nonogram_looks.py,
    # cropped): in luminance a 6 and its shadow made one block, read as 1. Split in two by
    # colour, the blue ink is set apart from its shadow and the ground alike.
    read_exactly("pixel-dark-blue-ink-grey-shadow-21x5-seed335224")


def test_nearest_point_of_the_grounds_hull() -> None:
    # Two grounds on either side of the ink's grey axis: the widest margin lies between them.
    grounds = np.array([[-6.0, -28.0, 50.0], [-80.0, -101.0, -28.0]])
    axis = _nearest_in_hull(grounds)
    margin = np.linalg.norm(axis)
    assert 55 < margin < 58
    assert np.all(grounds @ (axis / margin) >= margin - 0.5)  # every ground that far along it
