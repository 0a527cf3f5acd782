"""Reading a nonogram from a screenshot: board, cells, clues, and a check before anyone acts.

`read_nonogram` finds the grid, reads every clue number (scanline state
machines, plus calibrated templates when given), reads what each cell shows,
and validates the puzzle: every clue fits its line, row and column totals
agree and the solver finds a solution. When that fails it re-reads the least
confident numbers with their next-best readings; when nothing works it raises
`InputError` naming the line and the glyph's pixel region, with an ASCII
picture of the glyph. The bot never acts on a reading it could not verify.

A clue may run off the picture's edge (a game window too small for its
clues). By default clue ink on the edge is an error naming the lines, and a
reading whose clues start near the edge is taken only as read, never
corrected (a whole number beyond the edge would explain a misfit too). A
caller that opts in (`clipped=True`) gets those lines' clues as unknown
(None), their visible numbers kept as a known tail, nothing guessed; and it
is cautious the other way too: a number stopping closer to the edge than the
digits of one number stand apart may be cut (its value unknown), and a clue
starting closer to it than numbers are spaced may have whole numbers beyond.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from autoplayer.errors import InputError
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle, min_length
from autoplayer.geometry import Rect
from autoplayer.vision.cells import numbers_in_cells
from autoplayer.vision.clues import ClueLayout, find_clues, gap_threshold
from autoplayer.vision.ends import clues_past_ends
from autoplayer.vision.grid import Grid, continues_past, find_grid
from autoplayer.vision.image import ascii_picture, luminance
from autoplayer.vision.numbers import ClueNumber, read_lines
from autoplayer.vision.sides import ClueSides, clue_sides
from autoplayer.vision.templates import TemplateSet

LOW_CONFIDENCE = 0.5
"""Numbers read with less confidence than this are marked on overlays."""
RETRY_NUMBERS = 8
"""How many of the least confident numbers the validator tries alternatives for."""
SOLVE_SECONDS = 3.0


@dataclass(frozen=True)
class ClippedLine:
    """A line whose clue runs off the picture's edge: only a tail of it is known."""

    kind: str
    """'row' or 'column'."""
    index: int
    cut: bool
    """Its first number read may be cut by the edge: certainly there, value unknown."""
    hidden: int
    """Numbers certainly in the clue before its known tail (a cut one, or ink at the edge
    too little to read as a number)."""

    @property
    def name(self) -> str:
        return f"{self.kind} {self.index + 1}"


@dataclass(frozen=True)
class NonogramReading:
    puzzle: Puzzle
    grid: Grid
    board: Rect
    cells: tuple[tuple[Rect, ...], ...]
    """cells[row][col]: each cell's interior."""
    state: np.ndarray
    """H×W int8: UNKNOWN, FILLED or EMPTY (marked) as the screen shows it."""
    row_numbers: tuple[tuple[ClueNumber, ...], ...]
    column_numbers: tuple[tuple[ClueNumber, ...], ...]
    clipped_rows: tuple[int, ...] = ()
    corrections: tuple[str, ...] = field(default=())
    """What the validator changed from the first reading, e.g. 'row 3: 8 -> 6'."""
    template_set: str | None = None
    """The calibrated templates the clues were read with (None: state machines alone)."""
    clipped: tuple[ClippedLine, ...] = ()
    """Lines whose clue runs off the picture's edge (only with `read_nonogram(clipped=True)`;
    their clue in `puzzle` is None)."""
    layout: ClueLayout | None = field(default=None, repr=False)
    """The clue bands as found (ink dark or light, its levels)."""
    near_edge: tuple[ClippedLine, ...] = ()
    """Without `clipped`: lines whose clue starts nearer the picture's edge than numbers
    stand apart, so that a whole number beyond the edge would not show (see `edge_lines`)."""

    def numbers(self) -> list[tuple[str, int, ClueNumber]]:
        """Every number read, as (kind, line index, number)."""
        return ([("row", i, n) for i, line in enumerate(self.row_numbers) for n in line]
                + [("column", j, n) for j, line in enumerate(self.column_numbers) for n in line])

    def row_or_column(self, kind: str, index: int) -> tuple[ClueNumber, ...]:
        """The numbers read for one line."""
        return (self.row_numbers if kind == "row" else self.column_numbers)[index]

    def tail(self, line: ClippedLine) -> tuple[int, ...]:
        """The numbers of a clipped line certainly in its clue: those after a cut one."""
        return tuple(n.value for n in self.row_or_column(line.kind, line.index)[int(line.cut):])


