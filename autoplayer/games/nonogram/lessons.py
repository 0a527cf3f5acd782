"""What a batch teaches: a board's looks under a kept profile's rules, and whether the
game merges pointer motions.

Pure: the rules or looks, the batch's record and what the board showed after it in;
what to keep (and a line for each thing learned) out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from autoplayer.games.nonogram.judge import Batch
from autoplayer.games.nonogram.looks import Looks, distance, look_distance
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.games.nonogram.planner import Stroke
from autoplayer.games.nonogram.rules import Rules, button_names
from autoplayer.geometry import Button

MERGED_SHARE = 0.5
"""Share of the cells between drag ends missed that shows a game merging motions
systematically, not now and then."""
SLOW_MOTION = 0.04
MAX_MOTION = 0.1
"""Seconds between a drag's motions in a game seen to merge them (at least, and at most)."""


def drag_lessons(rules: Rules, batch: Batch, strokes: Sequence[Stroke], shown: np.ndarray
                 ) -> tuple[Rules, list[str]]:
    """Drags of the last batch that missed cells after their press.

    With the filling button (the one the experiment dragged with), in a game that
    acts on each cell entered, ends filled and cells between missed mean the game
    merged motions that came close together. Now and then (a busy browser, within
    one frame) the next batch repairs the few cells missed, cheaper than slower
    drags; where half the cells between were missed, the game merges systematically,
    and its drags get their motions further apart from now on.

    With another button (never dragged in the experiment), half the cells after the
    press missed (the experiment saw the filling button's drags work) means its drags
    are not to be relied on (a game that paints with one button only; the bundled
    page in Chromium, whose right drags after a batch of left ones lost every motion
    but the last): it is clicked cell by cell from now on, as clicks are never
    merged. Both are kept in the game's profile."""
    notes: list[str] = []
    if rules.drag not in ("line", "enter"):
        return rules, notes
    filling = rules.button_to(UNKNOWN, FILLED)

    def missed_in(cells: list[tuple[int, int]]) -> int:
        return sum(1 for c in cells if shown[c] == batch.shown_before[c]
                   and batch.expected.get(c) != shown[c])

    between = missed = 0
    per_button: dict[Button, list[int]] = {}
    for stroke in strokes:
        cells = stroke.cells()
        if len(cells) < 3 or shown[cells[0]] != batch.expected.get(cells[0]):
            continue  # a click, or the press itself not taken: no news of drags
        if stroke.button is not filling:
            tally = per_button.setdefault(stroke.button, [0, 0])
            tally[0] += len(cells) - 1
            tally[1] += missed_in(cells[1:])
        elif rules.drag == "enter" and shown[cells[-1]] == batch.expected.get(cells[-1]):
            between += len(cells) - 2
            missed += missed_in(cells[1:-1])
    dropped = frozenset(b for b, (n, m) in per_button.items() if m >= MERGED_SHARE * n)
    if dropped - rules.click_only:
        rules = replace(rules, click_only=rules.click_only | dropped)
        tried, lost = (sum(per_button[b][i] for b in dropped) for i in (0, 1))
        notes.append(
            f"drags with {', '.join(button_names(dropped))} missed {lost} of {tried} "
            "cells after their press: that button is clicked cell by cell")
    if between and missed >= MERGED_SHARE * between and rules.motion < MAX_MOTION:
        slower = min(MAX_MOTION, max(2 * rules.motion, SLOW_MOTION))
        rules = replace(rules, motion=slower)
        notes.append(f"drags missed {missed} of {between} cells between their "
                             f"ends: motions {slower * 1000:.0f} ms apart")
    return rules, notes


def adopt_looks(looks: Looks, batch: Batch, now: np.ndarray) -> Looks:
    """With rules from a profile, the first batch teaches this board's looks: the cells
    it filled (marked) all show one new look."""
    for state in (FILLED, EMPTY):
        cells = [cell for cell, want in batch.expected.items() if want == state]
        if looks.knows(state) or not cells:
            continue
        picked = np.array([now[cell] for cell in cells])
        moved = looks.changed(picked, np.array([batch.before[cell] for cell in cells]))
        # Changed beyond the board's noise, as the experiment judges a press: not by
        # how far blank lies from the looks known (with a dark fill known, that would
        # take a thin cross or a light fill for blank, and the next batch would press
        # those cells again).
        drawn = picked[moved]
        if len(drawn) * 2 < len(cells):
            continue  # not drawn yet (or not at all: check() will say)
        # The drawn cell nearest their median: a real look, not a blend of crosses
        # drawn a pixel apart.
        look = drawn[int(np.argmin(distance(drawn, np.median(drawn, axis=0))))]
        if (look_distance(drawn, look) <= looks.change).mean() >= 0.5:
            looks = looks.with_look(state, look)
    return looks
