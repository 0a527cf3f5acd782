"""The game's answer to the bot's last move: what changed beyond what that move should.

Before the move that completes the board, the loop has verified every other
cell on a settled capture. Whatever then changes beyond what the move itself
should change (a dialog, a dim over the page, a restyled board, a picture
replacing it, a check mark beside it, a flash, a window stacked over the game,
the window's title) is the game's answer, whatever it looks like: the bot
does not have to know how a game says "solved", only what its own move
should have drawn.

What a move should change is its cells (with a margin for their borders) and
the bands of rows and columns the pointer passed through (a game tints the
row, the column and their clues under the pointer). What a game redraws as it
is played, beside the cells (a miniature of the picture, a move counter, a
clock), is learned from the batches before the last one: the `Surroundings`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from autoplayer.geometry import Gesture, Move, Rect, points

if TYPE_CHECKING:
    from autoplayer.screen.capture import Cover, Frame

CHANGED = 40
"""A pixel changed when one of its channels moved this far (anti-aliasing and video noise
move far less; a dim, a box, a restyle far more)."""
MIN_PIXELS = 50
"""Changed pixels fewer than this are never an answer (a caret, a ticking digit)."""
CELL_SHARE = 0.5
"""...nor fewer than this share of one cell's area."""
CELL = 16
"""Pixels of a cell where no cell size is known (a change seen outside any batch)."""
WHOLE = 0.5
"""Share of the window beside the board that must change to be 'its whole window'."""


@dataclass(frozen=True)
class Answer:
    """What the game did beyond the bot's last move."""

    where: Rect
    """The changed pixels' bounding box, in frame pixels."""
    window_share: float
    """Share of the window beside the board that changed."""
    board_share: float
    """Share of the board that changed (beyond the move's own cells)."""
    lasting: bool
    """Still there when the watch ended (a flash is not)."""
    cover: str | None = None
    """The title of a window stacked over the game's, when that is the answer."""
    title: str | None = None
    """The window's new title, when the title changed."""

    def words(self) -> str:
        """The answer as the report says it ('a change over its whole window (...)')."""
        r = self.where
        box = f"x={r.x} y={r.y} w={r.w} h={r.h}"
        if self.cover is not None:
            what = f"a window over it ({self.cover!r})" if self.cover else "a window over it"
        elif self.window_share >= WHOLE:
            what = "a change over its whole window"
        elif self.board_share >= WHOLE:
            what = "a change over the board"
        elif self.board_share > 0:
            what = "a change over part of the board"
        elif self.title is not None:
            what = f"a new window title ({self.title!r})"
            return what
        else:
            what = "a change beside the board"
        parts = []
        if r.w and r.h:
            parts.append(f"{_share(self.board_share)} of the board, "
                         f"{_share(self.window_share)} of the window around it, at {box}")
        if not self.lasting:
            parts.append("gone again")
        if self.title:
            parts.append(f"the window's title is now {self.title!r}")
        return f"{what} ({'; '.join(parts)})" if parts else what

    def as_dict(self) -> dict[str, Any]:
        r = self.where
        return {"words": self.words(), "where": [r.x, r.y, r.w, r.h],
                "window_share": round(self.window_share, 4),
                "board_share": round(self.board_share, 4), "lasting": self.lasting,
                "cover": self.cover, "title": self.title}


def over_board(board: Rect, covers: Sequence[Cover] = ()) -> Answer:
    """An answer seen only as cells the bot did not press changing together (or a window
    over the game), not in pixels beside its moves."""
    return Answer(board, 0.0, 1.0, True, covers[0].title if covers else None)


