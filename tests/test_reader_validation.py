"""Validation before solving: re-reading doubtful glyphs, and clear errors when giving up."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).parent))
from vision_render import Skin, random_puzzle, render

from autoplayer.cli import main
from autoplayer.errors import InputError
from autoplayer.games.nonogram.reader import read_nonogram
from autoplayer.games.nonogram.validation import validate_reading
from autoplayer.vision.numbers import ClueNumber


def _page(seed: int = 11):
    puzzle = random_puzzle(10, 10, seed=seed)
    return puzzle, render(puzzle, Skin("sans", cell=24))


def test_a_misread_number_is_replaced_by_its_next_best_reading():
    puzzle, page = _page()
    reading = read_nonogram(np.asarray(page))
    # Pretend the first number of row 1 was misread, with the true value as runner-up.
    good = reading.row_numbers[0][0]
    wrong = (good.value % 9) + 1 if good.value < 9 else 1
    bad = ClueNumber(wrong, 0.05, good.digits, (good.value,))
    rows = ((bad, *reading.row_numbers[0][1:]), *reading.row_numbers[1:])
    from autoplayer.games.nonogram.validation import puzzle_of

    broken = dataclasses.replace(reading, row_numbers=rows,
                                 puzzle=puzzle_of(rows, reading.column_numbers))
    fixed = validate_reading(broken)
    assert fixed.puzzle.rows == puzzle.rows
    assert fixed.corrections == (f"row 1: {wrong} -> {good.value}",)


def test_a_smeared_digit_is_settled_by_the_puzzle_when_one_digit_alone_fits():
    """A blob no reader can name is an unsure shape: the one digit that makes the clues add
    up and solve is taken (as a person reads 'that must be a 6'), and said to be."""
    puzzle, page = _page()
    first = read_nonogram(np.asarray(page))
    number = first.column_numbers[3][-1]
    box = number.box
    ImageDraw.Draw(page).rectangle((box.x, box.y, box.right - 1, box.bottom - 1), fill=(20,) * 3)
    reading = read_nonogram(np.asarray(page))
    assert (reading.puzzle.rows, reading.puzzle.columns) == (puzzle.rows, puzzle.columns)
    assert any(c.startswith("column 4: digit") and c.endswith(f"-> {number.value}")
               for c in reading.corrections)


def test_an_unreadable_clue_names_the_line_region_and_shows_the_glyph():
    _puzzle, page = _page()
    first = read_nonogram(np.asarray(page))
    # Erase a whole clue number: no digit of any glyph brings it back.
    box = first.column_numbers[3][-1].box
    ImageDraw.Draw(page).rectangle((box.x - 1, box.y - 1, box.right, box.bottom),
                                   fill=(250,) * 3)
    with pytest.raises(InputError) as err:
        read_nonogram(np.asarray(page))
    text = str(err.value)
    assert "cannot read the clues" in text
    assert err.value.region is not None
    assert "#" in text  # the ASCII picture of the glyph


def test_read_command_prints_writes_and_overlays(tmp_path, capsys):
    puzzle, page = _page()
    shot = tmp_path / "shot.png"
    page.save(shot)
    out, overlay = tmp_path / "p.non", tmp_path / "ov.png"
    assert main(["read", str(shot), "--out", str(out), "--overlay", str(overlay)]) == 0
    printed = capsys.readouterr().out
    assert "10x10 board" in printed
    from autoplayer.games.nonogram.formats import load_puzzle

    saved = load_puzzle(out)
    assert (saved.rows, saved.columns) == (puzzle.rows, puzzle.columns)
    with Image.open(overlay) as im:  # the picture, then a band with the board's URL
        assert im.size[0] == page.size[0] and im.size[1] > page.size[1]
        band = np.asarray(im.convert("L"))[page.size[1]:]
        assert (band < 128).any() and (band > 250).mean() > 0.5
    assert "https://puzz.link/p?nonogram/10/10/" in printed


def test_a_caption_wraps_to_the_picture_and_leaves_it_untouched():
    from autoplayer.vision.overlay import with_caption

    picture = np.random.default_rng(3).integers(0, 255, (40, 200, 3), dtype=np.uint8)
    short = with_caption(picture, ["https://puzz.link/p?nonogram/1/1/1"])
    long = with_caption(picture, ["x" * 600])
    assert (short[:40] == picture).all() and (long[:40] == picture).all()
    assert short.shape[1] == long.shape[1] == 200
    assert long.shape[0] - 40 >= 5 * (short.shape[0] - 40)  # 600 characters wrap, not clip


def test_read_command_on_a_non_image_exits_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "notes.png"
    bad.write_text("not a picture")
    assert main(["read", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(bad) in err


def test_read_command_without_a_board_names_the_file(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    Image.new("RGB", (300, 200), (240, 240, 240)).save(blank)
    assert main(["read", str(blank)]) == 2
    assert "no grid" in capsys.readouterr().err


def test_calibrate_then_read_with_templates(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    puzzle, page = _page(seed=5)
    page.save("train.png")
    from autoplayer.games.nonogram.formats import save_puzzle

    save_puzzle(puzzle, "train.non")
    assert main(["calibrate", "train.png", "--puzzle", "train.non", "--name", "sans24"]) == 0
    assert (tmp_path / "templates" / "sans24" / "index.json").exists()
    assert (tmp_path / "calibration" / "sans24" / "samples.json").exists()
    _other, page2 = _page(seed=6)
    page2.save("other.png")
    assert main(["read", "other.png", "--templates", "sans24"]) == 0
    assert "10x10 board" in capsys.readouterr().out
