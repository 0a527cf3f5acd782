"""Our Tatham game IDs against the real `sgt-pattern` binary (Debian sgt-puzzles).

The binary invents game IDs (`--generate`) that we must read and write back
unchanged, and validates ours when asked to save them (`--save` reads IDs on
stdin and refuses an invalid one); we then read its save files back.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from autoplayer.games.nonogram.formats import format_puzzle, load_puzzle, parse_puzzle
from autoplayer.games.nonogram.model import UNKNOWN, differences, puzzle_from_grid

pytestmark = pytest.mark.e2e

SGT_PATTERN = shutil.which("sgt-pattern") or (
    "/usr/games/sgt-pattern" if Path("/usr/games/sgt-pattern").exists() else None
)


@pytest.fixture(scope="module")
def sgt_pattern() -> str:
    if SGT_PATTERN is None:
        pytest.skip("sgt-pattern not installed (Debian package sgt-puzzles)")
    return SGT_PATTERN


def _run(binary: str, args: list[str], stdin: str = "", cwd: Path | None = None):
    return subprocess.run([binary, *args], input=stdin, capture_output=True, text=True,
                          timeout=60, cwd=cwd, env={"PATH": "/usr/bin:/bin"})


def test_ids_the_game_invents_read_and_write_back_unchanged(sgt_pattern):
    result = _run(sgt_pattern, ["--generate", "4", "12x8"])
    assert result.returncode == 0, result.stderr
    ids = result.stdout.split()
    assert len(ids) == 4
    for game_id in ids:
        puzzle = load_puzzle(game_id)
        assert (puzzle.width, puzzle.height) == (12, 8)
        assert format_puzzle(puzzle, "tatham").strip() == game_id


def test_the_game_accepts_our_ids_and_its_save_files_read_back(sgt_pattern, tmp_path):
    rng = np.random.default_rng(7)
    puzzles = []
    for i in range(12):
        h, w = int(rng.integers(1, 31)), int(rng.integers(1, 31))
        solution = (rng.random((h, w)) < rng.random()).astype(np.int8)
        solution[int(rng.integers(0, h))] = 0  # an empty row: an empty entry in the ID
        puzzle = puzzle_from_grid(solution)
        if i % 2:
            known = rng.random((h, w)) < 0.3
            puzzle = puzzle.with_grid(np.where(known, solution, UNKNOWN).astype(np.int8))
        puzzles.append(puzzle)
    ids = [format_puzzle(p, "tatham").strip() for p in puzzles]
    result = _run(sgt_pattern, ["--save", "game", "--save-suffix", ".sav"],
                  stdin="\n".join(ids) + "\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    for i, (puzzle, game_id) in enumerate(zip(puzzles, ids, strict=True)):
        saved = tmp_path / f"game{i}.sav"
        text = saved.read_text()
        assert f":{game_id.split(':', 1)[1]}\n" in text  # its DESC record is our description
        back = load_puzzle(saved)
        fields = ["rows", "columns", "grid"] if puzzle.grid is not None else ["rows", "columns"]
        assert differences(puzzle, back, fields) == [], game_id


def test_the_game_and_we_reject_the_same_bad_id(sgt_pattern, tmp_path):
    bad = "4x4:2/1/2/1/1.1/2/1/5"
    result = _run(sgt_pattern, ["--save", "x"], stdin=bad + "\n", cwd=tmp_path)
    assert result.returncode != 0 and "more numbers than will fit" in result.stderr
    with pytest.raises(Exception, match="row 4: clue 5 needs 5 cells but the row has 4"):
        parse_puzzle(bad, "tatham")
