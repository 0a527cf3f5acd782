"""Ripple Effect text files: read puzzles and solutions, write both.

Two puzzle layouts, told apart by content:

- CSCI 3136 (the spec): R lines of room ids, a blank line, R lines of values
  with `-` for an empty cell;
- values first (hunterknepshield/RippleEffectSolver): R lines of values with
  `0` for an empty cell, a blank line, R lines of room ids (right-aligned ids
  are fine: entries are split on whitespace).

The grid holding a dash is the values; without dashes, a grid of zeros is. A
fully given puzzle has neither, so both orders are tried, the spec's first.
Solutions are R lines of values; a complete puzzle file in either layout is
accepted too (the grid whose rooms match the puzzle's is taken as the rooms).

Every number is read through `limits.whole_number`: a room number has at most
nine digits, a value is at most `MAX_VALUE` (and a puzzle's given at most its
room's size; a solution's larger value is the checker's to report), and a grid
has at most `MAX_SIDE` rows and columns. Reading stops at the first line past a
limit, so no file makes it slow.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from autoplayer.errors import InputError
from autoplayer.games.ripple.model import EMPTY, MAX_SIDE, MAX_VALUE, Puzzle, room_parts
from autoplayer.limits import shown, whole_number

DASHES = frozenset({"-", "–", "—"})
"""An empty cell; the en and em dash come with text pasted from a PDF."""

MAX_ROOM_ID = 999_999_999
"""Room numbers are only labels, so any of up to nine digits will do."""

_BREAKS = re.compile("\r\n?|[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""Line breaks other than LF, as `str.splitlines` knows them (line numbers agree with it)."""
_LINE = re.compile(r"\S[^\n]*")
"""A line's text from its first non-blank character."""
_TOKEN = re.compile(r"\S+")
_SHORT = 4096
"""A line this long is split whole (it has at most 2,048 entries); a longer one is read
entry by entry, only as far as `MAX_SIDE` + 1."""


