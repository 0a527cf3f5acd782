"""Simon Tatham's Pattern, rendered by the real binary (`sgt-pattern --screenshot`), read untrained.

Generated IDs give the true clues; the reader sees only the PNG the game drew
(grey background, grey unknown cells, bold antialiased DejaVu digits, row clues
as one right-aligned string), with no templates and no Pattern constants.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.reader import read_nonogram

BINARY = shutil.which("sgt-pattern") or ("/usr/games/sgt-pattern"
                                         if os.path.exists("/usr/games/sgt-pattern") else None)
pytestmark = pytest.mark.skipif(BINARY is None, reason="sgt-pattern (sgt-puzzles) not installed")


def _generate(size: str, seed: str) -> str:
    out = subprocess.run([BINARY, "--generate", "1", f"{size}#{seed}"], capture_output=True,
                         text=True, check=True, timeout=60)
    return out.stdout.strip().splitlines()[0]


def _screenshot(game_id: str, tile: int, tmp_path) -> np.ndarray:
    path = tmp_path / f"pattern-{tile}.png"
    env = {**os.environ, "PATTERN_TILESIZE": str(tile)}
    subprocess.run([BINARY, "--screenshot", str(path), game_id], env=env, check=True,
                   capture_output=True, timeout=60)
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"))


@pytest.mark.e2e
@pytest.mark.parametrize(("size", "tile", "seed"), [
    ("10x10", 24, "a1"), ("10x10", 32, "b2"), ("15x15", 24, "c3"), ("20x20", 24, "d4"),
    ("25x25", 24, "e5"), ("10x10", 16, "f6"),
])
def test_reads_pattern_untrained(size, tile, seed, tmp_path):
    game_id = _generate(size, seed)
    truth = load_puzzle(game_id)
    reading = read_nonogram(_screenshot(game_id, tile, tmp_path))
    assert (reading.grid.width, reading.grid.height) == (truth.width, truth.height)
    assert reading.puzzle.rows == truth.rows
    assert reading.puzzle.columns == truth.columns
    assert reading.corrections == ()


@pytest.mark.e2e
def test_calibrated_templates_agree_with_the_state_machines(tmp_path):
    from autoplayer.vision.calibrate import label_with_puzzle
    from autoplayer.vision.templates import TemplateSet, load_templates, save_templates

    train_id = _generate("20x20", "train")
    labelled = label_with_puzzle(_screenshot(train_id, 24, tmp_path), load_puzzle(train_id))
    assert labelled.samples and not labelled.skipped
    templates = TemplateSet("pattern24")
    for s in labelled.samples:
        templates.add(s.digit, s.glyph.mask)
    loaded = load_templates(save_templates(templates, tmp_path / "templates" / "pattern24"))
    assert loaded.digits == templates.digits
    test_id = _generate("15x15", "test")
    truth = load_puzzle(test_id)
    reading = read_nonogram(_screenshot(test_id, 24, tmp_path), templates=loaded)
    assert (reading.puzzle.rows, reading.puzzle.columns) == (truth.rows, truth.columns)
    sources = {d.sources for _, _, n in reading.numbers() for d in n.digits}
    assert sources == {"both"}, "templates and state machines should agree on every digit"


@pytest.mark.e2e
def test_clipped_row_clue_is_reported_not_guessed(tmp_path):
    """This Pattern version cuts long row clues at the window's left edge (a row of five 1s
    in a 10x10 at tile 24 loses part of its first 1): the reader must refuse, naming the row."""
    from autoplayer.errors import InputError
    from autoplayer.games.nonogram.formats import format_puzzle
    from autoplayer.games.nonogram.model import puzzle_from_grid

    rng = np.random.default_rng(1)
    grid = (rng.random((10, 10)) < 0.5).astype(np.int8)
    grid[2, :] = [1, 0] * 5
    game_id = format_puzzle(puzzle_from_grid(grid), "tatham").strip()
    with pytest.raises(InputError) as err:
        read_nonogram(_screenshot(game_id, 24, tmp_path))
    assert "row 3 run off the left edge" in str(err.value)
    assert err.value.region is not None and err.value.region[0] == 0
