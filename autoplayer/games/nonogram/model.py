"""The nonogram model: clues per line and a grid of cell states.

Grids are H×W `numpy.int8` arrays holding `UNKNOWN`, `EMPTY` or `FILLED`, so
a goal string of 0s and 1s maps onto them directly and vision code can compare
them with what it reads without conversion. numpy is imported only when an
array is needed: a reader may hand `Puzzle` plain row lists, which become an
array on first read, so `autoplayer solve` (which never reads the file's goal)
starts without numpy's tenth of a second.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoplayer.errors import InputError

TYPE_CHECKING = False  # as typing's, without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    import numpy as np

UNKNOWN: int = -1
EMPTY: int = 0
FILLED: int = 1

MAX_SIDE = 200

Clue = tuple[int, ...]
"""The run lengths of one line, in reading order; `()` is an empty line."""


class _GridField:
    """`Puzzle.grid` / `Puzzle.solution`: an int8 array, made from row lists on first read."""

    def __init__(self, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, puzzle: Puzzle | None, owner: type | None = None) -> Any:
        if puzzle is None:
            return None
        value = puzzle.__dict__[self.slot]
        if isinstance(value, list):
            import numpy as np

            value = puzzle.__dict__[self.slot] = np.array(value, dtype=np.int8)
        return value

    def __set__(self, puzzle: Puzzle, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {self.slot[1:]!r}: a Puzzle is frozen")


class Puzzle:
    """A black-and-white nonogram, with what a file may carry beside its clues.

    Immutable, compared by identity. A plain class rather than a dataclass: importing
    `dataclasses` (and `inspect` with it) is a third of a small `solve`'s start-up.
    """

    grid = _GridField("grid")
    """A partial state (a saved game, what a screen shows); None when nothing is known."""
    solution = _GridField("solution")
    """The goal the file gives, when it gives one (not checked against the clues here)."""

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    title: str
    author: str
    copyright: str

    def __init__(self, rows: tuple[Clue, ...], columns: tuple[Clue, ...], title: str = "",
                 author: str = "", copyright: str = "", grid: np.ndarray | None = None,
                 solution: np.ndarray | None = None) -> None:
        self.__dict__.update(rows=rows, columns=columns, title=title, author=author,
                             copyright=copyright, _grid=grid, _solution=solution)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Puzzle is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Puzzle is frozen")

    def __repr__(self) -> str:
        return (f"Puzzle(rows={self.rows!r}, columns={self.columns!r}, title={self.title!r}, "
                f"author={self.author!r}, copyright={self.copyright!r})")

    def replace(self, **changes: Any) -> Puzzle:
        """A copy with `changes` (field names as `__init__`'s); grids given as row lists stay
        lists until read."""
        d = self.__dict__
        fields = {"rows": d["rows"], "columns": d["columns"], "title": d["title"],
                  "author": d["author"], "copyright": d["copyright"], "grid": d["_grid"],
                  "solution": d["_solution"]}
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"Puzzle has no field {sorted(unknown)[0]!r}")
        return Puzzle(**{**fields, **changes})

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def height(self) -> int:
        return len(self.rows)

    def with_solution(self, solution: np.ndarray) -> Puzzle:
        import numpy as np

        return self.replace(solution=np.asarray(solution, dtype=np.int8))

    def with_grid(self, grid: np.ndarray | None) -> Puzzle:
        import numpy as np

        return self.replace(grid=None if grid is None else np.asarray(grid, dtype=np.int8))


def _shape(grid: Any) -> tuple[int, ...]:
    """A grid's shape without building an array from row lists."""
    if isinstance(grid, list):
        return (len(grid), len(grid[0]) if grid else 0)
    return grid.shape


FIELDS: tuple[str, ...] = ("rows", "columns", "title", "author", "copyright", "grid", "solution")
"""Everything a puzzle file can carry, in the order files usually give it."""


def differences(a: Puzzle, b: Puzzle, fields: Sequence[str] = FIELDS) -> list[str]:
    """Names of the fields in which two puzzles differ (Puzzle has no `==`: it holds arrays)."""
    out = []
    for name in fields:
        x, y = getattr(a, name), getattr(b, name)
        if name in ("grid", "solution"):
            import numpy as np

            same = (x is None and y is None) or (
                x is not None and y is not None and np.array_equal(x, y)
            )
        else:
            same = x == y
        if not same:
            out.append(name)
    return out


def line_clue(line: Sequence[int] | np.ndarray) -> Clue:
    """The clue of a fully known line (cells EMPTY or FILLED)."""
    runs: list[int] = []
    run = 0
    for cell in line:
        if cell == FILLED:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    return tuple(runs)


def clues_of(grid: np.ndarray) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """Row and column clues of a fully known grid."""
    import numpy as np

    g = np.asarray(grid)
    return tuple(line_clue(r) for r in g), tuple(line_clue(c) for c in g.T)


def puzzle_from_grid(grid: np.ndarray, **meta: str) -> Puzzle:
    import numpy as np

    rows, columns = clues_of(grid)
    return Puzzle(rows, columns, solution=np.asarray(grid, dtype=np.int8), **meta)


def satisfies(puzzle: Puzzle, grid: np.ndarray) -> bool:
    """Whether a fully known grid has exactly the puzzle's clues."""
    import numpy as np

    g = np.asarray(grid)
    if g.shape != (puzzle.height, puzzle.width) or (g == UNKNOWN).any():
        return False
    return clues_of(g) == (puzzle.rows, puzzle.columns)


def min_length(clue: Clue) -> int:
    """Cells a clue needs at least: its runs plus one gap between each two."""
    return sum(clue) + max(len(clue) - 1, 0)


def validate(puzzle: Puzzle) -> None:
    """Raise `InputError` (without a path; readers add it) when the puzzle is malformed."""
    w, h = puzzle.width, puzzle.height
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise InputError(f"size {w}x{h} is outside 1x1..{MAX_SIDE}x{MAX_SIDE}")
    for kind, clues, length in (("row", puzzle.rows, w), ("column", puzzle.columns, h)):
        for i, clue in enumerate(clues, 1):
            if any(n < 1 for n in clue):
                raise InputError(f"{kind} {i}: clue {clue_text(clue)} has a number below 1")
            if min_length(clue) > length:
                raise InputError(
                    f"{kind} {i}: clue {clue_text(clue)} needs {min_length(clue)} cells "
                    f"but the {kind} has {length}"
                )
    row_total = sum(map(sum, puzzle.rows))
    column_total = sum(map(sum, puzzle.columns))
    if row_total != column_total:
        raise InputError(
            f"row clues fill {row_total} cells but column clues fill {column_total}"
        )
    for name in ("grid", "solution"):
        g = puzzle.__dict__["_" + name]  # as the reader gave it: no array built to check it
        shape = None if g is None else _shape(g)
        if shape is not None and shape != (h, w):
            raise InputError(f"{name} is {shape[1]}x{shape[0]} but the puzzle is {w}x{h}")


def clue_text(clue: Clue) -> str:
    return " ".join(map(str, clue)) if clue else "0"


def line_fits(clue: Clue, cells: Sequence[int] | np.ndarray) -> bool:
    """Whether some placement of `clue` agrees with every known cell of a line.

    Dynamic programming, O(n·k): used to check a saved partial grid, not to solve.
    """
    line = [int(c) for c in cells]
    n, k = len(line), len(clue)
    # empties[i]: EMPTY cells in line[:i], to test in O(1) that a run may cover a span
    empties = [0] * (n + 1)
    for i, c in enumerate(line):
        empties[i + 1] = empties[i] + (c == EMPTY)
    # fit[j][i]: the first j runs fit in line[:i], a gap after the last of them included
    fit = [[False] * (n + 1) for _ in range(k + 1)]
    fit[0][0] = True
    for i in range(n + 1):
        for j in range(k + 1):
            if not fit[j][i]:
                continue
            if i < n and line[i] != FILLED:
                fit[j][i + 1] = True
            if j < k:
                end = i + clue[j]
                if end <= n and empties[end] == empties[i]:
                    if end == n:
                        fit[j + 1][n] = True
                    elif line[end] != FILLED:
                        fit[j + 1][end + 1] = True
    return fit[k][n]


def first_disagreement(puzzle: Puzzle, grid: np.ndarray) -> str | None:
    """The first line (rows top to bottom, then columns left to right) that `grid` gets wrong.

    A complete grid must give exactly each clue; a partial one must leave each
    line some placement of its clue. None when every line agrees.
    """
    import numpy as np

    g = np.asarray(grid)
    for kind, clues, lines in (("row", puzzle.rows, g), ("column", puzzle.columns, g.T)):
        for i, (clue, line) in enumerate(zip(clues, lines, strict=True), 1):
            if (line == UNKNOWN).any():
                if not line_fits(clue, line):
                    return f"{kind} {i}: no placement of {clue_text(clue)} fits its known cells"
            elif (got := line_clue(line)) != clue:
                return f"{kind} {i}: clue is {clue_text(clue)} but the cells give {clue_text(got)}"
    return None
