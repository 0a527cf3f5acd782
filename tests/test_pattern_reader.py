"""Reading Pattern from screenshots the real game renders headless (`sgt-pattern --screenshot`).

No X server is needed. Every puzzle comes from Pattern's own generator, so the
clues it must read are known exactly.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from autoplayer.errors import InputError, UserError
from autoplayer.games.nonogram.clipped import tail_fits
from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.game import NonogramGame, Reading, make_game
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.games.nonogram.pattern.session import PATTERN, generate
from autoplayer.games.nonogram.solver import solve
from autoplayer.screen.capture import Frame
from autoplayer.vision.templates import BUNDLED, NO_TEMPLATES, available_templates

needs_pattern = pytest.mark.skipif(not os.path.exists(PATTERN),
                                   reason="sgt-puzzles is not installed")

CALIBRATED = "pattern"
"""The template set tools/pattern-calibration makes from screenshots Pattern renders itself."""


def render(game_id: str, tile: int, tmp_path: Path, **colours: str) -> np.ndarray:
    from PIL import Image

    out = tmp_path / f"shot-{tile}-{abs(hash(game_id))}.png"
    env = {**os.environ, "PATTERN_TILESIZE": str(tile)}
    env.update({f"PATTERN_COLOUR_{k[1:]}": v for k, v in colours.items()})
    subprocess.run([PATTERN, "--screenshot", str(out), game_id], env=env, check=True,
                   timeout=60, capture_output=True)
    with Image.open(out) as im:
        return np.asarray(im.convert("RGB"))


def read(pixels: np.ndarray, templates: str | None = None) -> Reading:
    """What the play loop reads first from a Pattern window showing these pixels (the
    nonogram back-end every window gets)."""
    return NonogramGame(templates).read(Frame(pixels))


@pytest.fixture(scope="module")
def templates() -> str:
    assert (BUNDLED / CALIBRATED / "index.json").is_file(), \
        "autoplayer/templates/pattern is missing (tools/pattern-calibration makes it)"
    return CALIBRATED


# Sizes against tile sizes, the small font (a two-digit column clue) included.
CASES = [(5, 14), (10, 16), (15, 16), (20, 16), (25, 16), (30, 20), (10, 24), (15, 24),
         (20, 24), (25, 24), (30, 24), (15, 32), (25, 32), (20, 40), (10, 48)]


@needs_pattern
@pytest.mark.parametrize("size,tile", CASES, ids=[f"{s}x{s}-t{t}" for s, t in CASES])
def test_every_clue_and_cell_of_a_generated_puzzle(tmp_path: Path, templates: str,
                                                   size: int, tile: int) -> None:
    game_id = generate(f"{size}x{size}#reader{tile}")
    truth = load_puzzle(game_id)
    pixels = render(game_id, tile, tmp_path)
    for name, tset in (("templates", templates), ("state machines alone", NO_TEMPLATES)):
        reading = read(pixels, tset)
        assert reading.raw.template_set == (templates if tset == templates else None), name
        clipped = {c.index for c in reading.raw.clipped if c.kind == "row"}
        # Clipped lines never get a guessed clue; the rest must be exact.
        assert all(reading.puzzle.rows[i] is None for i in clipped)
        rows = [c for i, c in enumerate(reading.puzzle.rows) if i not in clipped]
        want = [c for i, c in enumerate(truth.rows) if i not in clipped]
        assert rows == want, name
        assert reading.puzzle.columns == truth.columns, name
        assert reading.shown.shape == (size, size)
        assert (reading.shown == UNKNOWN).all()


@needs_pattern
@pytest.mark.parametrize("colour", ["ff0000", "808080"], ids=["red", "grey"])
def test_clue_colours_do_not_change_the_reading(tmp_path: Path, templates: str,
                                                colour: str) -> None:
    """Pattern draws error clues red and the keyboard cursor's lines grey."""
    game_id = generate("15x15#colours")
    pixels = render(game_id, 24, tmp_path, c3=colour)
    reading = read(pixels, templates)
    truth = load_puzzle(game_id)
    assert (reading.puzzle.rows, reading.puzzle.columns) == (truth.rows, truth.columns)


@needs_pattern
def test_cells_are_read_by_their_sampled_colours(tmp_path: Path) -> None:
    pixels = render(generate("10x10#cells"), 24, tmp_path).copy()
    grid = read(pixels).raw.grid
    want = np.full((10, 10), UNKNOWN, dtype=np.int8)
    for (r, c), state, value in (((0, 0), FILLED, 0), ((3, 7), EMPTY, 255),
                                 ((9, 9), FILLED, 0), ((5, 2), EMPTY, 255)):
        cell = grid.cell(r, c)
        pixels[cell.y:cell.bottom, cell.x:cell.right] = value
        want[r, c] = state
    assert np.array_equal(read(pixels).shown, want)


