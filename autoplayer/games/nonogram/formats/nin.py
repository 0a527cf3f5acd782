"""Jakub Wilk's `.nin`: `W H`, then H row clues and W column clues, one line each.

Numbers are separated by spaces and `0` is an empty line. The format holds
clues only; blank lines are skipped.
"""

from __future__ import annotations

import re

from autoplayer.errors import InputError
from autoplayer.games.nonogram.formats import common
from autoplayer.games.nonogram.model import Puzzle

NAME = "nin"
EXTENSIONS = (".nin",)
CARRIES: frozenset[str] = frozenset()
DESCRIPTION = "Jakub Wilk's .nin (clues only)"


def looks_like(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0]
    return bool(re.fullmatch(r"\s*\d+\s+\d+\s*", first))


def parse(text: str) -> Puzzle:
    numbered = enumerate(common.split_lines(text), 1)
    lines = [(n, line.strip()) for n, line in numbered if line.strip()]
    head_line, head = lines[0]
    tokens = head.split()
    if len(tokens) != 2:
        raise InputError(f"first line must be 'WIDTH HEIGHT', not {head!r}", line=head_line)
    width = common.side(tokens[0], "width", head_line)
    height = common.side(tokens[1], "height", head_line)
    body = lines[1:]
    if len(body) < width + height:
        last = body[-1][0] if body else head_line
        raise InputError(
            f"{len(body)} clue lines but a {width}x{height} puzzle needs "
            f"{height} rows + {width} columns = {width + height} (truncated file?)",
            line=last,
        )
    if len(body) > width + height:
        raise InputError(
            f"more than {height} rows + {width} columns = {width + height} clue lines",
            line=body[width + height][0],
        )
    rows = tuple(
        common.clue(text.split(), kind="row", index=i, length=width, line=n)
        for i, (n, text) in enumerate(body[:height], 1)
    )
    columns = tuple(
        common.clue(text.split(), kind="column", index=i, length=height, line=n)
        for i, (n, text) in enumerate(body[height:], 1)
    )
    return common.checked(Puzzle(rows, columns), head_line)


def format(puzzle: Puzzle) -> str:
    out = [f"{puzzle.width} {puzzle.height}"]
    out += [" ".join(map(str, c)) if c else "0" for c in puzzle.rows + puzzle.columns]
    return "\n".join(out) + "\n"