def read_nonogram(image: np.ndarray, *, templates: TemplateSet | None = None,
                  fallbacks: Iterable[TemplateSet] = (),
                  verify: bool = True, clipped: bool = False, margin: bool = False,
                  min_digit_height: float = 0.0, source: str = "picture") -> NonogramReading:
    """Read the puzzle and board state shown in an H×W×3 RGB image (see module docstring).

    `fallbacks`: template sets to read the clues with when the first reading
    (with `templates`, or the state machines alone) does not validate; the
    reading of the set that fits the glyphs best and validates is taken, and
    `template_set` names it. A game's look is unknown to the bot, so it tries
    every calibrated font it has rather than trusting a guess; the iterable is
    only consumed on that path (loading sets is not free).

    `clipped`: clues running off the picture's edge are left unknown (see the
    module docstring) instead of being an error. `margin`: clues starting near
    the edge (`near_edge`) are an error too, for a caller about to act on the
    reading. `source`: what the picture is, for messages naming its edges ('picture'
    for a file, 'window' for a window's capture). `min_digit_height`: clue
    digits shorter than this many pixels are refused rather than read (a
    game whose small font is misread as often as not).
    """
    if image.ndim != 3 or image.shape[2] < 3:
        raise InputError(f"expected an RGB image, got an array of shape {image.shape}")
    image = image[..., :3]
    grid = find_grid(image)
    refuse_cut_board(image, grid, source)
    refuse_other_puzzles(luminance(image), grid)
    sides = clue_sides(luminance(image), grid)
    refuse_numbers_on_every_side(sides, grid)
    layout = find_clues(image, grid, sides)
    refuse_if_not_a_nonogram(layout)
    refuse_short_board(image, layout)
    has_digits = any(s.groups for s in (*layout.rows, *layout.columns))
    if has_digits and layout.digit_height < min_digit_height:
        board = grid.rect
        raise InputError(f"the clue digits are {layout.digit_height:g} px tall, too small to "
                         f"read reliably (at least {min_digit_height:g} px; make the game draw "
                         "larger)", region=(0, 0, board.x, board.bottom))
    cells = tuple(tuple(grid.cell(r, c) for c in range(grid.width)) for r in range(grid.height))
    state = read_cells(image, grid, layout)
    cut_lines: tuple[ClippedLine, ...] | None = None

    def reading_with(chosen: TemplateSet | None) -> NonogramReading:
        nonlocal cut_lines
        rows, columns = read_lines(layout, chosen)
        if cut_lines is None:  # where ink meets the edge does not depend on the digits
            # Without the opt-in only ink on the edge itself counts: clues a game packs
            # close to its window's edge are read as they are, as they always were.
            cut_lines = clipped_lines(layout, rows, columns) if clipped else tuple(
                ClippedLine(kind, i, True, 1) for kind, lines in
                (("row", layout.clipped_rows), ("column", layout.clipped_columns))
                for i in lines)
        return NonogramReading(
            _puzzle(rows, columns, cut_lines), grid, grid.rect, cells, state,
            tuple(tuple(r) for r in rows), tuple(tuple(c) for c in columns),
            layout.clipped_rows, template_set=chosen.name if chosen is not None else None,
            clipped=cut_lines, layout=layout,
        )

    reading = reading_with(templates)
    if reading.clipped and not clipped:
        raise _edge_error(layout, reading.clipped, "run off", ": numbers may be missing")
    # Without the opt-in, a clue that starts nearer the edge than numbers stand apart is
    # read as it is, and said to be so. When the clues then do not add up, a number
    # wholly beyond the edge explains that as well as a misread digit does: nothing is
    # corrected or re-read.
    near_edge = () if clipped else clipped_lines(
        layout, [list(r) for r in reading.row_numbers], [list(c) for c in reading.column_numbers])
    if near_edge and margin:
        raise _edge_error(layout, near_edge, "start near", ": whole numbers beyond the edge "
                          "would not show (give the game more room)")
    reading = replace(reading, near_edge=near_edge)
    if not verify:
        return reading
    try:
        return validate_reading(reading, correct=not near_edge)
    except InputError as first_error:
        if near_edge:
            raise _edge_error(
                layout, near_edge, "start near", " and the clues read do not add up: whole "
                "numbers may lie beyond the edge",
            ) from None
        tried = templates.name if templates is not None else None
        others = [reading_with(t) for t in fallbacks if t.name != tried]
        for other in sorted(others, key=lambda r: -_mean_confidence(r)):
            try:
                return validate_reading(other)
            except InputError:
                continue
        raise first_error from None


