"""`autoplayer hint`: steps known by hand, their wording, solving by hints, the screen."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from autoplayer import cli
from autoplayer.games.nonogram import formats
from autoplayer.games.nonogram.hint import (
    CONTRADICTION,
    LINE,
    PROBE,
    SOLVED,
    STALLED,
    STEP,
    apply,
    as_dict,
    describe,
    next_hint,
)
from autoplayer.games.nonogram.model import Puzzle
from autoplayer.games.nonogram.solver import solve

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DANCER = str(EXAMPLES / "webpbn-00001.non")


def one_row(clue: tuple[int, ...], cells: str) -> tuple[Puzzle, list[list[int]]]:
    """A puzzle of one row whose columns' clues are unknown (None), so only the row speaks."""
    width = len(cells)
    puzzle = Puzzle((clue,), (None,) * width)  # type: ignore[arg-type]
    return puzzle, [[{"#": 1, "x": 0, "?": -1}[ch] for ch in cells]]


def test_overlap_names_the_block_and_its_starts() -> None:
    hint = next_hint(*one_row((2, 7), "?" * 11))
    assert (hint.status, hint.method, hint.kind, hint.index) == (STEP, LINE, "row", 0)
    assert hint.filled == (1, 4, 5, 6, 7, 8, 9)  # one cell of slack
    assert hint.emptied == ()
    assert hint.reasons == (
        "the 2 must cover column 2 wherever it goes (it can start at columns 1..2)",
        "the 7 must cover columns 5-10 wherever it goes (it can start at columns 4..5)")
    assert hint.headline == "row 1, clue 2 7: fill columns 2 and 5-10"
    text = describe(hint)
    assert "before: ???????????" in text and "after:  ?#??######?" in text


def test_overlap_by_the_2_too() -> None:
    hint = next_hint(*one_row((2, 7), "?" * 10))  # no slack: every cell follows
    assert hint.filled == (0, 1, 3, 4, 5, 6, 7, 8, 9) and hint.emptied == (2,)
    assert "the 2 must cover columns 1-2 (it has one place only)" in hint.reasons
    assert "no block can reach column 3" in hint.reasons


def test_unreachable_cells_are_emptied() -> None:
    hint = next_hint(*one_row((3,), "?#??????"))
    assert hint.filled == (2,) and hint.emptied == (4, 5, 6, 7)
    assert hint.reasons == (
        "the 3 must cover column 3 wherever it goes (it can start at columns 1..2 given "
        "the known cells)",
        "no block can reach columns 5-8 given the known cells",
    )


def test_a_whole_block_has_empty_neighbours() -> None:
    hint = next_hint(*one_row((1, 1), "??#???"))
    assert hint.emptied == (1, 3)
    assert hint.reasons[0] == ("the filled column 3 can only be a whole 1, so columns 2 and 4 "
                               "beside it are empty")


def test_zero_clue() -> None:
    hint = next_hint(*one_row((), "????"))
    assert hint.emptied == (0, 1, 2, 3)
    assert hint.reasons == ("the clue is 0: no cell of this line is filled",)


def test_first_step_on_a_file_is_the_biggest_line_step() -> None:
    puzzle = formats.load_puzzle(DANCER)
    hint = next_hint(puzzle)
    assert hint.headline == "column 3, clue 7: fill rows 4-7"
    assert hint.reasons == ("the 7 must cover rows 4-7 wherever it goes (it can start at rows "
                            "1..4)",)


def _solution(puzzle: Puzzle) -> list[list[int]]:
    return solve(puzzle).solutions[0].tolist()


LINE_SOLVABLE_8X8 = ("8x8:1.1.1/2.1.2/1.2.1/3.2/6.1/2.1/1.2/1.6/"
                     "2.5/5/1.2.2/2.1.2/1.1.1/1.1/3.1.1/2.2.1")
"""A random 8x8 grid's clues that `solve --logic-only` calls line-solvable."""


@pytest.mark.parametrize("source", [DANCER, LINE_SOLVABLE_8X8])
def test_hints_solve_a_line_solvable_puzzle_and_agree_with_its_solution(source: str) -> None:
    puzzle = formats.load_puzzle(source)
    solution = _solution(puzzle)
    grid = [[-1] * puzzle.width for _ in range(puzzle.height)]
    for _ in range(puzzle.width * puzzle.height + 1):
        hint = next_hint(puzzle, grid)
        if hint.status == SOLVED:
            break
        assert (hint.status, hint.method) == (STEP, LINE), describe(hint)
        assert hint.cells
        for r, c, value in hint.cells:
            assert grid[r][c] == -1 and solution[r][c] == value, describe(hint)
        grid = apply(grid, hint)
    assert grid == solution


def test_probe_only_when_no_line_gives_anything() -> None:
    puzzle = formats.load_puzzle(str(EXAMPLES / "data091.nin"))  # line logic: 1 cell
    solution = _solution(puzzle)
    first = next_hint(puzzle)
    assert first.method == LINE and len(first.cells) == 1
    grid = apply([[-1] * puzzle.width for _ in range(puzzle.height)], first)
    hint = next_hint(puzzle, grid)
    assert (hint.status, hint.method) == (STEP, PROBE)
    (r, c, value), = hint.cells
    assert solution[r][c] == value
    probe = hint.probe
    assert probe is not None and (probe.row, probe.column) == (r, c) and probe.assumed != value
    assumed = "filled" if probe.assumed == 1 else "empty"
    assert hint.reasons[0] == f"suppose row {r + 1} column {c + 1} were {assumed}"
    assert hint.reasons[-2].endswith("has no place for "
                                     + " ".join(map(str, _clue(puzzle, probe.broken))))
    assert hint.reasons[-1] == f"so row {r + 1} column {c + 1} is {'filled' if value else 'empty'}"


