"""Learning how a sliding-puzzle game takes input: a few watched presses on the board itself.

The experiment is a generator of `play.experiment.Press` (the mid-end sends
each one and waits until the game has drawn it, animations included); after
each press the board is read again and compared with what each rule predicts:
a click on a tile two cells from the gap slides the run, only the tile next to
the gap, or nothing; a click next to the gap slides it or not; an arrow key
moves the tile beside the gap into it its way, or the gap its way, or nothing.
A board that matches no prediction stops the bot (it cannot explain the game).
Keys are tried only when clicks slide nothing (clicks are what the bot plays
with when they work). The click next to the gap comes first: a game whose clicks
slide anything slides that tile, so when it does nothing no click does, and a
keys-only game costs one still press, not two. The keys are pressed on the axis where
one press tells their sense, and the other axis is taken to move the same way (the play
checks it). At most 5 presses: 1 or 2 clicks, then 1 or 2 keys per axis.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Mapping
from typing import TYPE_CHECKING

import cv2
import numpy as np

from autoplayer.errors import InputError
from autoplayer.games.fifteen.model import Board
from autoplayer.games.fifteen.rules import GAP_SENSE, TILE_SENSE, Input
from autoplayer.geometry import Click, Gesture, Key, Move, Rect
from autoplayer.play.experiment import Press, Seen
from autoplayer.vision.image import luminance

if TYPE_CHECKING:
    from autoplayer.games.fifteen.reader import FifteenReading
    from autoplayer.screen.capture import Frame

NOTHING = 0.45
"""A press that shows no change for this long did nothing (a slow browser draws a click
a frame or two late; a slide's animation starts at once)."""
SAMPLE = 6
"""Each cell's look: its luminance averaged down to SAMPLE x SAMPLE."""
CHANGE = 12.0
"""A cell whose sampled look moved this much (0..255) changed."""
RETRIES = 3
"""Extra waits for a board caught mid-slide before the experiment gives up."""


def cell_samples(pixels: np.ndarray, cells: tuple[Rect, ...]) -> np.ndarray:
    """Every cell's look, one row per cell."""
    lum = luminance(pixels)
    out = np.zeros((len(cells), SAMPLE * SAMPLE), np.float32)
    for i, r in enumerate(cells):
        patch = lum[max(r.y, 0):r.bottom, max(r.x, 0):r.right]
        if patch.size:
            out[i] = cv2.resize(patch.astype(np.float32), (SAMPLE, SAMPLE),
                                interpolation=cv2.INTER_AREA).ravel()
    return out


def moved(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    return np.abs(now - before).max(axis=1) > CHANGE


def park_route(board: Rect, pitch: float, shape: tuple[int, ...]) -> tuple[Move, ...]:
    """Off the board beyond a corner, inside the picture (a page lights the tile under the
    pointer)."""
    h, w = shape[:2]
    d = max(4, round(pitch / 2))
    for x, y in ((board.right + d, board.bottom + d), (board.right + d, board.y - d),
                 (board.x - d, board.bottom + d), (board.x - d, board.y - d)):
        if 0 <= x < w and 0 <= y < h:
            return (Move(int(x), int(y)),)
    return (Move(max(0, board.x - 2), max(0, board.y - 2)),)


def _line(board: Board, cell: int) -> tuple[str, int] | None:
    """The tile slide a click on `cell` would make by sliding the run, and the run's length
    (None: not in the gap's row or column)."""
    g, w = board.gap, board.width
    (gr, gc), (r, c) = divmod(g, w), divmod(cell, w)
    if cell == g or (gr != r and gc != c):
        return None
    if gr == r:
        return ("L" if c > gc else "R"), abs(c - gc)
    return ("U" if r > gr else "D"), abs(r - gr)


def learn(start: FifteenReading, first: Frame, read: Callable[[Frame], FifteenReading],
          assume: bool = True
          ) -> Generator[Press, Seen, tuple[Input, int, int, list[str], tuple[str, ...]]]:
    """The experiment; returns the rules, the presses it took, the tiles they slid, what
    each one showed and the arrows assumed (none, or one axis's). With `assume`, the arrows
    of the axis not pressed are taken to move the way the pressed axis's do, as a person
    would after one key: each press watched to the end of a slow slide costs a third of a
    second, and the play checks the assumption (`FifteenGame.misfit`)."""
    park = park_route(start.rect, start.grid.pitch, first.pixels.shape)
    cells = start.cells

    def sense(frame: Frame) -> np.ndarray:
        return cell_samples(frame.pixels, cells)

    state = {"board": start.board, "now": sense(first), "presses": 0, "slide": 0.0, "slid": 0}
    log: list[str] = []

    def press(gesture: Gesture, what: str, predictions: Mapping[str, Board]
              ) -> Generator[Press, Seen, str]:
        """One watched press; which prediction the board then shows."""
        began = time.monotonic()
        seen = yield Press((gesture,), park, sense, moved, state["now"], None, NOTHING)
        state["presses"] += 1
        reading = None
        for _ in range(RETRIES + 1):
            try:
                reading = read(seen.frame)
                break
            except InputError:  # caught mid-slide: wait for the board to settle again
                seen = yield Press((), park, sense, moved, seen.now, None, NOTHING)
        if reading is None:
            raise InputError(f"after {what} the board could not be read: the game is still "
                             "moving, or it shows something the bot cannot read",
                             region=_region(start.rect))
        took = time.monotonic() - began
        state["now"] = seen.now
        board: Board = state["board"]  # type: ignore[assignment]
        outcome = next((k for k, b in predictions.items() if b == reading.board), None)
        if outcome is None:
            raise InputError(f"{what} turned {board.spec()} into {reading.board.spec()}, "
                             "which no rule the bot knows explains (a slide of the run, of "
                             "the tile next to the gap, or nothing)", region=_region(start.rect))
        if reading.board != board:
            state["slide"] = max(float(state["slide"]), took)  # type: ignore[arg-type]
            state["slid"] = int(state["slid"]) + sum(  # type: ignore[call-overload]
                1 for a, b in zip(board.cells, reading.board.cells, strict=True) if a != b) - 1
        state["board"] = reading.board
        log.append(f"{what}: {outcome}")
        return outcome

    def click(cell: int) -> Click:
        x, y = start.centre(cell)
        return Click(x, y)

    def near_cell(board: Board) -> tuple[int, str]:
        m = board.legal_moves()[0]
        src = board.tile_to_move(m)
        assert src is not None
        return src, m

    def far_cell(board: Board) -> tuple[int, str, int] | None:
        best = None
        for cell in range(board.size):
            line = _line(board, cell)
            if line is not None and line[1] >= 2 and (best is None or line[1] < best[2]):
                best = (cell, line[0], line[1])
        return best

    def far_click() -> Generator[Press, Seen, str]:
        b: Board = state["board"]  # type: ignore[assignment]
        found = far_cell(b)
        if found is None:
            return "none"
        cell, m, k = found
        return (yield from press(click(cell), f"a click {k} cells from the gap",
                                 {"run": b.play(m * k), "one": b.play(m), "none": b}))

    def near_click() -> Generator[Press, Seen, bool]:
        b: Board = state["board"]  # type: ignore[assignment]
        cell, m = near_cell(b)
        return (yield from press(click(cell), "a click next to the gap",
                                 {"one": b.play(m), "none": b})) == "one"

    # The near click first: a game whose clicks slide anything slides the tile next to the
    # gap, so one that does nothing there takes no clicks (and the far click, another
    # press that shows nothing for NOTHING seconds, is spared on a keys-only game).
    near = yield from near_click()
    far = (yield from far_click()) if near else "none"

    keys: dict[str, str] = {}
    assumed: tuple[str, ...] = ()
    if not near:
        pairs = sorted(AXES, key=lambda pair: -_choices(pair, state["board"]))  # type: ignore[arg-type]
        found, guessed = yield from _axis(pairs[0], state, press, guess=assume)
        keys.update(found)
        if assume and any(keys.values()):
            sense = TILE_SENSE if all(keys[k] == TILE_SENSE[k] for k in pairs[0]) else GAP_SENSE
            keys.update((k, sense[k]) for k in pairs[1])
            assumed = (*pairs[0], *pairs[1]) if guessed else pairs[1]
            if guessed:
                log.append(f"the {' and '.join(pairs[0])} arrows: taken to move "
                           f"{'the tile into the gap' if sense is TILE_SENSE else 'the gap'}, "
                           "the sense left once the press did nothing")
            log.append(f"the {' and '.join(pairs[1])} arrows: taken to move as the "
                       f"{' and '.join(pairs[0])} arrows do")
        else:
            keys.update((yield from _axis(pairs[1], state, press))[0])
    rules = Input(near, far, keys, float(state["slide"]))  # type: ignore[arg-type]
    return (rules, int(state["presses"]), int(state["slid"]),  # type: ignore[call-overload]
            log, assumed)


AXES = (("left", "right"), ("up", "down"))
"""The arrow keys by axis, the order tried when either would tell as much."""


def _choices(pair: tuple[str, str], board: Board) -> int:
    """How many senses the axis's more telling key would slide a tile in: with 2, one press
    tells the sense; with 1, nothing happening may need the other key to tell."""
    legal = set(board.legal_moves())
    return max(sum(1 for s in (TILE_SENSE, GAP_SENSE) if s[k] in legal) for k in pair)


def _axis(pair: tuple[str, str], state: dict[str, object],
          press: Callable[[Gesture, str, Mapping[str, Board]], Generator[Press, Seen, str]],
          guess: bool = False) -> Generator[Press, Seen, tuple[dict[str, str], bool]]:
    """The sense of one axis's arrows, in one or two presses, and whether it was guessed.
    A key that could slide a tile in one sense only (the gap at the board's edge) and did
    nothing leaves the other sense; with `guess` that is taken without a second press (the
    play checks it: keys that do nothing at all fail the first batch that presses one)."""
    senses = {"tile": TILE_SENSE, "gap": GAP_SENSE}
    left = dict(senses)
    for _ in range(2):
        b: Board = state["board"]  # type: ignore[assignment]
        legal = set(b.legal_moves())

        def options(key: str, b: Board = b, legal: set[str] = legal) -> dict[str, Board]:
            return {name: b.play(s[key]) for name, s in left.items() if s[key] in legal}

        key = max(pair, key=lambda k: len(options(k)))
        predicted = options(key)
        if not predicted:
            break
        outcome = yield from press(Key(key), f"the {key} arrow", {**predicted, "none": b})
        if outcome != "none":
            return {k: senses[outcome][k] for k in pair}, False
        for name in predicted:
            left.pop(name)
        if not left:
            break
        if guess and len(left) == 1:
            (name, sense), = left.items()
            return {k: sense[k] for k in pair}, True
    return {k: "" for k in pair}, False


def _region(r: Rect) -> tuple[int, int, int, int]:
    return (r.x, r.y, r.w, r.h)
