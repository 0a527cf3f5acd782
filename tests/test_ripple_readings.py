"""The Ripple reader's decisions on made-up cell readings (no browser, no pixels to read).

The cells the state machines and each fallback template set would read are
given by hand, so the situations the rules exist for can be built exactly:
a fallback set that contradicts a digit the state machines were sure of, on
a board that the contradiction turns from several solutions into one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from autoplayer.errors import InputError
from autoplayer.games.ripple import reader
from autoplayer.games.ripple.board import Lattice, Rooms
from autoplayer.games.ripple.model import Puzzle
from autoplayer.games.ripple.reader import (
    CellValue,
    NoUniqueSolution,
    UnreadableDigits,
    read_ripple,
    unique_solution,
)
from autoplayer.games.ripple.solver import solve
from autoplayer.geometry import Rect, astuple
from autoplayer.vision.glyphs import Glyph
from autoplayer.vision.numbers import ClueNumber, DigitReading
from autoplayer.vision.templates import TemplateSet

ROOMS = [[0, 0, 1, 1], [2, 2, 1, 1]]
"""Two rooms of two cells on the left, one of four on the right: eight solutions when empty."""
PITCH = 40
SURE, UNSURE = 0.9, 0.02


def _lattice() -> Lattice:
    xs = tuple(10 + PITCH * c for c in range(5))
    ys = tuple(10 + PITCH * r for r in range(3))
    return Lattice(xs, ys, Rect(9, 9, 4 * PITCH + 3, 2 * PITCH + 3), 2, (255, 255, 255))


def _rooms() -> Rooms:
    right = np.array([[False, True, False], [False, True, False]])
    down = np.array([[True, True, False, False]])
    return Rooms(Puzzle.build(ROOMS, [[0] * 4] * 2).rooms, right, down)


def _cell(value: int, confidence: float, seed: int, stroke: float = 0.15) -> CellValue:
    """A one-digit reading whose glyph is a random bitmap (the digits differ per cell), in
    black, its strokes `stroke` of its height wide."""
    mask = np.random.default_rng(seed).random((20, 12)) > 0.5
    digit = DigitReading(Glyph(Rect(0, 0, 12, 20), mask), ((value, confidence),), "scanline")
    return CellValue(ClueNumber(value, confidence, (digit,), ()), (20.0, 20.0, 20.0), stroke)


def _board(monkeypatch: pytest.MonkeyPatch, by_set: dict[str | None, dict[int, CellValue]]
           ) -> None:
    """The reader sees the lattice and rooms above, and in its cells what `by_set` says the
    state machines (None) and each template set (by name) read."""
    monkeypatch.setattr(reader, "find_lattice", lambda rgb: _lattice())
    monkeypatch.setattr(reader, "read_rooms", lambda rgb, lattice: _rooms())

    def cells(rgb: Any, lattice: Lattice, templates: TemplateSet | None,
              skip: tuple[bool, ...]) -> list[CellValue | None]:
        seen = by_set[None if templates is None else templates.name]
        return [None if skip[i] else seen.get(i) for i in range(8)]

    monkeypatch.setattr(reader, "_read_cells", cells)


def _solutions(givens: dict[int, int]) -> int:
    values = [givens.get(i, 0) for i in range(8)]
    return len(solve(Puzzle.build(ROOMS, [values[:4], values[4:]]), limit=3).solutions)


def test_a_fallback_contradicting_a_sure_digit_cannot_make_a_board_unique(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The screen shows 2 top left (read surely) and 3 in the big room (read unsurely): that
    # board has several solutions and must be refused. A fallback set misreads the 2 as 1,
    # which leaves exactly one solution: taking it would play a guess as a certainty.
    assert _solutions({0: 2, 2: 3}) > 1 and _solutions({0: 1, 2: 3}) == 1
    _board(monkeypatch, {
        None: {0: _cell(2, SURE, 0), 2: _cell(3, UNSURE, 1)},
        "wrong font": {0: _cell(1, SURE, 0), 2: _cell(3, SURE, 1)},
    })
    with pytest.raises(InputError) as err:
        read_ripple(np.zeros((120, 200, 3), np.uint8), fallbacks=[TemplateSet("wrong font")],
                    accept=unique_solution)
    assert isinstance(err.value, UnreadableDigits)  # the unsure 3, named by its cell
    assert "row 1 column 3" in err.value.message


def test_a_fallback_that_agrees_settles_only_the_unsure_cells(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Read surely: 2 top left, 4 bottom right; unsurely: the cell at row 1 column 3. Both
    # fallbacks leave one solution, but the first says 1 bottom right: refused.
    assert _solutions({0: 2, 2: 4, 7: 1}) == 1 and _solutions({0: 2, 2: 3, 7: 4}) == 1
    _board(monkeypatch, {
        None: {0: _cell(2, SURE, 0), 2: _cell(1, UNSURE, 1), 7: _cell(4, SURE, 2)},
        "contradicts": {0: _cell(2, SURE, 0), 2: _cell(4, SURE, 1), 7: _cell(1, SURE, 2)},
        "agrees": {0: _cell(2, SURE, 0), 2: _cell(3, SURE, 1), 7: _cell(4, SURE, 2)},
    })
    reading = read_ripple(np.zeros((120, 200, 3), np.uint8),
                          fallbacks=[TemplateSet("contradicts"), TemplateSet("agrees")],
                          accept=unique_solution)
    assert reading.template_set == "agrees"
    assert reading.values == (2, 0, 3, 0, 0, 0, 0, 4)


def test_several_solutions_are_their_own_error(monkeypatch: pytest.MonkeyPatch) -> None:
    _board(monkeypatch, {None: {0: _cell(2, SURE, 0)}})
    with pytest.raises(NoUniqueSolution):
        read_ripple(np.zeros((120, 200, 3), np.uint8), accept=unique_solution)


@pytest.mark.parametrize("error,ripple", [
    (UnreadableDigits("the glyph is odd", region=(1, 2, 3, 4)), True),
    (InputError("the cell holds a number that reads oddly", region=(1, 2, 3, 4)), False),
])
def test_detection_rests_on_the_errors_type_not_its_wording(
        monkeypatch: pytest.MonkeyPatch, error: InputError, ripple: bool) -> None:
    from autoplayer.games.ripple.detect import shows_ripple

    monkeypatch.setattr("autoplayer.games.ripple.board.find_lattice", lambda rgb: _lattice())
    monkeypatch.setattr("autoplayer.games.ripple.board.read_rooms",
                        lambda rgb, lattice: _rooms())

    def fails(*args: Any, **kwargs: Any) -> None:
        raise error

    monkeypatch.setattr(reader, "read_ripple", fails)
    assert shows_ripple(np.zeros((120, 200, 3), np.uint8)) is ripple


def test_digits_whose_shapes_differ_in_stroke_are_one_weight(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A serif font draws its 1 all stem and its 2 and 4 mostly hairline: the 1s' strokes
    are 1.4 times the others' in one weight, as a bold's are a regular's. With no digit
    drawn both ways the board shows one weight: every value is a given (it was the e2e
    misread: the 2s and the 4 taken for entered values, and several solutions)."""
    _board(monkeypatch, {None: {0: _cell(1, SURE, 0, 0.17), 4: _cell(1, SURE, 1, 0.17),
                                1: _cell(2, SURE, 2, 0.12), 5: _cell(2, SURE, 3, 0.12),
                                2: _cell(4, SURE, 4, 0.12)}})
    reading = read_ripple(np.zeros((120, 200, 3), np.uint8))
    assert reading.given == (True, True, True, False, True, True, False, False)
    assert not any(reading.entered)