def changed(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """H×W bool: pixels that changed (both pictures the same shape)."""
    diff = np.abs(before.astype(np.int16) - after.astype(np.int16))
    return diff.max(axis=2) > CHANGED


@dataclass(frozen=True)
class Effect:
    """Where a batch of moves should change the picture: `mask` (frame pixels)."""

    mask: np.ndarray
    cell: int
    """The cells' size in pixels (the least answer is half a cell's area)."""

    @property
    def least(self) -> int:
        return max(MIN_PIXELS, int(CELL_SHARE * self.cell * self.cell))


def effect(shape: tuple[int, ...], cells: Sequence[Rect], gestures: Sequence[Gesture]
           ) -> Effect:
    """The pixels a batch should change: its cells, with a margin for their borders, and
    the row and column bands through every point the pointer visited (hover tints of
    the row, the column and their clues), each a cell wide."""
    h, w = shape[:2]
    mask = np.zeros((h, w), bool)
    sizes = [min(r.w, r.h) for r in cells if r.w > 0 and r.h > 0]
    cell = int(np.median(sizes)) if sizes else CELL
    margin = max(2, cell // 4)
    for r in cells:
        mask[max(0, r.y - margin):max(0, r.bottom + margin),
             max(0, r.x - margin):max(0, r.right + margin)] = True
    half = cell // 2 + margin
    for g in gestures:
        spots = [(g.x, g.y)] if isinstance(g, Move) else points(g)
        for x, y in spots:
            mask[max(0, y - half):max(0, y + half + 1), :] = True
            mask[:, max(0, x - half):max(0, x + half + 1)] = True
    return Effect(mask, cell)


class Surroundings:
    """What the game redraws beside the cells as it is played (a miniature, a counter, a
    clock): learned from the batches before the last move, and never an answer."""

    def __init__(self) -> None:
        self.echo: np.ndarray | None = None

    def beyond(self, before: np.ndarray, after: np.ndarray, effect: Effect) -> np.ndarray:
        """Pixels that changed beyond what the moves should change and the game echoes."""
        out = changed(before, after) & ~effect.mask
        if self.echo is not None and self.echo.shape == out.shape:
            out &= ~self.echo
        return out

    def learn(self, before: np.ndarray, after: np.ndarray, effect: Effect) -> None:
        """Whatever changed beyond a batch that did not complete the board is the game's
        echo of play: each patch of it, as a box grown by half a cell, is left out from
        now on."""
        if before.shape != after.shape:
            return
        self.add(changed(before, after) & ~effect.mask, effect.cell)

    def add(self, pixels: np.ndarray, cell: int) -> None:
        if not pixels.any():
            return
        import cv2

        if self.echo is None or self.echo.shape != pixels.shape:
            self.echo = np.zeros(pixels.shape, bool)
        grow = max(2, cell // 2)
        kernel = np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)
        near = cv2.dilate(pixels.astype(np.uint8), kernel)
        count, _, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=8)
        for x, y, w, h, _ in stats[1:count]:
            self.echo[y:y + h, x:x + w] = True


@dataclass
class Watch:
    """The watch over the game after the last move: every capture compared with the
    settled one before it, beyond the move's effect and the game's echo."""

    reference: Frame
    effect: Effect
    surroundings: Surroundings
    board: Rect
    title: str | None = None
    seen: np.ndarray | None = None
    """Every pixel seen changed beyond, over the whole watch."""
    lasting: bool = False
    since: float | None = None
    """Seconds into the watch when an answer was first seen."""
    cover: str | None = None
    new_title: str | None = None

    def look(self, frame: Frame, waited: float, title: str | None = None) -> bool:
        """Takes one capture; whether it shows an answer."""
        ref = self.reference
        news = [c for c in frame.covers if not _known(c, ref.covers)]
        if news and self.cover is None:
            self.cover = news[0].title
        if title is not None and self.title is not None and title != self.title:
            self.new_title = title
        if frame.pixels.shape != ref.pixels.shape:
            # The window changed size: nothing the move could do to its cells.
            self.lasting = True
            self.seen = np.ones(frame.pixels.shape[:2], bool)
            self.since = waited if self.since is None else self.since
            return True
        beyond = self.surroundings.beyond(ref.pixels, frame.pixels, self.effect)
        now = int(beyond.sum()) >= self.effect.least or bool(news) or (
            self.new_title is not None)
        self.lasting = now
        if now:
            self.seen = beyond if self.seen is None or self.seen.shape != beyond.shape \
                else self.seen | beyond
            if self.since is None:
                self.since = waited
        return now

    def answer(self) -> Answer | None:
        if self.since is None or self.seen is None:
            return None
        seen = self.seen
        ys, xs = np.nonzero(seen)
        where = (Rect(int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1),
                      int(ys.max() - ys.min() + 1)) if len(xs) else Rect(0, 0, 0, 0))
        b = self.board
        inside = np.zeros(seen.shape, bool)
        inside[max(0, b.y):max(0, b.bottom), max(0, b.x):max(0, b.right)] = True
        free = ~self.effect.mask
        board_free = inside & free
        out_free = ~inside & free
        board_share = float(seen[board_free].mean()) if board_free.any() else 0.0
        window_share = float(seen[out_free].mean()) if out_free.any() else 0.0
        return Answer(where, window_share, board_share, self.lasting, self.cover,
                      self.new_title)


def _share(share: float) -> str:
    """A share in whole percent, a small one said so rather than rounded to nothing."""
    return "under 1%" if 0 < share < 0.005 else f"{share:.0%}"


def _known(cover: Cover, before: Sequence[Cover]) -> bool:
    return any(c.rect == cover.rect and c.title == cover.title for c in before)
