"""puzz.link / pzprjs URLs: decoding pzprjs's own examples, round trips of every puzzle we
have, refusals that name what is wrong, and the commands that take a URL for a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoplayer import puzzlink as codec
from autoplayer.cli import main
from autoplayer.errors import InputError
from autoplayer.games.nonogram.formats import load_puzzle, puzzlink
from autoplayer.games.ripple import puzzlink as ripple_link
from autoplayer.games.ripple.cli import load_puzzle as load_ripple
from autoplayer.games.ripple.cli import main_check, main_solve, run_convert
from autoplayer.games.ripple.formats import parse_puzzle
from autoplayer.games.ripple.generator import generate

REPO = Path(__file__).resolve().parent.parent

# ------------------------------------------------- pzprjs's own test data
#
# robx/pzprjs, test/script/nonogram.js: the variety's test URL body, and the board its
# "null" (correct) failcheck case gives in pzprv3 form. Its top three lines are the
# column clues (read top to bottom), its left three columns the row clues.
PZPRJS_NONOGRAM = "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h"
NONOGRAM_ROWS = ((2, 1), (1, 1), (1, 2), (), (1, 1), (3,))
NONOGRAM_COLUMNS = ((2, 1), (1, 1, 1), (1,), (1, 1, 1), (2, 1), ())
NONOGRAM_SOLUTION = ("##.#..", "#...#.", ".#.##.", "......", "#...#.", ".###..")

# robx/pzprjs, test/script/ripple.js: the test URL, and its pzprv3 board: walls right of
# cells "0 1 0 /0 1 1 /0 1 1 /1 0 1", walls below "1 1 0 1 /1 1 0 0 /1 0 1 0", givens
# ". . . . /. 1 4 . /. 3 2 . /. . . .", and the correct answer "1 2 3 1 /2 . . 2 /
# 4 . . 1 /1 2 1 3" (with the givens filled in below).
PZPRJS_RIPPLE = "https://puzz.link/p?ripple/4/4/9n8rigk14h32k"
RIPPLE_TEXT = """1 1 2 2
3 3 2 4
5 5 2 4
6 5 5 4