def _clue(puzzle: Puzzle, line: tuple[str, int]) -> tuple[int, ...]:
    kind, i = line
    return (puzzle.rows if kind == "row" else puzzle.columns)[i]


def test_contradiction_names_the_line() -> None:
    puzzle = formats.load_puzzle(DANCER)
    grid = [[-1] * 5 for _ in range(10)]
    grid[0] = [1, 1, 1, -1, -1]  # row 1's clue is 2
    hint = next_hint(puzzle, grid)
    assert (hint.status, hint.kind, hint.index) == (CONTRADICTION, "row", 0)
    assert hint.headline == "contradiction: row 1, clue 2: no placement fits the known cells"


def test_solved_and_stalled() -> None:
    puzzle = formats.load_puzzle(DANCER)
    assert next_hint(puzzle, _solution(puzzle)).status == SOLVED
    assert next_hint(formats.load_puzzle("3x3:1/1/1/1/1/1")).status == STALLED


def test_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["hint", DANCER, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"status", "method", "line", "filled", "emptied", "cells", "before",
                         "after", "summary", "reason", "probe"}
    assert data["line"] == {"kind": "column", "index": 3, "clue": [7]}
    assert data["filled"] == [4, 5, 6, 7] and data["emptied"] == []
    assert data["cells"][0] == {"row": 4, "column": 3, "value": "filled"}
    assert data == as_dict(next_hint(formats.load_puzzle(DANCER)))


def test_cells_file_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cells = tmp_path / "cells.txt"
    cells.write_text("###..\n" + ".....\n" * 9)
    assert cli.main(["hint", DANCER, "--cells", str(cells)]) == 1
    assert capsys.readouterr().out.startswith("contradiction: row 1, clue 2")
    cells.write_text("##x??\n" + "?????\n" * 9)
    assert cli.main(["hint", DANCER, "--cells", str(cells)]) == 0
    cells.write_text("##x?\n")
    assert cli.main(["hint", DANCER, "--cells", str(cells)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "4 cells but the puzzle is 5 wide" in err
    assert cli.main(["hint", DANCER, "--overlay", str(tmp_path / "o.png")]) == 2
    assert cli.main(["hint", "3x3:1/1/1/1/1/1"]) == 6


def test_screenshot_gives_a_hint_and_an_overlay(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    shot = EXAMPLES / "PixeloScreenshot.png"
    out = tmp_path / "hint.png"
    assert cli.main(["hint", str(shot), "--overlay", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "step" and data["method"] == "line" and data["cells"]
    before = np.asarray(Image.open(shot).convert("RGB"))
    after = np.asarray(Image.open(out).convert("RGB"))
    assert after.shape == before.shape and (after != before).any(axis=2).sum() > 500


def test_window_capture_on_a_virtual_display(tmp_path: Path) -> None:
    """`--window` reads the board from a window on a display (Xvfb, a Tk window showing the
    screenshot), and names the windows it sees when none matches."""
    import os
    import shutil
    import subprocess
    import sys
    import time

    pytest.importorskip("tkinter")
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    from autoplayer.screen.xvfb import Xvfb

    show = ("import sys, tkinter as tk\nroot = tk.Tk(); root.title('Hint test board')\n"
            "root.geometry('+0+0'); img = tk.PhotoImage(file=sys.argv[1])\n"
            "tk.Label(root, image=img, borderwidth=0).pack(); root.mainloop()\n")
    root = Path(__file__).resolve().parent.parent
    with Xvfb(2000, 1150) as x:
        env = dict(os.environ, DISPLAY=x.display, PYTHONPATH=str(root))
        viewer = subprocess.Popen([sys.executable, "-c", show,
                                   str(EXAMPLES / "PixeloScreenshot.png")], env=env)
        try:
            out = tmp_path / "w.png"
            deadline = time.monotonic() + 20
            while True:
                run = subprocess.run([sys.executable, "-m", "autoplayer", "hint", "--window",
                                      "Hint test board", "--overlay", str(out)], env=env,
                                     capture_output=True, text=True, timeout=60, cwd=root)
                if run.returncode == 0 or time.monotonic() > deadline:
                    break
                time.sleep(0.5)  # the window is not mapped yet
            assert run.returncode == 0, run.stderr
            assert run.stdout.startswith("row 1, clue 0: empty columns 1-20") and out.exists()
            missing = subprocess.run([sys.executable, "-m", "autoplayer", "hint", "--window",
                                      "No such title"], env=env, capture_output=True,
                                     text=True, timeout=60, cwd=root)
            assert missing.returncode == 2 and missing.stderr.count("\n") == 1
            assert "no window matches" in missing.stderr
        finally:
            viewer.kill()
            viewer.wait(10)


def test_window_without_a_display_is_one_line() -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    root = Path(__file__).resolve().parent.parent
    run = subprocess.run([sys.executable, "-m", "autoplayer", "hint", "--window", "x"], env=env,
                         capture_output=True, text=True, timeout=60, cwd=root)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "cannot capture the screen" in run.stderr