NOT_A_NONOGRAM = "no nonogram here"
"""How every refusal of a picture that shows no nonogram begins."""


def refuse_if_not_a_nonogram(layout: ClueLayout) -> None:
    """Raise unless clue ink lines up with both the rows and the columns of the board.

    A nonogram with any filled cell has clues in both directions; a grid without
    them (a sudoku, a cage puzzle, a plain table) gives nothing to solve, and reading
    it as a puzzle of empty clues would "solve" it without a single click.
    """
    board = layout.grid.rect
    missing = [kind for kind, strips in (("rows", layout.rows), ("columns", layout.columns))
               if not any(s.groups for s in strips)]
    if missing:
        raise InputError(f"{NOT_A_NONOGRAM}: no clue numbers line up with the board's "
                         f"{' or '.join(missing)}",
                         region=(board.x, board.y, board.w, board.h))


def refuse_other_puzzles(lum: np.ndarray, grid: Grid) -> None:
    """A board whose cells hold numbers is another kind of puzzle: say so before any
    clue is looked for."""
    board = grid.rect
    region = (board.x, board.y, board.w, board.h)
    if numbers_in_cells(lum, grid):
        raise InputError(f"{NOT_A_NONOGRAM}: the board's cells hold numbers", region=region)
    # Thick room borders are not looked for yet: a first detector (commit 76d8864)
    # refused Picmi boards, whose edges are thicker than their lines in places.


def refuse_short_board(image: np.ndarray, layout: ClueLayout) -> None:
    """Clue numbers lined up past an end of the board: the lattice was found short (its
    last lines too faint to see), and its strips would count fewer lines than the game
    has. Refuse rather than read a part of the board as the whole."""
    found = clues_past_ends(luminance(image), layout)
    if found is None:
        return
    r = found.region
    raise InputError(f"clue numbers continue past the board's {found.end} end: the grid was "
                     "not found whole", region=(r.x, r.y, r.w, r.h))


def refuse_cut_board(image: np.ndarray, grid: Grid, source: str = "picture") -> None:
    """A board running on past the picture's edge cannot be read whole: say which edge
    (of the `source`: 'picture' or 'window'), rather than read the lines that show
    against clues meant for more."""
    side = continues_past(image, grid)
    if side is None:
        return
    board = grid.rect
    h_img, w_img = image.shape[:2]
    region = {"bottom": (board.x, max(0, h_img - 1), board.w, 1),
              "top": (board.x, 0, board.w, 1),
              "right": (max(0, w_img - 1), board.y, 1, board.h),
              "left": (0, board.y, 1, board.h)}[side]
    bigger = "taller" if side in ("top", "bottom") else "wider"
    raise InputError(f"the board continues past the {source}'s {side} edge: make the window "
                     f"{bigger} or zoom out", region=region)


