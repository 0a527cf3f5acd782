"""Steve Simpson's `.non` format, with the `goal` and `saved` extensions of pbnsolve.

Line oriented, one key a line, unknown keys ignored (the format's own rule):
`width`/`height` (aliases `columns N`/`rows N`) come first, then `rows` and
`columns` alone on a line start H and W clue lines (`2,1,3`; `0` or a blank
line for an empty line). `goal` is the solution, row-major, `0` empty and any
other character filled, quoted or not, on one line or over several; `saved`
is a partial grid in the same form with `?` for an unknown cell.
"""

from __future__ import annotations

import re

from autoplayer.errors import InputError
from autoplayer.games.nonogram.formats import common
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Clue, Puzzle

NAME = "non"
EXTENSIONS = (".non",)
CARRIES = frozenset({"title", "author", "copyright", "grid", "solution"})
DESCRIPTION = "Steve Simpson's .non, with goal (solution) and saved (partial grid)"

_KEY = re.compile(r"[A-Za-z_]")
_CELL_LINE = re.compile(r'\s*"?[0-9?]+"?\s*')
_PROPERTIES = {"title": "title", "by": "author", "author": "author", "copyright": "copyright"}


def looks_like(text: str) -> bool:
    return bool(
        re.search(r"^[ \t]*(width|height)[ \t]+\d+[ \t]*\r?$", text, re.M)
        and re.search(r"^[ \t]*(rows|columns)[ \t]*\r?$", text, re.M)
    )


def parse(text: str) -> Puzzle:
    lines = common.split_lines(text)
    size: dict[str, int] = {}
    clues: dict[str, tuple[Clue, ...]] = {}
    images: dict[str, list[list[int]]] = {}
    meta: dict[str, str] = {}
    columns_line = 1
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        lineno = i + 1
        i += 1
        if not stripped:
            continue
        if stripped[0].isdigit():
            raise InputError(
                f"clue line {_quote(stripped)} outside the rows and columns sections",
                line=lineno,
            )
        if not _KEY.match(stripped):
            continue  # the format's rule: lines a reader does not know are ignored
        key, *more = stripped.split(None, 1)
        key, rest = key.lower(), (more[0].strip() if more else "")
        if key in ("width", "height", "rows", "columns") and rest:
            name = "width" if key in ("width", "columns") else "height"
            if name in size:
                raise InputError(f"{name} is given twice", line=lineno)
            size[name] = common.side(rest, name, lineno)
        elif key in ("rows", "columns"):
            if len(size) < 2:
                raise InputError(f"{key} section before the width and height lines", line=lineno)
            if key in clues:
                raise InputError(f"a second {key} section", line=lineno)
            if key == "columns":
                columns_line = lineno
            clues[key], i = _clue_section(lines, i, key, size)
        elif key in ("goal", "saved"):
            if len(size) < 2:
                raise InputError(f"{key} before the width and height lines", line=lineno)
            images[key], i = _image(lines, i, key, rest, size, lineno)
        elif key in _PROPERTIES:
            meta[_PROPERTIES[key]] = _value(rest)
    end = len(lines)
    for name in ("width", "height"):
        if name not in size:
            raise InputError(f"no {name} line (truncated file?)", line=end)
    for name in ("rows", "columns"):
        if name not in clues:
            raise InputError(f"no {name} section (truncated file?)", line=end)
    puzzle = Puzzle(
        clues["rows"], clues["columns"],
        title=meta.get("title", ""), author=meta.get("author", ""),
        copyright=meta.get("copyright", ""),
        grid=images.get("saved"), solution=images.get("goal"),
    )
    return common.checked(puzzle, columns_line)