# Row 1 (1 1 1 1 1) does not fit the clue band at 24 px tiles: Pattern clips it.
CLIPPED_SETTLED = ("10x10:1.5/5.2/1.2/2.1/2.2.3/2.1.2/1.1.2/1.1.1.1/6.1/3.1/1.1.1.1.1/1.1.2/"
                   "1.2.2/1.1.1.3/2.2.2/3.2.2/1.1.1.1/2.1.1.1/2.3/2.1")
CLIPPED_OPEN = ("10x10:3.4/3.1/3.1.3/1/3.2/1.2/5.2/1.1.1/3.1.1/1.2/1.1.1.1.1/1.1.1.1.2/"
                "1.1.1.1.1/1.1/1.5/2.1/1.1/1.2.1.1/3.2.1/1.1.1.1.1")


@needs_pattern
def test_a_clipped_row_is_detected_and_never_guessed(tmp_path: Path, templates: str) -> None:
    game = NonogramGame(templates)
    reading = game.read(Frame(render(CLIPPED_SETTLED, 24, tmp_path)))
    raw = reading.raw
    assert [line.name for line in raw.clipped] == ["row 1"]
    assert raw.tail(raw.clipped[0]) == (1, 1, 1, 1)  # the numbers wholly visible
    assert raw.clipped[0].hidden == 1  # and ink of a cut one at the edge
    assert reading.puzzle.rows[0] is None
    solved = game.solve(reading)
    assert np.array_equal(solved.solution, solve(load_puzzle(CLIPPED_SETTLED)).solutions[0])
    assert "row 1: clue clipped" in solved.note


@needs_pattern
def test_a_number_wholly_beyond_the_edge_is_not_missed(tmp_path: Path, templates: str) -> None:
    """At 16 px tiles row 1's first 1 lies entirely outside the window: no ink touches
    the edge, but the visible clue starts closer to it than numbers are spaced, so
    the row is open (never read as 1 1 1 1)."""
    raw = read(render(CLIPPED_SETTLED, 16, tmp_path), templates).raw
    row1 = raw.clipped[0]
    assert row1.name == "row 1" and row1.hidden == 0
    assert raw.tail(row1) == (1, 1, 1, 1)
    assert raw.puzzle.rows[0] is None
    # Rows of three numbers start well inside: they are read whole.
    assert raw.puzzle.rows[1] == (1, 1, 2)


@needs_pattern
def test_clipped_rows_that_leave_solutions_open_stop_with_their_names(
        tmp_path: Path, templates: str) -> None:
    game = NonogramGame(templates)
    reading = game.read(Frame(render(CLIPPED_OPEN, 24, tmp_path)))
    with pytest.raises(UserError, match=r"row 1, row 2, row 3, row 10: clue clipped"):
        game.solve(reading)


def test_a_picture_without_a_board_is_an_error_naming_the_region() -> None:
    rng = np.random.default_rng(1)
    noise = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    with pytest.raises(InputError, match="no grid") as err:
        read(noise)
    assert err.value.region is not None
    with pytest.raises(InputError):
        read(np.full((200, 200, 3), 230, dtype=np.uint8))


@needs_pattern
def test_digits_too_small_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="too small to read"):
        read(render(generate("25x25#small"), 12, tmp_path))


def test_a_clipped_clue_fits_by_its_visible_tail() -> None:
    # A clipped row counts by its visible tail, with the cut numbers before it.
    assert tail_fits((1, 1), (1,), 1)
    assert tail_fits((1, 1), (1, 1), 0)
    assert not tail_fits((1, 1), (1, 1), 1)
    assert not tail_fits((1, 1), (2,), 0)


def test_no_window_gets_a_back_end_of_its_own_by_name() -> None:
    """Pattern's window gets the one nonogram back-end; what it needs (clipped clues, its
    calibrated digits) comes from what the picture shows, not from its class."""
    from types import SimpleNamespace

    window = SimpleNamespace(title="Pattern", wm_class=("sgt-pattern", "Sgt-pattern"))
    assert type(make_game(window=window)) is NonogramGame
    assert CALIBRATED in available_templates()  # tried in turn when a reading fails

def test_the_committed_templates_cover_every_digit(templates: str) -> None:
    from autoplayer.vision.templates import load_templates

    assert load_templates(BUNDLED / templates).digits == set(range(10))