def refuse_numbers_on_every_side(sides: ClueSides, grid: Grid) -> None:
    """Numbers beside the rows on both sides and beside the columns on both: a puzzle
    whose clues are seen from each edge of the grid, not a nonogram."""
    if sides.both("row") and sides.both("column"):
        board = grid.rect
        raise InputError(f"{NOT_A_NONOGRAM}: numbers stand on all four sides of the grid "
                         "(a nonogram has clues on one side of the rows and one of the columns)",
                         region=(board.x, board.y, board.w, board.h))


def edge_lines(lines: Iterable[ClippedLine], where: str,
               sides: tuple[str, str] = ("left", "top")) -> str:
    """'clues of rows 1, 3 <where> the left edge of the picture' (and of columns, the top;
    `sides`: the edges beyond the row and the column clues)."""
    named = {kind: [c.index for c in lines if c.kind == kind] for kind in ("row", "column")}
    left, top = sides

    def names(kind: str) -> str:
        found = named[kind]
        return f"{kind}{'s' if len(found) > 1 else ''} {', '.join(str(i + 1) for i in found)}"

    if named["row"] and named["column"]:
        return (f"clues of {names('row')} {where} the {left} edge of the picture and of "
                f"{names('column')} the {top} edge")
    if named["row"]:
        return f"clues of {names('row')} {where} the {left} edge of the picture"
    return f"clues of {names('column')} {where} the {top} edge of the picture"


def _edge_error(layout: ClueLayout, lines: Iterable[ClippedLine], where: str,
                why: str) -> InputError:
    """`edge_lines` as an error whose region is the first named line's clue strip."""
    lines = list(lines)
    first = next((c for c in lines if c.kind == "row"), lines[0])  # edge_lines names rows first
    box = (layout.rows if first.kind == "row" else layout.columns)[first.index].box
    return InputError(f"{edge_lines(lines, where, (layout.row_side, layout.column_side))}{why}"
                      ", so nothing is guessed",
                      region=(box.x, box.y, box.w, box.h))


def clipped_lines(layout: ClueLayout, rows: list[list[ClueNumber]],
                  columns: list[list[ClueNumber]]) -> tuple[ClippedLine, ...]:
    """Lines whose clue may run off the picture's left (rows) or top (columns) edge.

    A row's first number is cut when its ink touches the edge or stops closer to it
    than the digits of one number stand apart (a digit beyond would belong to it);
    ink on the edge that was too little to read as a digit is a cut number before
    it. The row is clipped whenever its ink starts closer to the edge than two
    numbers ever stand apart. Columns likewise, their numbers stacked from the top.
    """
    lo, hi = gap_threshold(layout)
    joined = (lo + hi) / 2
    out = []
    w_img, h_img = layout.image_size
    for kind, lines, touching in (("row", rows, layout.clipped_rows),
                                  ("column", columns, layout.clipped_columns)):
        # Measured from the picture's edge beyond the clues: on a band right of (below)
        # the board, that is the far edge and the line's last number is the outermost.
        far = layout.row_side == "right" if kind == "row" else layout.column_side == "bottom"

        def start(n: ClueNumber, kind: str = kind, far: bool = far) -> int:
            if far:
                return w_img - n.box.right if kind == "row" else h_img - n.box.bottom
            return n.box.x if kind == "row" else n.box.y

        def end(n: ClueNumber, kind: str = kind, far: bool = far) -> int:
            if far:
                return w_img - n.box.x if kind == "row" else h_img - n.box.y
            return n.box.right if kind == "row" else n.box.bottom

        apart = [start(b) - end(a) if not far else start(a) - end(b)
                 for line in lines for a, b in itertools.pairwise(line)]
        spacing = min(apart) if apart else 2 * joined
        for i, line in enumerate(lines):
            if not line:
                continue
            margin = start(line[-1] if far else line[0])
            cut = margin == 0 or (kind == "row" and margin <= joined)
            if cut or i in touching:
                out.append(ClippedLine(kind, i, cut, 1))
            elif margin < spacing:
                out.append(ClippedLine(kind, i, False, 0))
    return tuple(out)


