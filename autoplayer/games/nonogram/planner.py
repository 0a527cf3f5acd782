"""Nonogram planning: the strokes that turn what the screen shows into the solution.

Pure functions. A game's mouse rules are data (`Profile.press`: what a button
does to a cell in each state), so one planner serves games that toggle and
games that set, and it never presses a cell that already shows what we want.

Fewest gestures: the cells needing the same action are cut into straight runs,
longest first, and each run is one drag (where the game takes drags) or one
click. A run never passes over a cell outside its group, so a drag changes
exactly the cells it should whatever the game does to the cells it crosses.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.geometry import Button, Click, Drag, Gesture

Cell = tuple[int, int]


@dataclass(frozen=True)
class Stroke:
    """One move in game terms: press `button` on cells (r0, c0)..(r1, c1) of one row or column."""

    button: Button
    r0: int
    c0: int
    r1: int
    c1: int

    def cells(self) -> list[Cell]:
        if self.r0 == self.r1:
            step = 1 if self.c1 >= self.c0 else -1
            return [(self.r0, c) for c in range(self.c0, self.c1 + step, step)]
        step = 1 if self.r1 >= self.r0 else -1
        return [(r, self.c0) for r in range(self.r0, self.r1 + step, step)]

    def __len__(self) -> int:
        return abs(self.r1 - self.r0) + abs(self.c1 - self.c0) + 1


@dataclass(frozen=True)
class Profile:
    """How one nonogram game takes input."""

    name: str
    press: Mapping[tuple[int, Button], int]
    """(state shown, button pressed) -> the state the cell then shows."""
    drags: bool = True
    """A drag applies its button to every cell of a straight run."""
    drag_each_cell: bool = False
    """The game acts on every cell the pointer enters (a motion a cell); otherwise only
    the press and the last motion count (Tatham's games)."""
    mark_empty: bool = False
    """Finished means every cell decided: the empty ones must show EMPTY (Tatham's Pattern)."""
    click_only: frozenset[Button] = frozenset()
    """Buttons whose drags the game does not take (its drags work with another button):
    their runs are clicked cell by cell."""

    def drags_with(self, button: Button) -> bool:
        return self.drags and button not in self.click_only


def wanted(solution_cell: int, profile: Profile) -> frozenset[int]:
    """The states a cell may show when the puzzle is done."""
    if solution_cell == FILLED:
        return frozenset({FILLED})
    if profile.mark_empty:
        return frozenset({EMPTY})
    return frozenset({EMPTY, UNKNOWN})


def presses(shown: int, goal: frozenset[int], profile: Profile) -> tuple[tuple[int, Button], ...]:
    """The shortest (state before, button) sequence taking `shown` into `goal`; () if there."""
    frontier: list[tuple[int, tuple[tuple[int, Button], ...]]] = [(shown, ())]
    seen = {shown}
    while frontier:
        nxt = []
        for state, path in frontier:
            if state in goal:
                return path
            for (before, button), after in profile.press.items():
                if before == state and after not in seen:
                    seen.add(after)
                    nxt.append((after, (*path, (state, button))))
        frontier = nxt
    raise ValueError(f"{profile.name}: no button sequence turns state {shown} into {set(goal)}")


def plan(shown: np.ndarray, solution: np.ndarray, profile: Profile) -> list[Stroke]:
    """Strokes, in order, taking the cells `shown` into `solution`; only wrong cells are pressed."""
    if shown.shape != solution.shape:
        raise ValueError(f"shown grid {shown.shape} and solution {solution.shape} differ")
    layers: list[dict[tuple[int, Button], set[Cell]]] = []
    for (r, c), have in np.ndenumerate(shown):
        path = presses(int(have), wanted(int(solution[r, c]), profile), profile)
        for depth, step in enumerate(path):
            while len(layers) <= depth:
                layers.append({})
            layers[depth].setdefault(step, set()).add((r, c))
    strokes: list[Stroke] = []
    for layer in layers:
        for (_, button), cells in sorted(layer.items(), key=lambda kv: (kv[0][0], kv[0][1].value)):
            runs = (partition(cells) if profile.drags_with(button)
                    else [(r, c, r, c) for r, c in sorted(cells)])
            strokes.extend(Stroke(button, *run) for run in runs)
    return strokes


def partition(cells: Iterable[Cell]) -> list[tuple[int, int, int, int]]:
    """Cut cells into straight runs of adjacent cells, longest first: (r0, c0, r1, c1) each.

    Greedy: take the longest run of remaining cells in any row or column, remove
    it, repeat. Runs are re-scanned lazily when a removal splits them.
    """
    remaining = set(cells)
    heap: list[tuple[int, int, int, int, int]] = []  # (-length, axis, line, start, end)

    def line_cell(axis: int, line: int, pos: int) -> Cell:
        return (line, pos) if axis == 0 else (pos, line)

    def push_runs(axis: int, line: int, positions: Iterable[int]) -> None:
        start = prev = None
        for pos in sorted(positions):
            if start is not None and pos == prev + 1:
                prev = pos
                continue
            if start is not None:
                heapq.heappush(heap, (start - prev - 1, axis, line, start, prev))
            start = prev = pos
        if start is not None:
            heapq.heappush(heap, (start - prev - 1, axis, line, start, prev))

    rows: dict[int, list[int]] = {}
    cols: dict[int, list[int]] = {}
    for r, c in remaining:
        rows.setdefault(r, []).append(c)
        cols.setdefault(c, []).append(r)
    for r, cs in rows.items():
        push_runs(0, r, cs)
    for c, rs in cols.items():
        push_runs(1, c, rs)

    runs = []
    while heap:
        _, axis, line, start, end = heapq.heappop(heap)
        span = [line_cell(axis, line, p) for p in range(start, end + 1)]
        left = [p for p, cell in zip(range(start, end + 1), span, strict=True) if cell in remaining]
        if len(left) == len(span):
            remaining.difference_update(span)
            (r0, c0), (r1, c1) = span[0], span[-1]
            runs.append((r0, c0, r1, c1))
        elif left:
            push_runs(axis, line, left)
    return runs


def gestures(
    strokes: Sequence[Stroke], xs: Sequence[float], ys: Sequence[float], profile: Profile
) -> list[Gesture]:
    """Strokes as pointer gestures aimed at cell centres (`xs[c]`, `ys[r]`, frame pixels)."""
    out: list[Gesture] = []
    for s in strokes:
        x0, y0 = round(xs[s.c0]), round(ys[s.r0])
        if len(s) == 1 or not profile.drags_with(s.button):
            out.extend(Click(round(xs[c]), round(ys[r]), s.button) for r, c in s.cells())
            continue
        x1, y1 = round(xs[s.c1]), round(ys[s.r1])
        steps = len(s) - 1 if profile.drag_each_cell else 1
        out.append(Drag(x0, y0, x1, y1, s.button, steps))
    return out