def _clue_section(
    lines: list[str], start: int, key: str, size: dict[str, int]
) -> tuple[tuple[Clue, ...], int]:
    """The clue lines after a `rows`/`columns` line, and the index where the section ends.

    The section runs to the next key line. Blank lines separate when the count
    of non-blank lines is already right; otherwise they are empty lines, with
    blank lines at the edges of the block dropped first.
    """
    expected = size["height"] if key == "rows" else size["width"]
    length = size["width"] if key == "rows" else size["height"]
    kind = key[:-1]
    end = start
    while end < len(lines) and not _KEY.match(lines[end].strip()):
        end += 1
    block = [(n + 1, lines[n].strip()) for n in range(start, end)]
    filled = [entry for entry in block if entry[1]]
    if len(filled) > expected:
        raise InputError(
            f"{key}: more than {expected} clue lines (the puzzle has {expected} {key})",
            line=filled[expected][0],
        )
    if len(filled) < expected:
        while len(block) > expected and not block[-1][1]:
            block.pop()
        while len(block) > expected and not block[0][1]:
            block.pop(0)
        if len(block) != expected:
            last = block[-1][0] if block else start
            raise InputError(
                f"{key}: {len(filled)} clue lines but the puzzle has {expected} {key}",
                line=last,
            )
        filled = block
    out = tuple(
        common.clue(
            [t for t in re.split(r"[,\s]+", text) if t],
            kind=kind, index=index, length=length, line=lineno,
        )
        for index, (lineno, text) in enumerate(filled, 1)
    )
    return out, end


def _image(
    lines: list[str], start: int, key: str, rest: str, size: dict[str, int], lineno: int
) -> tuple[list[list[int]], int]:
    """A goal/saved grid (row lists) and the index after it: quoted, unquoted, or over lines."""
    w, h = size["width"], size["height"]
    end = start
    if rest.startswith('"') and rest.count('"') == 1:
        parts = [rest[1:]]
        while end < len(lines) and '"' not in lines[end]:
            parts.append(lines[end])
            end += 1
        if end == len(lines):
            raise InputError(f"{key}: the quote is never closed", line=lineno)
        parts.append(lines[end].split('"', 1)[0])
        end += 1
        body = "".join(parts)
    elif rest:
        body = rest[1:].split('"', 1)[0] if rest.startswith('"') else rest
    else:
        parts = []
        while end < len(lines) and sum(map(len, parts)) < w * h:
            if not lines[end].strip():
                end += 1
                continue
            if not _CELL_LINE.fullmatch(lines[end]):
                break
            parts.append(lines[end].strip().strip('"'))
            end += 1
        body = "".join(parts)
    body = re.sub(r"\s+", "", body)
    if len(body) != w * h:
        raise InputError(
            f"{key} has {len(body)} cells but the puzzle has {w}x{h} = {w * h}", line=lineno
        )
    if key == "goal" and "?" in body:
        raise InputError("goal: '?' (unknown) in a solution", line=lineno)
    value = {"0": EMPTY, "?": UNKNOWN}
    cells = [value.get(ch, FILLED) for ch in body]
    return [cells[r * w:(r + 1) * w] for r in range(h)], end


def _value(rest: str) -> str:
    """A property value: quoted or bare, HTML entities decoded."""
    if rest.startswith('"') and rest.count('"') >= 2:
        rest = rest[1:rest.rindex('"')]
    if "&" not in rest:
        return rest
    import html  # its table of entities costs a small solve a quarter of its start-up

    return html.unescape(rest)


def _quote(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def format(puzzle: Puzzle) -> str:
    out = []
    for key, value in (("title", puzzle.title), ("by", puzzle.author),
                       ("copyright", puzzle.copyright)):
        if value:
            import html

            out.append(f'{key} "{html.escape(common.one_line(value))}"')
    out += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    out += [",".join(map(str, c)) if c else "0" for c in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(map(str, c)) if c else "0" for c in puzzle.columns]
    for key, grid in (("goal", puzzle.solution), ("saved", puzzle.grid)):
        if grid is not None:
            out += ["", f'{key} "{"".join(common.cell_string(grid, "1", "0", "?"))}"']
    return "\n".join(out) + "\n"