def _mean_confidence(reading: NonogramReading) -> float:
    """How well a reading's glyphs matched (the better-fitting template set comes first)."""
    numbers = reading.numbers()
    return sum(n.confidence for _, _, n in numbers) / len(numbers) if numbers else 0.0


def _puzzle(rows: list[list[ClueNumber]], columns: list[list[ClueNumber]],
            clipped: Iterable[ClippedLine] = ()) -> Puzzle:
    """The clues read; a clipped line's is None (unknown).

    A lone 0 is how many games draw an empty line's clue (others leave it
    blank): both are the empty clue. A 0 beside other numbers is left as read,
    for the validator to refuse or correct.
    """
    unknown = {(c.kind, c.index) for c in clipped}

    def clue(kind: str, i: int, line: list[ClueNumber]) -> tuple[int, ...] | None:
        if (kind, i) in unknown:
            return None
        values = tuple(n.value for n in line)
        return () if values == (0,) else values

    return Puzzle(tuple(clue("row", i, r) for i, r in enumerate(rows)),  # type: ignore[misc]
                  tuple(clue("column", j, c) for j, c in enumerate(columns)))  # type: ignore[misc]


def problems(puzzle: Puzzle) -> list[tuple[str, int, str]]:
    """What makes the clues impossible, cheapest checks first: (kind, line, message).

    Unknown (None) clues are skipped, and then the totals cannot be compared."""
    out = []
    for kind, clues, length in (("row", puzzle.rows, puzzle.width),
                                ("column", puzzle.columns, puzzle.height)):
        for i, clue in enumerate(clues):
            if clue is None:
                continue
            if any(n < 1 for n in clue):
                out.append((kind, i, "has a number below 1"))
            elif min_length(clue) > length:
                out.append((kind, i, f"needs {min_length(clue)} cells but has {length}"))
    if all(c is not None for c in (*puzzle.rows, *puzzle.columns)):
        rt, ct = sum(map(sum, puzzle.rows)), sum(map(sum, puzzle.columns))
        if rt != ct:
            out.append(("totals", -1, f"row clues fill {rt} cells but column clues fill {ct}"))
    return out


def _tail_problems(reading: NonogramReading) -> list[tuple[str, int, str]]:
    """Clipped lines whose visible numbers cannot be the end of a clue of their line."""
    out = []
    for line in reading.clipped:
        tail = reading.tail(line)
        length = reading.puzzle.width if line.kind == "row" else reading.puzzle.height
        needed = min_length((1,) * line.hidden + tail)
        if any(n < 1 for n in tail):
            out.append((line.kind, line.index, "has a number below 1"))
        elif needed > length:
            out.append((line.kind, line.index, f"needs {needed} cells but has {length}"))
    return out


def _solvable(puzzle: Puzzle) -> tuple[bool, tuple[str, int] | None]:
    from autoplayer.games.nonogram.solver import Verdict, solve

    result = solve(puzzle, max_solutions=1, timeout=SOLVE_SECONDS)
    if result.verdict is Verdict.CONTRADICTION:
        return False, result.contradiction
    return True, None


