"""Nonogram file formats: round trips, the shared puzzles, detection, load/save."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autoplayer import files
from autoplayer.errors import InputError, UserError
from autoplayer.games.nonogram.formats import (
    FORMATS,
    detect_format,
    dropped_fields,
    format_puzzle,
    load_puzzle,
    parse_puzzle,
    save_puzzle,
)
from autoplayer.games.nonogram.model import (
    EMPTY,
    FILLED,
    UNKNOWN,
    Puzzle,
    differences,
    puzzle_from_grid,
    satisfies,
)

ALL = tuple(FORMATS)
META = ("title", "author", "copyright")


def test_registry_names_the_six_formats():
    assert set(ALL) == {"native", "non", "webpbn", "tatham", "nin", "puzzlink"}


# ---------------------------------------------------------------- round trips

_text = st.text(
    alphabet=st.sampled_from(list("abcXYZ 019&\"'<>;#,.=/?©éß")), min_size=0, max_size=20
).map(str.strip)


@st.composite
def puzzles(draw) -> Puzzle:
    """Random pictures 1..30 a side, some lines forced empty, with a partial grid and text."""
    h = draw(st.integers(1, 30))
    w = draw(st.integers(1, 30))
    density = draw(st.floats(0.0, 1.0))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    solution = (rng.random((h, w)) < density).astype(np.int8)
    if draw(st.booleans()):
        solution[rng.integers(0, h)] = EMPTY
        solution[:, rng.integers(0, w)] = EMPTY
    meta = {name: draw(_text) for name in META}
    puzzle = puzzle_from_grid(solution, **meta)
    if draw(st.booleans()):
        known = rng.random((h, w)) < draw(st.floats(0.0, 1.0))
        grid = np.where(known, solution, UNKNOWN).astype(np.int8)
        puzzle = puzzle.with_grid(grid)
    if draw(st.booleans()):
        puzzle = Puzzle(puzzle.rows, puzzle.columns, **meta, grid=puzzle.grid)
    return puzzle


@pytest.mark.parametrize("fmt", ALL)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=puzzles())
def test_round_trip_keeps_everything_the_format_carries(fmt, puzzle):
    text = format_puzzle(puzzle, fmt)
    back = parse_puzzle(text, fmt)
    carried = ["rows", "columns", *sorted(FORMATS[fmt].carries)]
    assert differences(puzzle, back, carried) == []
    # What the format cannot carry comes back absent, and is reported as dropped.
    for name in set(("grid", "solution", *META)) - FORMATS[fmt].carries:
        assert not getattr(back, name)
    expected_drop = [n for n in ("title", "author", "copyright", "grid", "solution")
                     if n not in FORMATS[fmt].carries and getattr(puzzle, n) is not None
                     and (not isinstance(getattr(puzzle, n), str) or getattr(puzzle, n))]
    assert dropped_fields(puzzle, fmt) == expected_drop
    # Content detection recognises what we write.
    assert detect_format(None, text) == fmt


@pytest.mark.parametrize("fmt", ALL)
def test_round_trip_of_an_all_empty_puzzle(fmt):
    puzzle = puzzle_from_grid(np.zeros((3, 4), dtype=np.int8))
    back = parse_puzzle(format_puzzle(puzzle, fmt), fmt)
    assert back.rows == ((),) * 3 and back.columns == ((),) * 4


# ---------------------------------------------------------------- shared data

def _shared_puzzles(shared_dir: Path) -> list[Path]:
    files = sorted(p for p in (shared_dir / "nonograms").rglob("*") if p.suffix in (".non",
                                                                                   ".nin"))
    assert len(files) >= 30, files
    return files


def test_every_shared_puzzle_loads_with_consistent_clues(shared_dir):
    with_goal = 0
    for path in _shared_puzzles(shared_dir):
        puzzle = load_puzzle(path)
        assert sum(map(sum, puzzle.rows)) == sum(map(sum, puzzle.columns)), path
        assert 1 <= puzzle.width <= 200 and 1 <= puzzle.height <= 200
        if path.suffix == ".non":
            assert puzzle.solution is not None, path
            assert satisfies(puzzle, puzzle.solution), path
            with_goal += 1
    assert with_goal == 28


def test_shared_puzzle_details(shared_dir):
    dancer = load_puzzle(shared_dir / "nonograms/griddler-solver/webpbn-00001.non")
    assert (dancer.width, dancer.height) == (5, 10)
    assert dancer.title == "Demo Puzzle from Front Page"
    assert dancer.author == "Jan Wolter"
    assert dancer.copyright == "© Copyright 2004 by Jan Wolter"  # &copy; decoded
    assert dancer.rows[1] == (2, 1) and dancer.columns[1] == (2, 1, 3)
    assert dancer.solution[0].tolist() == [0, 1, 1, 0, 0]
    life = load_puzzle(shared_dir / "nonograms/nonogram-db/gnonograms/42.non")
    assert life.columns[18] == ()  # written as 0
    owl = load_puzzle(shared_dir / "nonograms/jwilk-nonogram/data091.nin")
    assert (owl.width, owl.height) == (25, 25) and owl.rows[0] == (1, 1)


def test_shared_puzzles_survive_every_format(shared_dir, tmp_path):
    source = load_puzzle(shared_dir / "nonograms/nonogram-db/qnonograms/tiger.non")
    for fmt, info in FORMATS.items():
        out = tmp_path / f"tiger{info.extensions[0] if info.extensions else '.txt'}"
        save_puzzle(source, out, fmt)
        back = load_puzzle(out)
        assert differences(source, back, ["rows", "columns", *info.carries]) == [], fmt


# ---------------------------------------------------------------- Tatham game IDs

def test_tatham_example_from_pattern_c():
    puzzle = load_puzzle("4x4:2/1/2/1/1.1/2/1/1")
    assert puzzle.columns == ((2,), (1,), (2,), (1,))
    assert puzzle.rows == ((1, 1), (2,), (1,), (1,))
    assert puzzle.grid is None
    assert format_puzzle(puzzle, "tatham") == "4x4:2/1/2/1/1.1/2/1/1\n"


def test_tatham_square_shorthand_and_empty_entries():
    puzzle = load_puzzle("2:/1/1/")
    assert puzzle.columns == ((), (1,)) and puzzle.rows == ((1,), ())


def test_tatham_given_cells_decode_as_pattern_c_does():
    # 'b' skips 1 cell then gives cell 1 empty; 'C' skips 2 then gives cell 4 filled;
    # 'l' skips the remaining 11 cells of the 16 without giving one.
    puzzle = load_puzzle("4x4:2/1/2/1/1.1/2/1/1,bCl")
    expected = np.full(16, UNKNOWN)
    expected[1], expected[4] = EMPTY, FILLED
    assert puzzle.grid.ravel().tolist() == expected.tolist()
    assert format_puzzle(puzzle, "tatham").strip() == "4x4:2/1/2/1/1.1/2/1/1,bCl"


def test_tatham_long_skips_use_z():
    puzzle = puzzle_from_grid(np.ones((1, 60), dtype=np.int8))
    grid = np.full((1, 60), UNKNOWN, dtype=np.int8)
    grid[0, 55] = FILLED
    text = format_puzzle(puzzle.with_grid(grid), "tatham")
    assert text.strip().endswith(",zzFe")  # skip 25, 25, then 5 and give; 4 left
    assert parse_puzzle(text, "tatham").grid.tolist() == grid.tolist()


def test_tatham_game_id_reads_with_sgt_pattern_conventions():
    with pytest.raises(InputError, match="too few clue entries"):
        load_puzzle("4x4:2/1/2/1/1.1/2/1")
    with pytest.raises(InputError, match="clue numbers must be positive"):
        load_puzzle("2x1:0/1/1")


# ---------------------------------------------------------------- native details

NATIVE = """\
3x2

