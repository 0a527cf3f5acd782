"""How a nonogram game draws its cells, learned on the board from the bot's own presses.

Darkness says nothing about a third-party game: fills may be light blue, marks
a grey square, an X picture or a dot. So each cell is sampled as a small
colour picture (`samples`: its interior, pixel for pixel), and
a cell's state is the nearest of the looks the bot has *seen its presses
make*: its own look before any press (blank), and the looks that pressing
made on cells whose meaning the experiment fixed (filled, marked). A cell
near none of them is unexplained, and the bot stops rather than guess.

Hover tints: games tint the row and column under the pointer, some even when
the pointer has left the board (the last cell entered stays lit). The bot
parks the pointer through one fixed cell, so the tint always falls on the same
row and column; their cells' blank looks are fitted as a blend of the common
blank look towards white or black (`Tint`), and learned looks are compared
through the same blend there. Pure functions of pixels and arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from autoplayer.games.nonogram.model import UNKNOWN
from autoplayer.vision.grid import Grid

SHIFT = 1
"""Pixels a learned look may sit off from a cell's sample (cells differ by a pixel where
thick lines run; a thin cross drawn a pixel over is the same cross)."""
UNEXPLAINED = -2
"""A cell that looks like nothing the bot has seen its presses make."""
MIN_TOLERANCE = 6.0
"""Mean per-channel difference (0..255) below which two samples are the same look."""
SHARE_OF_SEPARATION = 0.35
"""A cell belongs to a look when nearer to it than this share of the distance between
that look and the nearest other one."""
MIN_SIDE = 6
"""Cells narrower than this (px) cannot be sampled into blocks."""



def samples(pixels: np.ndarray, grid: Grid) -> np.ndarray:
    """H×W×K×K×3: every cell's interior, cut to the smallest interior's size.

    An eighth of the cell is left out at each side (grid lines, cursor outlines);
    all cells are cut alike, so this is one gather.
    """
    side = min(min(b - a for a, b in grid.xs), min(b - a for a, b in grid.ys))
    if side < MIN_SIDE:
        raise ValueError(f"cells of {side} px are too small to tell their looks apart")
    inset = max(1, round(side / 8))
    k = side - 2 * inset
    ys = np.array([a + inset for a, _ in grid.ys])[:, None] + np.arange(k)
    xs = np.array([a + inset for a, _ in grid.xs])[:, None] + np.arange(k)
    rgb = pixels[..., :3]
    patches = rgb[ys[:, None, :, None], xs[None, :, None, :]]
    return patches.astype(np.float32)


def distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Mean absolute difference over the last three axes (a cell's picture), broadcasting."""
    return np.abs(a - b).mean(axis=(-3, -2, -1))


PIXEL_CHANGE = 40.0
"""A pixel that moved this far (0..255, in its most changed channel) was redrawn."""
CHANGED_SHARE = 0.015
"""Share of a cell's sampled pixels that must be redrawn for the cell to have changed."""