def validate_reading(reading: NonogramReading, *, correct: bool = True) -> NonogramReading:
    """The reading, possibly with low-confidence numbers replaced (unless not `correct`),
    once it checks out."""
    first_problem = _check(reading)
    if first_problem is None:
        return reading
    if not correct:
        raise _give_up(reading, first_problem)
    candidates = sorted(reading.numbers(), key=lambda t: t[2].confidence)[:RETRY_NUMBERS]
    rows = [list(r) for r in reading.row_numbers]
    columns = [list(c) for c in reading.column_numbers]
    # One substitution first, then pairs among the least confident numbers. A fix is
    # taken only when it is the one change of its size that makes the clues consistent:
    # when two different changes both work, the picture does not say which is right.
    options = [(c, alt) for c in candidates for alt in c[2].alternatives[:3]]
    for attempts in ([(o,) for o in options], list(itertools.combinations(options[:12], 2))):
        fixes = []
        for attempt in attempts:
            fixed = _substitute(reading, rows, columns, attempt)
            if fixed is not None and _check(fixed) is None:
                fixes.append(fixed)
                if len(fixes) > 1:
                    break
        if len(fixes) == 1:
            return fixes[0]
        if fixes:
            break
    raise _give_up(reading, first_problem)


def _substitute(reading: NonogramReading, rows: list[list[ClueNumber]],
                columns: list[list[ClueNumber]], attempt) -> NonogramReading | None:
    """The reading with some numbers replaced by alternatives (None if two hit one number)."""
    keys = [(k, i, id(n)) for (k, i, n), _ in attempt]
    if len(set(keys)) < len(keys):
        return None
    new_rows = [list(r) for r in rows]
    new_cols = [list(c) for c in columns]
    notes = []
    for (kind, line, number), alt in attempt:
        target = new_rows[line] if kind == "row" else new_cols[line]
        k = next(j for j, n in enumerate(target) if n is number)
        target[k] = ClueNumber(alt, 0.0, number.digits, ())
        notes.append(f"{kind} {line + 1}: {number.value} -> {alt}")
    if problems(_puzzle(new_rows, new_cols, reading.clipped)):
        return None
    return replace(reading, puzzle=_puzzle(new_rows, new_cols, reading.clipped),
                   row_numbers=tuple(tuple(r) for r in new_rows),
                   column_numbers=tuple(tuple(c) for c in new_cols), corrections=tuple(notes))


def _check(reading: NonogramReading) -> tuple[str, int, str] | None:
    found = problems(reading.puzzle) + _tail_problems(reading)
    if found:
        return found[0]
    ok, bad = _solvable(reading.puzzle)
    if ok:
        return None
    if bad is None:
        return ("totals", -1, "the clues have no solution")
    kind, index = bad
    kind = "row" if str(kind).lower().startswith("r") else "column"
    return (kind, index, "contradicts the other clues (no solution)")


def _give_up(reading: NonogramReading, problem: tuple[str, int, str]) -> InputError:
    kind, line, message = problem
    if kind == "totals":
        suspects = sorted(reading.numbers(), key=lambda t: t[2].confidence)
        kind, line, number = suspects[0] if suspects else ("row", 0, None)
        where = f"{message}; least sure of {kind} {line + 1}"
    else:
        numbers = (reading.row_numbers if kind == "row" else reading.column_numbers)[line]
        number = min(numbers, key=lambda n: n.confidence) if numbers else None
        clue = " ".join(str(n.value) for n in numbers) or "(empty)"
        where = f"{kind} {line + 1} read as {clue} {message}"
    if number is None:
        box = reading.board
        return InputError(f"cannot read the clues: {where}", region=(box.x, box.y, box.w, box.h))
    box = number.box
    glyph = number.digits[0].glyph if len(number.digits) == 1 else min(
        number.digits, key=lambda d: d.confidence).glyph
    picture = ascii_picture(glyph.mask).replace("\n", " / ")
    return InputError(
        f"cannot read the clues: {where}; the number read as {number.value} "
        f"(confidence {number.confidence:.2f}) looks like: {picture}",
        region=(box.x, box.y, box.w, box.h))