title
Corner

author
Someone

rows
2
1,1

columns
2
1
1

grid
# . X
. . .

solution
# # .
# . #
"""


def test_native_sections_and_cell_characters():
    puzzle = parse_puzzle(NATIVE, "native")
    assert puzzle.title == "Corner" and puzzle.author == "Someone"
    assert puzzle.grid.tolist() == [[FILLED, UNKNOWN, EMPTY], [UNKNOWN] * 3]
    assert puzzle.solution.tolist() == [[1, 1, 0], [1, 0, 1]]
    assert format_puzzle(puzzle, "native") == NATIVE


def test_native_sections_in_any_order_cells_without_spaces():
    text = "2x1\n\ncolumns\n1\n0\n\nsolution\n#.\n\nrows\n1\n"
    puzzle = parse_puzzle(text, "native")
    assert puzzle.rows == ((1,),) and puzzle.columns == ((1,), ())


# ---------------------------------------------------------------- .non details

def test_non_goal_unquoted_multiline_and_blank_empty_lines():
    text = """\
width 3
height 3
unknownkey whatever
# a comment-like line, ignored as an unknown line
rows
1
1,1

columns
2

1
goal
100
101
000
"""
    puzzle = parse_puzzle(text, "non")
    # the rows section has 2 non-blank lines for a height of 3: the blank one is an empty row
    assert puzzle.rows == ((1,), (1, 1), ())
    assert puzzle.columns == ((2,), (), (1,))
    assert puzzle.solution.tolist() == [[1, 0, 0], [1, 0, 1], [0, 0, 0]]


def test_non_goal_quoted_over_several_lines_and_properties():
    text = ('catalogue "x"\ntitle "A &amp; B"\nby Someone\nlicense CC-BY-3.0\n'
            'columns 2\nrows 1\nrows\n2\ncolumns\n1\n1\ngoal "1\n1"\n')
    puzzle = parse_puzzle(text, "non")
    assert puzzle.title == "A & B" and puzzle.author == "Someone"
    assert (puzzle.width, puzzle.height) == (2, 1)
    assert puzzle.solution.tolist() == [[1, 1]]


def test_non_saved_grid_with_unknowns():
    text = "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\nsaved \"1?\"\n"
    assert parse_puzzle(text, "non").grid.tolist() == [[FILLED, UNKNOWN]]


# ---------------------------------------------------------------- webpbn details

WEBPBN = """\
<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.1.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<source>webpbn.com</source>
<id>#1</id>
<title>Tiny</title>
<author>Me</author>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns"><line><count>2</count></line><line/><line><count>1</count></line></clues>
<clues type="rows">
<line><count>1</count><count>1</count></line>
<line><count>1</count></line>
</clues>
<solution type="goal"><image>
|X.X|
|X..|
</image></solution>
</puzzle>
</puzzleset>
"""


def test_webpbn_reads_clues_meta_and_goal():
    puzzle = parse_puzzle(WEBPBN)
    assert puzzle.title == "Tiny" and puzzle.author == "Me"
    assert puzzle.columns == ((2,), (), (1,)) and puzzle.rows == ((1, 1), (1,))
    assert puzzle.solution.tolist() == [[1, 0, 1], [1, 0, 0]]


def test_webpbn_image_without_bars_and_a_saved_grid():
    text = WEBPBN.replace("|X.X|\n|X..|", "X.X\nX..").replace(
        "</puzzle>", '<solution type="saved"><image>|X?.|\n|??.|</image></solution>\n</puzzle>')
    puzzle = parse_puzzle(text, "webpbn")
    assert puzzle.solution.tolist() == [[1, 0, 1], [1, 0, 0]]
    assert puzzle.grid.tolist() == [[FILLED, UNKNOWN, EMPTY], [UNKNOWN, UNKNOWN, EMPTY]]


@pytest.mark.parametrize(
    ("fmt", "title", "expected"),
    # A form feed is written as a space: XML cannot hold one, and a terminal acts on it.
    [("native", "a\u2028b\x85c\x0cd", "a\u2028b\x85c d"),
     ("non", "a\u2028b\x85c\x0cd", "a\u2028b\x85c d"),
     ("webpbn", "a\u2028b\x85c\x0cd", "a\u2028b\x85c d")],
)
def test_unicode_line_separators_in_a_title_do_not_split_lines(fmt, title, expected):
    puzzle = puzzle_from_grid(np.array([[1, 0, 1]], dtype=np.int8), title=title)
    text = format_puzzle(puzzle, fmt).replace("\n", "\r\n")
    assert parse_puzzle(text, fmt).title == (expected or title)


def test_byte_order_mark_is_ignored():
    assert parse_puzzle("\ufeff" + NATIVE).title == "Corner"


def test_webpbn_colour_puzzle_is_refused_clearly():
    colour = WEBPBN.replace("<count>1</count></line>\n</clues>",
                            '<count color="red">1</count></line>\n</clues>')
    with pytest.raises(InputError, match="colour puzzles are not supported") as err:
        parse_puzzle(colour, path="c.xml")
    assert str(err.value).startswith("c.xml:14: ")  # the <line> holding the red count


def test_webpbn_entity_declarations_are_refused():
    bomb = WEBPBN.replace(
        '<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.1.dtd">',
        '<!DOCTYPE pbn [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>',
    ).replace("<title>Tiny</title>", "<title>&b;</title>")
    with pytest.raises(InputError, match="entity declarations are refused"):
        parse_puzzle(bomb, "webpbn")


# ---------------------------------------------------------------- detection, load, save

@pytest.mark.parametrize(
    ("name", "expected"),
    [("a.non", "non"), ("a.NIN", "nin"), ("a.xml", "webpbn"), ("a.pbn", "webpbn"),
     ("a.pattern", "tatham"), ("a.nonogram", "native")],
)
def test_detect_by_extension(name, expected):
    assert detect_format(name, "anything") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [(NATIVE, "native"), (WEBPBN, "webpbn"), ("3 2\n2\n1 1\n2\n1\n1\n", "nin"),
     ("width 1\nheight 1\nrows\n1\ncolumns\n1\n", "non"), ("1x1:1/1\n", "tatham")],
)
def test_detect_by_content_when_the_extension_says_nothing(text, expected):
    assert detect_format("puzzle.txt", text) == expected
    assert parse_puzzle(text, path="puzzle.txt").width >= 1


def test_undetectable_content_is_an_input_error():
    with pytest.raises(InputError, match="cannot tell the puzzle format") as err:
        parse_puzzle("hello\n", path="x.txt")
    assert str(err.value).startswith("x.txt:1: ")


def test_load_puzzle_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_puzzle(tmp_path / "nope.non")
    with pytest.raises(InputError, match="no such file"):
        load_puzzle(str(tmp_path / "nope.non"))


def test_load_puzzle_prefers_an_existing_file_over_game_id_syntax(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("1x1:1").write_text("2 1\n2\n1\n1\n")  # a file whose name looks like a game ID
    assert load_puzzle("1x1:1").width == 2


def test_save_puzzle_infers_format_and_refuses_unknown_extension(tmp_path):
    puzzle = puzzle_from_grid(np.array([[1, 0]], dtype=np.int8), title="t")
    save_puzzle(puzzle, tmp_path / "p.non")
    assert (tmp_path / "p.non").read_text().startswith('title "t"')
    with pytest.raises(UserError, match="cannot tell the format"):
        save_puzzle(puzzle, tmp_path / "p.unknown")
    save_puzzle(puzzle, tmp_path / "p.unknown", "nin")
    assert (tmp_path / "p.unknown").read_text() == "2 1\n1\n1\n0\n"


def test_save_puzzle_leaves_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    target = tmp_path / "keep.non"
    target.write_text("original\n")
    target.chmod(0o640)
    puzzle = puzzle_from_grid(np.array([[1]], dtype=np.int8))

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(UserError, match="No space left on device"):
        save_puzzle(puzzle, target)
    assert target.read_text() == "original\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.non"]  # no temp file left
    monkeypatch.undo()
    save_puzzle(puzzle, target)
    assert target.read_text().startswith("width 1")
    assert target.stat().st_mode & 0o777 == 0o640  # permissions of the replaced file kept
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_save_puzzle_unknown_format_name_touches_nothing(tmp_path):
    target = tmp_path / "keep.non"
    target.write_text("original\n")
    with pytest.raises(UserError, match="unknown format 'svg'"):
        save_puzzle(puzzle_from_grid(np.array([[1]], dtype=np.int8)), target, "svg")
    assert target.read_text() == "original\n"


# ---------------------------------------------------------------- Tatham save files

def _save_file(desc: str, moves: list[tuple[str, str]], statepos: int | None = None,
               game: str = "Pattern") -> str:
    records = [("SAVEFILE", "Simon Tatham's Portable Puzzle Collection"), ("VERSION", "1"),
               ("GAME", game), ("PARAMS", "4x4"), ("CPARAMS", "4x4"), ("DESC", desc),
               ("NSTATES", str(len(moves) + 1)),
               ("STATEPOS", str(len(moves) + 1 if statepos is None else statepos)), *moves]
    return "".join(f"{key:<8}:{len(value)}:{value}\n" for key, value in records)


def test_save_file_replays_moves_up_to_its_position():
    desc = "2/1/2/1/1.1/2/1/1,bCl"  # cell 1 given empty, cell 4 given filled
    moves = [("MOVE", "F1,1,2,2"), ("MOVE", "E0,0,4,1"), ("MOVE", "U0,1,4,1")]
    grid = parse_puzzle(_save_file(desc, moves, statepos=3)).grid
    assert grid.tolist() == [[0, 0, 0, 0], [1, 1, 1, -1], [-1, 1, 1, -1], [-1] * 4]
    # undone back to the start: only the given cells
    assert parse_puzzle(_save_file(desc, moves, statepos=1)).grid.tolist() == (
        [[-1, 0, -1, -1], [1, -1, -1, -1], [-1] * 4, [-1] * 4])
    # 'U' over the row leaves the given filled cell alone (pattern.c: immutable)
    assert parse_puzzle(_save_file(desc, moves)).grid[1].tolist() == [1, -1, -1, -1]


def test_save_file_solve_and_restart_records():
    desc = "2/1/2/1/1.1/2/1/1"
    solve = ("SOLVE", "S1010110000100010")
    assert parse_puzzle(_save_file(desc, [solve])).grid.tolist() == [
        [1, 0, 1, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 0]]
    restarted = parse_puzzle(_save_file(desc, [solve, ("RESTART", desc)])).grid
    assert (restarted == UNKNOWN).all()
    assert parse_puzzle(_save_file(desc, [])).grid is None


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (_save_file("2/1/2/1/1.1/2/1/1", [], game="Net"), 3, "a save file of Net, not Pattern"),
        (_save_file("2/1/2/1/1.1/2/1/9", []), 6, "row 4: clue 9 needs 9 cells"),
        (_save_file("2/1/2/1/1.1/2/1/1", [("MOVE", "X0,0,1,1")]), 9, "unrecognised move"),
        (_save_file("2/1/2/1/1.1/2/1/1", [("MOVE", "F3,3,2,1")]), 9, "leaves the 4x4 grid"),
        (_save_file("2/1/2/1/1.1/2/1/1", [], statepos=5), 8, "STATEPOS 5 is outside 1..1"),
        (_save_file("2/1/2/1/1.1/2/1/1", [])[:-30], 6, "truncated file?"),
    ],
)
def test_bad_save_files(text, line, message):
    with pytest.raises(InputError, match=message) as err:
        parse_puzzle(text, path="g.sav")
    assert str(err.value).startswith(f"g.sav:{line}: ")
