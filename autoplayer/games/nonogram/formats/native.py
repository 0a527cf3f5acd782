"""The native text format: `WxH`, a blank line, then sections separated by blank lines.

A section is a name on its own line followed by its lines: `title` and
`author` (one line each), `rows` (H clue lines, top to bottom), `columns` (W
clue lines, left to right), `grid` (a partial state, H lines of W cells) and
`solution` (H lines of W cells, every cell known). Clues are numbers
separated by commas (`2,1,3`); an empty line's clue is `0`, since a blank
line ends the section. Cells, optionally separated by spaces (we write them
separated): `#` filled, `X` crossed out (known empty), `.` blank; in `grid`
a blank cell is unknown, in `solution` it is empty. Sections may come in any
order, each at most once; `rows` and `columns` are required, and every
section must match the dimensions of the first line.
"""

from __future__ import annotations

import re

from autoplayer.errors import InputError
from autoplayer.games.nonogram.formats import common
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle

NAME = "native"
EXTENSIONS = (".nonogram",)
CARRIES = frozenset({"title", "author", "grid", "solution"})
DESCRIPTION = "native text format (WxH, then title/author/rows/columns/grid/solution)"

SECTIONS = ("title", "author", "rows", "columns", "grid", "solution")
GRID_CELLS = {"#": FILLED, "X": EMPTY, "x": EMPTY, ".": UNKNOWN}
SOLUTION_CELLS = {"#": FILLED, "X": EMPTY, "x": EMPTY, ".": EMPTY}

_SIZE = re.compile(r"\s*(\d+)\s*[xX]\s*(\d+)\s*")


def looks_like(text: str) -> bool:
    return bool(_SIZE.fullmatch(text.lstrip("\ufeff").split("\n", 1)[0]))


def parse(text: str) -> Puzzle:
    lines = common.split_lines(text)
    size = _SIZE.fullmatch(lines[0])
    if size is None:
        raise InputError(
            f"first line must be the size as WIDTHxHEIGHT (like 10x15), not {lines[0][:40]!r}",
            line=1,
        )
    width = common.side(size[1], "width", 1)
    height = common.side(size[2], "height", 1)
    if len(lines) < 2:
        raise InputError("no sections after the size line (truncated file?)", line=1)
    if lines[1].strip():
        raise InputError("the size line must be followed by a blank line", line=2)
    sections = _sections(lines)
    for name in ("rows", "columns"):
        if name not in sections:
            raise InputError(f"no {name} section (truncated file?)", line=len(lines))
    fields: dict = {}
    for name in ("title", "author"):
        if name in sections:
            header, body = sections[name]
            if len(body) != 1:
                raise InputError(
                    f"{name} section must have one line, not {len(body)}",
                    line=body[1][0] if body else header,
                )
            fields[name] = body[0][1].strip()
    for name, kind, count, length in (("rows", "row", height, width),
                                      ("columns", "column", width, height)):
        header, body = sections[name]
        _count(name, body, count, header, f"the puzzle has {count} {name}")
        fields[name] = tuple(
            common.clue([t for t in re.split(r"[,\s]+", text) if t],
                        kind=kind, index=i, length=length, line=n)
            for i, (n, text) in enumerate(body, 1)
        )
    for name, chars in (("grid", GRID_CELLS), ("solution", SOLUTION_CELLS)):
        if name in sections:
            header, body = sections[name]
            _count(name, body, height, header, f"the puzzle is {height} high")
            fields[name] = common.grid_array(
                common.cells(text, chars, width=width, what=f"{name} row {i}", line=n)
                for i, (n, text) in enumerate(body, 1)
            )
    return common.checked(Puzzle(**fields), sections["columns"][0])


def _sections(lines: list[str]) -> dict[str, tuple[int, list[tuple[int, str]]]]:
    """Section name -> (its header's line number, its (line number, text) lines)."""
    sections: dict[str, tuple[int, list[tuple[int, str]]]] = {}
    current: list[tuple[int, str]] | None = None
    for n, line in enumerate(lines[2:], 3):
        if not line.strip():
            current = None
        elif current is not None:
            current.append((n, line))
        else:
            name = line.strip()
            if name not in SECTIONS:
                raise InputError(
                    f"unknown section {name[:40]!r} (sections: {', '.join(SECTIONS)}; "
                    "a blank line ends a section)",
                    line=n,
                )
            if name in sections:
                raise InputError(f"a second {name} section", line=n)
            current = []
            sections[name] = (n, current)
    return sections


def _count(name: str, body: list[tuple[int, str]], expected: int, header: int, why: str) -> None:
    if len(body) > expected:
        raise InputError(f"{name}: more than {expected} lines ({why})", line=body[expected][0])
    if len(body) < expected:
        raise InputError(
            f"{name}: {len(body)} lines but {why}",
            line=body[-1][0] if body else header,
        )


def format(puzzle: Puzzle) -> str:
    out = [f"{puzzle.width}x{puzzle.height}"]
    for name, value in (("title", puzzle.title), ("author", puzzle.author)):
        if value.strip():
            out += ["", name, common.one_line(value)]
    for name, clues in (("rows", puzzle.rows), ("columns", puzzle.columns)):
        out += ["", name]
        out += [",".join(map(str, c)) if c else "0" for c in clues]
    if puzzle.grid is not None:
        out += ["", "grid"]
        out += [" ".join(row) for row in common.cell_string(puzzle.grid, "#", "X", ".")]
    if puzzle.solution is not None:
        out += ["", "solution"]
        out += [" ".join(row) for row in common.cell_string(puzzle.solution, "#", ".", "?")]
    return "\n".join(out) + "\n"
