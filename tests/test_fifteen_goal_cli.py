"""`autoplayer fifteen solve` on published instances: Korf's 100 in his own convention (gap
first), plain-number boards, files that name their goal, and lengths checked against theirs."""

from __future__ import annotations

import pytest

from autoplayer.cli import main
from autoplayer.games.fifteen import pdb
from autoplayer.games.fifteen.model import Board, from_blank_first


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["fifteen", "solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def korf_lines(shared_dir) -> list[tuple[int, str]]:
    """Korf's numbers and lines of the five shortest instances (each solves in milliseconds)."""
    pdb.tables(4, 4)  # built once per machine (cached), loaded otherwise
    lines = (shared_dir / "fifteen" / "korf100.txt").read_text().splitlines()
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    return sorted(numbered, key=lambda item: int(item[1].split()[16]))[:5]


def test_korf_file_solves_in_its_own_convention_and_the_lengths_agree(capsys, korf_lines,
                                                                       tmp_path):
    path = tmp_path / "korf5.txt"
    path.write_text("\n".join(line for _, line in korf_lines) + "\n")
    code, out, err = run(capsys, str(path))  # no --goal: parity decides on 4x4
    assert code == 0, err
    rows = out.splitlines()
    assert len(rows) == 5
    for row, (_, line) in zip(rows, korf_lines, strict=True):
        numbers = list(map(int, line.split()))
        assert f"{numbers[16]} moves, optimal, as the file says; goal gap first" in row
        moves = row.rsplit(": ", 1)[1]
        assert Board(4, 4, tuple(numbers[:16])).play(moves).cells == tuple(range(16))
    code, out, _ = run(capsys, str(path), "--instances", "2-3,5")
    assert code == 0 and [r.split(":")[0] for r in out.splitlines()] == ["2", "3", "5"]


def test_a_file_that_names_its_goal_and_a_wrong_length_is_exit_1(capsys, korf_lines,
                                                                 tmp_path):
    _, line = korf_lines[0]
    numbers = list(map(int, line.split()))
    ours = from_blank_first(numbers[:16])  # the same puzzle, gap-last
    path = tmp_path / "ours.txt"
    path.write_text(f"# goal: gap-last\n{' '.join(map(str, ours.cells))} {numbers[16] + 1}\n")
    code, out, err = run(capsys, str(path))
    assert code == 1
    assert f"{numbers[16]} moves, optimal, the file says {numbers[16] + 1} (DIFFERENT)" in out
    assert "1 optimal length differ" in err


def test_one_korf_board_as_numbers_or_as_a_game_id_with_goal_gap_first(capsys, korf_lines):
    _, line = korf_lines[0]
    numbers = line.split()
    code, out, _ = run(capsys, " ".join(numbers), "--letters")  # with its length: checked
    assert code == 0 and len(out.strip()) == int(numbers[16])
    spec = "4x4:" + ",".join(numbers[:16])
    code, out, _ = run(capsys, spec, "--goal", "gap-first")
    assert code == 0
    assert out.splitlines()[0].startswith("goal: 4x4:0,1,2,3,")
    assert out.splitlines()[1] == f"{numbers[16]} moves, optimal (each tile and the way it slides):"
    code, _, err = run(capsys, spec)  # our convention by default: gap last, unreachable
    assert code == 2 and "cannot be solved" in err


@pytest.mark.parametrize(("argv", "message"), [
    (["3x3:1,2,3,4,5,6,0,7,8", "--goal", "auto"], "say which with --goal"),
    (["1 2 3 4 5 6 7 8 0", "--instances", "1"], "--instances picks boards of a file"),
    (["1 2 3 4 5 6 7 8"], "8 numbers are no square board"),
    (["1 2 3 4 5 6 7 8 8"], "tile 8 appears twice"),
])
def test_bad_requests_are_one_line_errors(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_file_with_an_unknown_goal_or_no_board(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# goal: sideways\n1 2 3 0\n")
    code, _, err = run(capsys, str(bad))
    assert code == 2 and "line 1: goal 'sideways' is none of" in err
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n\n")
    code, _, err = run(capsys, str(empty))
    assert code == 2 and "holds no board" in err