def test_one_digit_drawn_both_ways_tells_the_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 2 drawn bold and regular shows two weights; the 4 (heavier than the regular 2 by
    more than digits of one weight differ) is a given, the 3 (lighter than the bold 2 by as
    much) an entered value."""
    _board(monkeypatch, {None: {0: _cell(2, SURE, 0, 0.18), 4: _cell(2, SURE, 1, 0.12),
                                2: _cell(4, SURE, 2, 0.19), 7: _cell(3, SURE, 3, 0.115)}})
    reading = read_ripple(np.zeros((120, 200, 3), np.uint8))
    assert reading.given == (True, False, True, False, False, False, False, False)
    assert reading.entered == (0, 0, 0, 0, 2, 0, 0, 3)


def test_a_digit_between_the_weights_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 4 whose stroke lies within a shape's spread of both the bold and the regular 2 may
    be either: refused, naming its cell, never guessed."""
    _board(monkeypatch, {None: {0: _cell(2, SURE, 0, 0.18), 4: _cell(2, SURE, 1, 0.12),
                                2: _cell(4, SURE, 2, 0.15)}})
    with pytest.raises(UnreadableDigits) as err:
        read_ripple(np.zeros((120, 200, 3), np.uint8))
    assert "row 1 column 3" in err.value.message
    assert err.value.region == astuple(_lattice().cell(2))