- - - -
- 1 4 -
- 3 2 -
- - - -
"""
RIPPLE_SOLUTION = "1 2 3 1\n2 1 4 2\n4 3 2 1\n1 2 1 3\n"


def test_pzprjs_nonogram_test_url_decodes_to_its_board():
    puzzle = load_puzzle(PZPRJS_NONOGRAM)
    assert puzzle.rows == NONOGRAM_ROWS
    assert puzzle.columns == NONOGRAM_COLUMNS
    assert puzzlink.url(puzzle) == PZPRJS_NONOGRAM


def test_pzprjs_nonogram_test_url_solves_to_its_answer(tmp_path, capsys):
    out = tmp_path / "solved.non"
    assert main(["solve", PZPRJS_NONOGRAM, "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith("unique\n")
    solution = load_puzzle(out).solution
    assert ["".join("#" if v else "." for v in row) for row in solution.tolist()] \
        == list(NONOGRAM_SOLUTION)


def test_pzprjs_ripple_test_url_decodes_to_its_board():
    puzzle = ripple_link.parse_url(PZPRJS_RIPPLE)
    assert puzzle == parse_puzzle(RIPPLE_TEXT)
    assert ripple_link.url(puzzle) == PZPRJS_RIPPLE


def test_pzprjs_ripple_test_url_solves_to_its_answer(tmp_path, capsys):
    out = tmp_path / "o.txt"
    assert main_solve([PZPRJS_RIPPLE, str(out)]) == 0
    assert out.read_text() == RIPPLE_SOLUTION
    assert "(it is unique)" in capsys.readouterr().out
    assert main_check([PZPRJS_RIPPLE, str(out)]) == 0
    assert capsys.readouterr().out.endswith("Solution correct\n")


@pytest.mark.parametrize("form", [
    "https://puzz.link/p?{pid}/{rest}",
    "http://puzz.link/p?{pid}/{rest}",
    "http://pzv.jp/p.html?{pid}/{rest}",
    "https://pzprxs.vercel.app/p?{pid}/{rest}",
    "?{pid}/{rest}",
    "https://puzz.link/p?{pid}_edit/{rest}",
    "http://pzv.jp/p.html?{pid}_test/{rest}",
    "  https://puzz.link/p?{pid}/{rest}\n",
])
def test_every_host_and_form_pzprjs_reads(form):
    nonogram = form.format(pid="nonogram", rest="6/6/12g1111h11112j12g11g21j11g3h")
    assert load_puzzle(nonogram).rows == NONOGRAM_ROWS
    ripple = form.format(pid="ripple", rest="4/4/9n8rigk14h32k")
    assert ripple_link.parse_url(ripple) == parse_puzzle(RIPPLE_TEXT)


def test_kanpen_name_and_a_flag_word_read_as_pzprjs_reads_them():
    assert ripple_link.parse_url("https://puzz.link/p?hakyukoka/4/4/9n8rigk14h32k") \
        == parse_puzzle(RIPPLE_TEXT)
    assert load_puzzle("https://puzz.link/p?nonogram/v:/6/6/12g1111h11112j12g11g21j11g3h"
                       ).columns == NONOGRAM_COLUMNS


# ------------------------------------------------- round trips of our sets

def _nonogram_files(shared: Path | None) -> list[Path]:
    files = sorted((REPO / "tests" / "data").glob("*.non"))
    if shared is not None:
        files += sorted(p for p in (shared / "nonograms").rglob("*") if p.suffix in (".non",
                                                                                      ".nin"))
    return files


def _round_trip_nonogram(path: Path) -> None:
    original = load_puzzle(path)
    url = puzzlink.url(original)
    back = load_puzzle(url)
    assert (back.rows, back.columns) == (original.rows, original.columns), path
    assert puzzlink.url(back) == url, path


def test_every_bundled_nonogram_round_trips():
    files = _nonogram_files(None)
    assert len(files) >= 10
    for path in files:
        _round_trip_nonogram(path)


def test_every_shared_nonogram_round_trips(shared_dir):
    files = _nonogram_files(shared_dir)
    assert len(files) >= 40
    for path in files:
        _round_trip_nonogram(path)


def _ripple_files(shared: Path) -> list[Path]:
    janko = sorted((shared / "ripple" / "puzzlekit-janko").glob("*.txt"))
    hunter = shared / "ripple" / "hunterknepshield"
    return janko + sorted(hunter.glob("*Puzzle*.txt")) + sorted(hunter.glob("Multiple*.txt"))


def test_every_shared_ripple_round_trips(shared_dir):
    files = _ripple_files(shared_dir)
    assert len(files) >= 40
    for path in files:
        original = load_ripple(str(path))
        url = ripple_link.url(original)
        back = ripple_link.parse_url(url)
        assert back == original, path
        assert ripple_link.url(back) == url, path


def test_bundled_and_generated_ripple_puzzles_round_trip():
    from test_ripple_cli import AMBIGUOUS, CLASH, PUZZLE

    puzzles = [parse_puzzle(text) for text in (PUZZLE, AMBIGUOUS, CLASH, RIPPLE_TEXT)]
    puzzles += [generate(rows, cols, str(seed))[0]
                for rows, cols, seed in ((1, 1, 0), (1, 7, 1), (6, 1, 2), (5, 8, 3), (9, 6, 4))]
    for puzzle in puzzles:
        assert ripple_link.parse_url(ripple_link.url(puzzle)) == puzzle


def test_random_rooms_and_givens_round_trip():
    """Walls drawn at random (rooms of every shape, rooms inside rooms), givens up to each
    room's size: the URL gives back the same puzzle, and pzprjs's walls exactly."""
    import random

    from draws import run_seed

    seed = run_seed()
    print(f"AUTOPLAYER_SEED={seed}")
    rng = random.Random(seed)
    for draw in range(60):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        right = [rng.random() < 0.4 for _ in range((cols - 1) * rows)]
        below = [rng.random() < 0.4 for _ in range(cols * (rows - 1))]
        body = codec.write_borders(right, below) + codec.write_number16([-1] * rows * cols)
        plain = ripple_link.parse_url(codec.make_url("ripple", cols, rows, body))
        givens = [rng.randint(1, size) if rng.random() < 0.3 else 0
                  for size in plain.room_size]
        puzzle = plain.with_givens(givens)
        url = ripple_link.url(puzzle)
        assert ripple_link.parse_url(url) == puzzle, f"AUTOPLAYER_SEED={seed} draw {draw}"
        # Every wall between two rooms is written; a stray one inside a room is not.
        back_right, back_below, _ = codec.read_borders(url.split("/")[-1], cols, rows)
        assert all(b <= a for a, b in zip(right, back_right, strict=True))
        assert all(b <= a for a, b in zip(below, back_below, strict=True))


def test_a_trailing_slash_is_read_as_pzprjs_reads_it():
    assert load_puzzle(PZPRJS_NONOGRAM + "/").rows == NONOGRAM_ROWS


def test_big_values_use_the_longer_number16_forms():
    values = [0, 15, 16, 255, 256, 4095, 4096, 8191, 8192, 12239, 12240, 77775, 77776, 100000]
    text = codec.write_number16(values)
    # pzprjs writes 4096 as "=0" (unpadded) but reads three digits after "=": written
    # padded, as here, the URL reads back in both.
    assert text == "0f-10-ff+100+fff=000=fff%000%fcf*0000*ffff$00000$056d0"
    assert codec.read_number16(text, len(values), "places") == (values, len(text))
    gaps = [codec.EMPTY] * 21 + [3] + [codec.EMPTY] * 2
    assert codec.write_number16(gaps) == "zg3h"
    assert codec.read_number16("zg3h", 24, "places") == (gaps, 4)


# ------------------------------------------------- refusals

@pytest.mark.parametrize(("url", "message"), [
    ("https://puzz.link/p?nonogram/6/6/12g1111h", "the data ends after 9 of the 36 clue places"),
    ("https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3hzz",
     "2 characters are left after the puzzle's data ('zz')"),
    ("https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h/x",
     "2 characters are left after the puzzle's data ('/x')"),
    ("https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3;",
     "';' at character 28 of the data is not a number or a skip"),
    ("https://puzz.link/p?nonogram/6/x/12", "the height 'x' is not a number"),
    ("https://puzz.link/p?nonogram/0/6/12", "the width 0 is outside 1..200"),
    ("https://puzz.link/p?nonogram/201/6/12", "the width 201 is outside 1..200"),
    ("https://puzz.link/p?nonogram", "the nonogram URL has no size"),
    ("https://puzz.link/p?slither/3/3/abc", "a puzz.link 'slither' puzzle, not a nonogram"),
    ("https://puzz.link/p?ripple/4/4/9n8rigk14h32k", "not a nonogram; solve it with"),
    ("https://puzz.link/p?nonogram/6/6/.2g1111h11112j12g11g21j11g3h",
     "column 1 has a '?' clue"),
    ("https://puzz.link/p?nonogram/6/6/02g1111h11112j12g11g21j11g3h",
     "column 1 has a clue number 0"),
    ("https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g7h",
     "row 6: clue 7 needs 7 cells but the row has 6"),
    # From a puzz.link parser test list (a display test, not a nonogram: 6 5 4 in 10 cells).
    ("https://puzz.link/p?nonogram/4/10/123h456h789habcn1g2g3g4g3g2g1g",
     "column 2: clue 6 5 4 needs 17 cells but the column has 10"),
    ("https://puzz.link/p?nonogram/6/6/-1", "'-' at character 1 of the data needs 2 hex"),
    ("https://puzz.link/p?nonogram/2/2/zz", "'z' at character 1 of the data skips past"),
])
def test_a_malformed_nonogram_url_is_one_line_naming_the_fault(url, message, capsys):
    assert main(["check", url]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("autoplayer: error: puzz.link URL: ")
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(("url", "message"), [
    ("https://puzz.link/p?ripple/4/4/9n8", "the data ends inside the room walls (3 of 6"),
    ("https://puzz.link/p?ripple/4/4/9n8rig", "the data ends after 0 of the 16 cells"),
    ("https://puzz.link/p?ripple/4/4/9n8rigk14h3.k", "row 3 column 3 holds a '?'"),
    ("https://puzz.link/p?ripple/4/4/9n8rigk10h32k", "row 2 column 3 holds a 0"),
    ("https://puzz.link/p?ripple/4/4/9n8rigk19h32k",
     "the 9 at row 2 column 3 is larger than its room (4 cells)"),
    ("https://puzz.link/p?ripple/4/4/9nwrigk14h32k", "'w' at character 3 of the data is not "
                                                     "a wall digit"),
    ("https://puzz.link/p?ripple/101/4/0", "the width 101 is outside 1..100"),
    ("https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h",
     "a puzz.link 'nonogram' puzzle, not a Ripple Effect"),
])
def test_a_malformed_ripple_url_is_one_line_naming_the_fault(url, message, tmp_path, capsys):
    assert main_solve([url, str(tmp_path / "o.txt")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not (tmp_path / "o.txt").exists()
    assert err.startswith("ripple-effect: error: puzz.link URL: ")
    assert message in err and err.count("\n") == 1


# ------------------------------------------------- commands

def test_convert_show_and_check_take_and_write_urls(tmp_path, capsys):
    non = tmp_path / "p.non"
    assert main(["convert", PZPRJS_NONOGRAM, str(non)]) == 0
    assert main(["convert", str(non), "-", "--to", "puzzlink"]) == 0
    assert capsys.readouterr().out == PZPRJS_NONOGRAM + "\n"
    link = tmp_path / "link.txt"
    link.write_text(PZPRJS_NONOGRAM + "\n")
    assert main(["check", str(link)]) == 0  # a file holding a URL reads as one
    assert capsys.readouterr().out.endswith("ok: valid 6x6 puzzle; no solution or grid to check\n")
    assert main(["show", PZPRJS_NONOGRAM, "--ascii"]) == 0
    assert capsys.readouterr().out.startswith("6x6\n")


def test_convert_names_what_a_url_drops(tmp_path, capsys):
    solved = tmp_path / "solved.non"
    assert main(["solve", PZPRJS_NONOGRAM, "--out", str(solved)]) == 0
    capsys.readouterr()
    assert main(["convert", str(solved), "-", "--to", "puzzlink"]) == 0
    out, err = capsys.readouterr()
    assert out == PZPRJS_NONOGRAM + "\n"
    assert err == ("autoplayer convert: the puzzlink format cannot hold the puzzle's "
                   "solution; left out\n")


def test_ripple_urls_through_convert(tmp_path, capsys):
    text = tmp_path / "r.txt"
    assert main(["convert", PZPRJS_RIPPLE, str(text)]) == 0
    assert text.read_text() == RIPPLE_TEXT
    assert main(["ripple", "convert", str(text), "-", "--to", "puzzlink"]) == 0
    assert capsys.readouterr().out == PZPRJS_RIPPLE + "\n"
    assert main(["convert", PZPRJS_RIPPLE, "-", "--to", "puzzlink"]) == 0
    assert capsys.readouterr().out == PZPRJS_RIPPLE + "\n"
    assert main(["convert", PZPRJS_RIPPLE, "-", "--to", "non"]) == 2
    assert "written in the ripple layout" in capsys.readouterr().err
    assert run_convert(PZPRJS_RIPPLE, "-") == 0
    assert capsys.readouterr().out == RIPPLE_TEXT


def test_ripple_commands_take_a_url_or_a_file_holding_one(tmp_path, capsys):
    link = tmp_path / "link.txt"
    link.write_text(PZPRJS_RIPPLE + "\n")
    out = tmp_path / "o.txt"
    assert main(["ripple", "solve", str(link), str(out)]) == 0
    assert out.read_text() == RIPPLE_SOLUTION
    assert main(["ripple", "check", PZPRJS_RIPPLE, str(out)]) == 0
    assert capsys.readouterr().out.endswith("Solution correct\n")


def test_an_existing_file_wins_over_a_url_shaped_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    odd = tmp_path / "?nonogram"
    odd.write_text("4x4:2/1/2/1/1.1/2/1/1\n")
    assert main(["check", "?nonogram"]) == 0
    assert "valid 4x4 puzzle" in capsys.readouterr().out


def test_url_errors_raise_input_errors_without_a_path():
    with pytest.raises(InputError) as caught:
        ripple_link.parse_url("https://puzz.link/p?ripple/2/2/")
    assert caught.value.path is None
    assert "the data ends inside the room walls" in caught.value.message


def test_read_prints_the_board_it_read_as_a_url(capsys: pytest.CaptureFixture[str]) -> None:
    """`read` ends with the board as a Tatham game ID and as a puzz.link URL: the same
    puzzle either way, ready to share or to give to `solve`."""
    shot = Path(__file__).resolve().parent.parent / "examples" / "PixeloScreenshot.png"
    assert main(["read", str(shot)]) == 0
    *_, game_id, url = capsys.readouterr().out.strip().splitlines()
    assert url.startswith("https://puzz.link/p?nonogram/20/20/")
    from_url, from_id = load_puzzle(url), load_puzzle(game_id)
    assert (from_url.rows, from_url.columns) == (from_id.rows, from_id.columns)
