"""Column clue numbers stand on lines: ink beyond them, off those lines, is page furniture.

A column's numbers are stacked from the board outwards, one per line, and every
column's lines are the same: a step apart, the first at one distance from the
board. A menu, a toolbar or a panel of ruled boxes above the clues stands at a
distance of its own, so it is told apart by that even when it is closer to the
clues than a blank that would end the band (`strips.band_end_gap`) and its
icons happen to stand near the columns' middles (`page_text.off_centre_line`).
"""

from __future__ import annotations

import numpy as np

from autoplayer.vision.glyphs import Blob
from autoplayer.vision.strips import Strip

OFF_LINE = 0.3
"""A group of ink whose near and far edges both stand further than this share of the step
from its line's stands off the lines (measured on the bundled game's random looks:
numbers at most 0.08 off, menus and toolbars above them 0.4 to 0.8)."""
SAME_STEP = 0.15
"""Steps between stacked numbers within this share of each other are one step."""
SUPPORT = 3
"""At least this many columns' steps from their first number to their second, and half
the columns' first numbers, must agree for the lines to be trusted; or every such step,
when only two columns hold a second number (a small board: each of its columns is as
likely as not to have one) and they agree."""
ONE_LINE = 1.3
"""A group at most this many times as tall as the first line's numbers stands on one line."""


def drop_off_lines(strips: list[Strip], side: str) -> list[Strip]:
    """Column strips without the ink beyond their numbers that stands off the lines of
    stacked numbers: each strip's groups from the board outwards up to the first one off
    its line (`side`: 'top' or 'bottom', where the column clues are)."""
    edges = [_edges(s, side) for s in strips]
    lines = _lines(edges)
    if lines is None:
        return strips
    near0, far0, step = lines
    out = []
    for strip, spans in zip(strips, edges, strict=True):
        keep, line = 0, 0
        for near, far in spans:
            edges = (abs(near - near0 - line * step), abs(far - far0 - line * step))
            # A group no taller than a line's numbers stands on one line with both edges
            # (one font's digits are one height); a taller one may span lines (numbers
            # touching), and one of its edges is enough.
            one_line = far - near <= ONE_LINE * (far0 - near0)
            off = max(edges) if one_line else min(edges)
            if off > OFF_LINE * step:
                break
            keep += 1
            line = max(line, round((far - far0) / step)) + 1  # a group may span lines
        if keep == len(spans):
            out.append(strip)
            continue
        kept = strip.groups[len(spans) - keep:] if side == "top" else strip.groups[:keep]
        out.append(Strip(strip.kind, strip.index, strip.box, tuple(kept)))
    return out


def _edges(strip: Strip, side: str) -> list[tuple[int, int]]:
    """Each group's near and far edge (distances from the board), from the board outwards."""
    out = []
    for group in strip.groups:
        y0, y1 = _extent(group)
        if side == "top":
            out.append((strip.box.bottom - y1, strip.box.bottom - y0))
        else:
            out.append((y0 - strip.box.y, y1 - strip.box.y))
    return out[::-1] if side == "top" else out


def _extent(group: tuple[Blob, ...]) -> tuple[int, int]:
    return min(b.box.y for b in group), max(b.box.bottom for b in group)


def _lines(edges: list[list[tuple[int, int]]]) -> tuple[float, float, float] | None:
    """The first line's near and far edge and the step between lines, when enough of the
    board agrees on them; else None."""
    firsts = [spans[0] for spans in edges if spans]
    # From the first number to the second: in most columns both are numbers, whatever
    # stands beyond them.
    steps = np.array([spans[1][0] - spans[0][0] for spans in edges if len(spans) > 1], float)
    steps = steps[steps > 0]
    if len(firsts) < 2 or steps.size < min(SUPPORT, 2):
        return None
    votes = [int((np.abs(steps - v) <= SAME_STEP * v).sum()) for v in steps]
    best = max(votes)
    if best < min(SUPPORT, steps.size):
        return None
    # The most common step (the smallest of equally common ones), averaged over its kind.
    mode = min(v for v, n in zip(steps, votes, strict=True) if n == best)
    step = float(np.median(steps[np.abs(steps - mode) <= SAME_STEP * mode]))
    near0 = float(np.median([a for a, _ in firsts]))
    far0 = float(np.median([b for _, b in firsts]))
    on = sum(abs(a - near0) <= OFF_LINE * step for a, _ in firsts)
    if 2 * on < len(firsts):
        return None
    return near0, far0, step