@dataclass(frozen=True)
class Block:
    """One grid of a file: its entries row by row and the file line of each row."""

    lines: tuple[int, ...]
    rows: tuple[tuple[str, ...], ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def has(self, tokens: frozenset[str]) -> bool:
        return any(t in tokens for row in self.rows for t in row)


def split_blocks(text: str, most: int = 3) -> list[Block]:
    """Runs of non-blank lines, each checked to be a rectangle of at most `MAX_SIDE` rows
    and columns; reading stops at the first row of the `most`-th run."""
    text = _BREAKS.sub("\n", text)
    blocks: list[Block] = []
    lines: list[int] = []
    rows: list[tuple[str, ...]] = []
    number, pos = 1, 0
    for match in _LINE.finditer(text):
        number += text.count("\n", pos, match.start())
        pos = match.start()
        if match.end() - match.start() <= _SHORT:
            tokens = tuple(match.group().split())
        else:
            tokens = tuple(m.group() for m in islice(
                _TOKEN.finditer(text, match.start(), match.end()), MAX_SIDE + 1))
        if len(tokens) > MAX_SIDE:
            raise InputError(f"row has more than {MAX_SIDE} entries; a board has at most "
                             f"{MAX_SIDE} columns", line=number)
        if rows and number > lines[-1] + 1:
            blocks.append(Block(tuple(lines), tuple(rows)))
            lines, rows = [], []
        if rows and len(tokens) != len(rows[0]):
            raise InputError(
                f"row has {len(tokens)} entries but line {lines[0]} has {len(rows[0])}"
                " (every row of a grid needs the same number)", line=number)
        if len(rows) == MAX_SIDE:
            raise InputError(f"grid has more than {MAX_SIDE} rows; a board has at most "
                             f"{MAX_SIDE} rows", line=number)
        lines.append(number)
        rows.append(tokens)
        if len(blocks) == most - 1:
            break
    if rows:
        blocks.append(Block(tuple(lines), tuple(rows)))
    return blocks


def _number(token: str, line: int, column: int, what: str, noun: str, most: int,
            least: int = 0) -> int:
    """`token` as a number of `least..most`; `what` names it when it is no number at all."""
    if not token.isascii() or not token.isdigit():
        raise InputError(f"{shown(token[:64])!r} is not {what}", line=line)
    return whole_number(token, most, f"column {column}'s {noun}", line=line, least=least)


def _room_ids(block: Block) -> list[list[int]]:
    return [[_number(t, line, col, "a room number", "room number", MAX_ROOM_ID)
             for col, t in enumerate(row, start=1)]
            for line, row in zip(block.lines, block.rows, strict=True)]


def _values(block: Block, zero_is_empty: bool) -> list[list[int]]:
    """Values of a grid, each at most `MAX_VALUE` (its room is checked after)."""
    what = "a value or 0" if zero_is_empty else "a value or '-'"
    grid = []
    for line, row in zip(block.lines, block.rows, strict=True):
        out = []
        for col, token in enumerate(row, start=1):
            if not zero_is_empty and token in DASHES:
                out.append(EMPTY)
                continue
            if not zero_is_empty and token.isascii() and token.isdigit() \
                    and not token.strip("0"):
                raise InputError("0 is not a value (an empty cell is '-')", line=line)
            out.append(_number(token, line, col, what, "value", MAX_VALUE,
                               least=0 if zero_is_empty else 1))
        grid.append(out)
    return grid


def _same_shape(first: Block, second: Block) -> None:
    if len(second.rows) != len(first.rows):
        # Point at the first row too many, or at the last row of the short grid.
        line = second.lines[len(first.rows)] if len(second.rows) > len(first.rows) \
            else second.lines[-1]
        raise InputError(
            f"the second grid has {len(second.rows)} rows, the first {len(first.rows)}",
            line=line)
    if second.width != first.width:
        raise InputError(
            f"the second grid has {second.width} columns, the first {first.width}",
            line=second.lines[0])


def _build(rooms: Block, values: Block, zero_is_empty: bool) -> Puzzle:
    """The puzzle, after checking that rooms are regions and givens fit them."""
    puzzle = Puzzle.build(_room_ids(rooms), _values(values, zero_is_empty))
    cols = puzzle.cols
    for parts in room_parts(puzzle.rows, cols, puzzle.rooms).values():
        if len(parts) > 1:
            (r1, c1), (r2, c2) = divmod(parts[0][0], cols), divmod(parts[1][0], cols)
            label = _room_ids(rooms)[r1][c1]
            raise InputError(
                f"room {label} is in separate pieces (column {c1 + 1} of line "
                f"{rooms.lines[r1]} and column {c2 + 1} of line {rooms.lines[r2]}); "
                "a room must be one connected area", line=rooms.lines[r2])
    for cell, value in enumerate(puzzle.givens):
        if value > puzzle.room_size[cell]:
            r, c = divmod(cell, cols)
            raise InputError(
                f"value {value} in column {c + 1} is larger than its room "
                f"({puzzle.room_size[cell]} cells)", line=values.lines[r])
    return puzzle


def parse_puzzle(text: str, path: str | Path | None = None) -> Puzzle:
    """A puzzle in either layout; `InputError` naming the line when malformed."""
    try:
        return _parse_puzzle(text)
    except InputError as err:
        raise (err.at(path) if path is not None else err) from None


def _parse_puzzle(text: str) -> Puzzle:
    blocks = split_blocks(text, most=3)
    if not blocks:
        raise InputError("no puzzle here: the file is empty")
    if len(blocks) == 1:
        raise InputError(
            "only one grid; a puzzle is the room grid, a blank line, then the value grid",
            line=blocks[0].lines[-1])
    if len(blocks) > 2:
        raise InputError(
            "a third grid; a puzzle is the room grid, a blank line, then the value grid",
            line=blocks[2].lines[0])
    first, second = blocks
    _same_shape(first, second)
    if first.has(DASHES) and second.has(DASHES):
        raise InputError("'-' in both grids; only the value grid may have empty cells",
                         line=next(ln for ln, row in zip(first.lines, first.rows, strict=True)
                                   if any(t in DASHES for t in row)))
    if second.has(DASHES):
        return _build(first, second, zero_is_empty=False)
    if first.has(DASHES):
        return _build(second, first, zero_is_empty=False)
    zero = frozenset({"0"})
    layouts = [(first, second), (second, first)]  # the spec's order first
    if first.has(zero) and not second.has(zero):
        layouts.reverse()
    errors: list[InputError] = []
    for rooms, values in layouts:
        try:
            return _build(rooms, values, zero_is_empty=True)
        except InputError as err:
            errors.append(err)
    raise errors[0]


def parse_solution(text: str, puzzle: Puzzle, path: str | Path | None = None) -> tuple[int, ...]:
    """Every cell's value, in reading order; the grid must be complete and fit the puzzle."""
    try:
        return _parse_solution(text, puzzle)
    except InputError as err:
        raise (err.at(path) if path is not None else err) from None


def _partition(block: Block) -> tuple[int, ...] | None:
    try:
        return Puzzle.build(_room_ids(block), [[0] * block.width] * len(block.rows)).rooms
    except InputError:
        return None


def _parse_solution(text: str, puzzle: Puzzle) -> tuple[int, ...]:
    blocks = split_blocks(text, most=3)
    if not blocks:
        raise InputError("no solution here: the file is empty")
    if len(blocks) > 2:
        raise InputError("a third grid; a solution is one grid of values",
                         line=blocks[2].lines[0])
    values = blocks[0]
    if len(blocks) == 2:
        shapes_fit = all(len(b.rows) == puzzle.rows and b.width == puzzle.cols for b in blocks)
        matches = [b for b in blocks if shapes_fit and _partition(b) == puzzle.rooms]
        if not matches:
            raise InputError("two grids, and neither has the puzzle's rooms",
                             line=blocks[1].lines[0])
        values = blocks[1] if matches[0] is blocks[0] else blocks[0]
    if len(values.rows) != puzzle.rows or values.width != puzzle.cols:
        raise InputError(
            f"the solution is {len(values.rows)}x{values.width}, the puzzle "
            f"{puzzle.rows}x{puzzle.cols}", line=values.lines[0])
    flat = []
    for line, row in zip(values.lines, values.rows, strict=True):
        for col, token in enumerate(row, start=1):
            if token in DASHES or token == "0":
                raise InputError(f"column {col} is empty; a solution fills every cell",
                                 line=line)
            flat.append(_number(token, line, col, "a value", "value", MAX_VALUE, least=1))
    return tuple(flat)


def format_values(values: Sequence[int] | Sequence[str], cols: int) -> str:
    """The spec's output format: one line per row, values separated by single spaces."""
    rows = [values[i:i + cols] for i in range(0, len(values), cols)]
    return "".join(" ".join(map(str, row)) + "\n" for row in rows)


def format_puzzle(puzzle: Puzzle) -> str:
    """The spec's input layout: room ids from 1, a blank line, values with `-`."""
    rooms = format_values([room + 1 for room in puzzle.rooms], puzzle.cols)
    givens = [str(v) if v != EMPTY else "-" for v in puzzle.givens]
    return f"{rooms}\n{format_values(givens, puzzle.cols)}"