def read_cells(image: np.ndarray, grid: Grid, layout: ClueLayout) -> np.ndarray:
    """What each cell shows, robust to hover tints and a pointer over a few cells.

    FILLED: the cell's middle is nearer the clue ink than the clue ground. EMPTY (marked): a small
    point-symmetric mark (a cross, a dot) in the middle, or, when the board
    shows two flat non-ink colours far apart, the one further from the ink.
    Everything else is UNKNOWN.
    """
    lum = luminance(image)
    h, w = grid.height, grid.width
    # Every cell's middle (a fifth of the cell in from each side) as one (h, w, k, k) block.
    side = min(min(b - a for a, b in grid.xs), min(b - a for a, b in grid.ys))
    inset = max(1, side // 5)
    k = max(1, side - 2 * inset)
    ys = np.array([a + inset for a, _ in grid.ys])[:, None] + np.arange(k)
    xs = np.array([a + inset for a, _ in grid.xs])[:, None] + np.arange(k)
    patches = lum[ys[:, None, :, None], xs[None, :, None, :]]
    flat_patches = patches.reshape(h, w, k * k)
    medians = np.median(flat_patches, axis=2)
    contrast = (abs(layout.paper_level - layout.ink_level)
                if layout.ink_level is not None and layout.paper_level is not None else 240.0)
    # A mark departs from its cell by a good share of the theme's contrast (dim marks
    # on a dark board included).
    off = np.abs(patches - medians[:, :, None, None]) > max(20.0, 0.18 * contrast)
    share = off.mean(axis=(2, 3))
    candidates = (share >= 0.03) & (share <= 0.6)
    symmetric = np.zeros((h, w))
    for r, c in np.argwhere(candidates):
        symmetric[r, c] = _point_symmetry(off[r, c])
    marked = candidates & (symmetric > 0.6)
    ink_level = layout.ink_level if layout.ink_level is not None else (
        0.0 if layout.dark else 255.0)
    paper = layout.paper_level if layout.paper_level is not None else (
        255.0 - ink_level)
    if abs(paper - ink_level) < 40:  # no usable clue contrast: fall back to the extremes
        ink_level, paper = (0.0, 255.0) if layout.dark else (255.0, 0.0)
    # Filled cells take a colour of their own, nearer the clue ink than the clue ground
    # is: darker than empty cells in a light theme, often lighter in a dark one.
    filled = np.abs(medians - ink_level) < np.abs(medians - paper)
    state = np.full((h, w), UNKNOWN, np.int8)
    state[filled] = FILLED
    flat = ~filled & ~marked
    if flat.any():
        levels = medians[flat]
        far = levels.max() if layout.dark else levels.min()
        near = levels.min() if layout.dark else levels.max()
        if abs(far - near) > 80:
            mid = (far + near) / 2
            away = (medians > mid) if layout.dark else (medians < mid)
            state[flat & away] = EMPTY
    state[marked & ~filled] = EMPTY
    return state


def _point_symmetry(off: np.ndarray) -> float:
    """Share of a mark's pixels that have a partner turned half a turn about the mark's
    own centre: a cross or a dot sits near the middle of
    the sampled patch, not always exactly on it. Ink centred well away from the
    middle (a pointer's tip) is no mark."""
    ys, xs = np.nonzero(off)
    if ys.size == 0:
        return 0.0
    if (abs(ys.mean() - (off.shape[0] - 1) / 2) > 0.2 * off.shape[0]
            or abs(xs.mean() - (off.shape[1] - 1) / 2) > 0.2 * off.shape[1]):
        return 0.0
    ty = np.rint(2 * ys.mean() - ys).astype(int)
    tx = np.rint(2 * xs.mean() - xs).astype(int)
    inside = (ty >= 0) & (ty < off.shape[0]) & (tx >= 0) & (tx < off.shape[1])
    hit = np.zeros(ys.size, bool)
    hit[inside] = off[ty[inside], tx[inside]]
    return float(hit.mean())