def differs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether cell pictures differ in enough pixels to be a mark drawn (over noise and
    anti-aliasing, which move pixels by far less)."""
    moved = np.abs(a - b).max(axis=-1) > PIXEL_CHANGE
    return moved.mean(axis=(-2, -1)) >= CHANGED_SHARE


TEXTURED = 30.0
"""Spread (standard deviation, 0..255) of a look's pixels above which it is a texture or a
picture, whose phase may differ from cell to cell."""


def look_distance(now: np.ndarray, look: np.ndarray) -> np.ndarray:
    """`distance` to a learned look, allowing it to sit up to SHIFT pixels off; for a
    textured look (stripes fixed to the page run on from cell to cell, so each cell shows
    them at another phase) also the distance of the pixels' values regardless of where
    they sit (`texture_distance`), whichever is less."""
    k = look.shape[0]
    if k <= 2 * SHIFT + 2:
        best = distance(now, look)
    else:
        core = now[..., SHIFT:k - SHIFT, SHIFT:k - SHIFT, :]
        best = None
        for dy in range(-SHIFT, SHIFT + 1):
            for dx in range(-SHIFT, SHIFT + 1):
                d = distance(core, look[SHIFT + dy:k - SHIFT + dy,
                                        SHIFT + dx:k - SHIFT + dx, :])
                best = d if best is None else np.minimum(best, d)
    if float(look.std()) > TEXTURED:
        best = np.minimum(best, texture_distance(now, look))
    return best


def texture_distance(now: np.ndarray, look: np.ndarray) -> np.ndarray:
    """Mean difference of the cells' pixel values sorted per channel: the same texture at
    another phase is the same look."""
    k = look.shape[0]
    ours = np.sort(now.reshape(*now.shape[:-3], k * k, now.shape[-1]), axis=-2)
    theirs = np.sort(look.reshape(k * k, look.shape[-1]), axis=0)
    return np.abs(ours - theirs).mean(axis=(-2, -1))


@dataclass(frozen=True)
class Tint:
    """A cell drawn as `(1 - alpha) * look + alpha * towards` (a hover band)."""

    alpha: float
    towards: float

    def apply(self, look: np.ndarray) -> np.ndarray:
        return (1 - self.alpha) * look + self.alpha * self.towards


def _blend(look: np.ndarray, seen: np.ndarray, towards: float) -> float | None:
    """The least-squares alpha of `seen` as `look` blended towards `towards`."""
    span = towards - look
    usable = np.abs(span) > 2  # a near-white blank lit towards white still moves a bit
    if usable.sum() < span.size // 3:
        return None
    return float(((seen - look)[usable] * span[usable]).sum() / (span[usable] ** 2).sum())


def fit_tint(look: np.ndarray, seen: np.ndarray, tolerance: float, *,
             share: float = 1.0) -> Tint | None:
    """The blend of `look` towards white or black that draws `seen`, if one does (`look`
    and `seen` may be stacks of cells: one blend for all of them).

    With `share` below 1 the blend need draw only that share of the cells best: a box
    on the layer (a browser's alert on its scrim) may hide the rest."""
    best: tuple[float, Tint] | None = None
    for towards in (255.0, 0.0):
        alpha = _blend(look, seen, towards)
        if alpha is None:
            continue
        per = distance(Tint(alpha, towards).apply(look), seen)
        if share < 1.0:
            keep = per <= np.quantile(per, share)
            alpha = _blend(look[keep], seen[keep], towards)
            if alpha is None:
                continue
            per = distance(Tint(alpha, towards).apply(look), seen)
            per = per[per <= np.quantile(per, share)]
        if not 0.02 < alpha < 0.85:
            continue
        residual = float(np.mean(per))
        if residual <= tolerance and (best is None or residual < best[0]):
            best = (residual, Tint(alpha, towards))
    return None if best is None else best[1]


@dataclass(frozen=True)
class Looks:
    """What the bot knows of this board's cell looks."""

    reference: np.ndarray
    """H×W×F: every cell as first seen (with the pointer parked)."""
    blank: np.ndarray
    """H×W bool: cells blank at the reference (their own look is their blank look)."""
    blank_look: np.ndarray
    """F: the common blank look."""
    tolerance: float
    """Sample noise on this board: same look within this."""
    tints: dict[tuple[int, int], Tint] = field(default_factory=dict)
    """Cells drawn tinted at the reference (the parked pointer's row and column)."""
    learned: dict[int, np.ndarray] = field(default_factory=dict)
    """FILLED / EMPTY -> the look pressing made (F)."""

    def knows(self, state: int) -> bool:
        return state == UNKNOWN or state in self.learned

    def with_look(self, state: int, look: np.ndarray) -> Looks:
        return replace(self, learned={**self.learned, state: np.asarray(look, np.float32)})

    def through(self, tint: Tint) -> Looks:
        """These looks as seen through a layer over the whole board: `tint` on every look.
        (The hover band's learned looks are left untinted by the hover: a cell there that
        reads as nothing under the layer is hidden, not wrong.)"""
        return replace(self, reference=tint.apply(self.reference).astype(np.float32),
                       blank_look=tint.apply(self.blank_look).astype(np.float32), tints={},
                       learned={s: tint.apply(v).astype(np.float32)
                                for s, v in self.learned.items()})

    def predicted(self, before: np.ndarray, states: dict[tuple[int, int], int]) -> np.ndarray:
        """The board as `before` (H×W×F) with the cells in `states` drawn in the look
        their state shows (where that look is known)."""
        out = before.copy()
        for (r, c), state in states.items():
            if state == UNKNOWN:
                out[r, c] = self.reference[r, c] if self.blank[r, c] else self.blank_look
            elif state in self.learned:
                out[r, c] = self.learned[state]
        return out

    def separation(self, state: int) -> float:
        """Distance from `state`'s look to the nearest other look known."""
        looks = {UNKNOWN: self.blank_look, **self.learned}
        others = [float(distance(looks[state], v)) for s, v in looks.items() if s != state]
        return min(others) if others else 255.0

    @property
    def change(self) -> float:
        """A cell whose picture moved by more than this has changed (well above noise,
        well below any look a game draws)."""
        return max(2 * self.tolerance, 8.0)

    def changed(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether cell pictures differ: on average beyond the noise, or in a patch of
        pixels (a small dot or a thin cross moves the average little)."""
        return (distance(a, b) > self.change) | differs(a, b)

    def tolerance_for(self, state: int) -> float:
        return max(self.tolerance, MIN_TOLERANCE, SHARE_OF_SEPARATION * self.separation(state))

    def candidates(self, r: int, c: int) -> list[tuple[int, np.ndarray]]:
        """Every look cell (r, c) may show, as (state, sample), tinted where it is."""
        blank = self.reference[r, c] if self.blank[r, c] else self.blank_look
        out = [(UNKNOWN, blank)]
        tint = self.tints.get((r, c))
        for state, look in self.learned.items():
            out.append((state, look))
            if tint is not None:
                out.append((state, tint.apply(look)))
        return out

    def nearest(self, r: int, c: int, sample: np.ndarray) -> tuple[int, float]:
        """The state whose look is nearest the sample, and how near."""
        best = (UNEXPLAINED, float("inf"))
        for state, look in self.candidates(r, c):
            d = float(distance(sample, look) if state == UNKNOWN else look_distance(sample, look))
            if d < best[1]:
                best = (state, d)
        return best

    def classify(self, now: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """H×W states (UNEXPLAINED where no known look is near) and each one's distance."""
        h, w = now.shape[:2]
        states = np.full((h, w), UNEXPLAINED, np.int8)
        # The cell's own blank look and every learned look, all cells at once; then the
        # tinted row and column through their tint.
        blank = np.where(self.blank[..., None, None, None], self.reference, self.blank_look)
        names = [UNKNOWN, *self.learned]
        stack = np.stack([distance(now, blank)]
                         + [look_distance(now, self.learned[s]) for s in names[1:]])
        for (r, c), tint in self.tints.items():
            for i, s in enumerate(names[1:], 1):
                stack[i, r, c] = min(stack[i, r, c], float(look_distance(
                    now[r, c], tint.apply(self.learned[s]))))
        best = stack.argmin(axis=0)
        dists = np.take_along_axis(stack, best[None], axis=0)[0]
        limits = np.array([self.tolerance_for(s) for s in names])
        codes = np.array(names, np.int8)
        ok = dists <= limits[best]
        states[ok] = codes[best][ok]
        return states, dists


def reference_looks(now: np.ndarray, park: tuple[int, int] | None = None) -> Looks:
    """The board before the bot's input: the commonest look is blank.

    Cells in the parked pointer's row and column (`park`) that are the blank look
    blended towards white or black count as blank under a tint. Cells whose look
    is neither stay undecided until learned looks explain them.
    """
    h, w = now.shape[:2]
    flat = now.reshape(h * w, *now.shape[2:])
    look = np.median(flat, axis=0)
    spread = distance(flat, look)
    tolerance = max(MIN_TOLERANCE, 3.0 * float(np.median(spread)))
    for _ in range(3):  # settle on the blank cells' own median
        near = spread <= tolerance
        look = np.median(flat[near], axis=0)
        spread = distance(flat, look)
    noise = float(np.percentile(spread[spread <= tolerance], 90)) if (spread <= tolerance).any() \
        else 0.0
    tolerance = max(MIN_TOLERANCE, 2.0 * noise)
    blank = (spread <= tolerance).reshape(h, w)
    tints: dict[tuple[int, int], Tint] = {}
    if park is not None:
        pr, pc = park
        for r, c in {(pr, j) for j in range(w)} | {(i, pc) for i in range(h)}:
            if blank[r, c]:
                continue
            tint = fit_tint(look, now[r, c], tolerance)
            if tint is not None:
                tints[(r, c)] = tint
                blank[r, c] = True
    return Looks(reference=now.copy(), blank=blank, blank_look=look.astype(np.float32),
                 tolerance=tolerance, tints=tints)


def coverage(before: np.ndarray, after: np.ndarray, tolerance: float) -> float:
    """Share of a cell's pixels that a press changed: a fill changes most of the cell,
    a cross or a dot a few (a grey square, the whole cell: then the button decides)."""
    changed = np.abs(after - before).mean(axis=-1) > 2 * tolerance
    return float(changed.mean())
