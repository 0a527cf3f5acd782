"""`autoplayer hint`: the next logical step on a nonogram, from a file, a URL or the screen.

The hint itself is `games.nonogram.hint.next_hint`, a pure function; this module only
gathers its inputs (the puzzle, the cells known so far) and prints or draws the result.
"""

from __future__ import annotations

import argparse
from typing import Any

from autoplayer.commands import summary
from autoplayer.commands.options import add_templates_option
from autoplayer.errors import InputError, UserError

EXIT_STEP = 0
"""A step, or the puzzle is solved."""
EXIT_CONTRADICTION = 1
EXIT_BAD_INPUT = 2
EXIT_STALLED = 6
"""As `solve --logic-only`: nothing follows from one line or one probe."""

IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"BM", b"GIF8", b"P3", b"P6")
"""How a screenshot file starts (WEBP is RIFF....WEBP, checked apart)."""

CELL_SYMBOLS = {"#": 1, "X": 0, "x": 0, ".": -1, "?": -1}
"""`--cells` text: `#` filled, `x`/`X` known empty, `.` or `?` unknown (as the native
format's `grid` section, with `?` beside `.`)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `hint`; it sets func(args) -> exit code."""
    hint = subparsers.add_parser(
        "hint",
        help=summary("hint"),
        description="Prints the next step a person can follow from the cells known so far: "
        "which line, which cells become filled or empty, and why (the clue block that must "
        "cover them, the cells no block can reach); one line's logic first, a probe (assume "
        "a cell, meet a contradiction) only when no line gives anything. The known cells "
        "come from the puzzle file's grid, from --cells, or from the screenshot. Exit "
        "status: 0 a step (or solved), 1 the known cells contradict the clues, 2 bad input, "
        "6 stalled (no line and no single-cell probe decides a cell).",
    )
    hint.add_argument("source", metavar="PUZZLE", nargs="?",
                      help="puzzle file, puzz.link URL, Pattern game ID, or a screenshot")
    hint.add_argument("--window", metavar="TITLE",
                      help="read the puzzle from the window whose title contains TITLE")
    hint.add_argument("--exact", action="store_true", help="--window TITLE must match exactly")
    hint.add_argument("--cells", metavar="FILE",
                      help="the cells known so far: one line a row, '#' filled, 'x' empty, "
                      "'.' or '?' unknown (spaces ignored); replaces any grid the puzzle has")
    hint.add_argument("--overlay", metavar="OUT.png",
                      help="draw the hint on the picture (screenshot or --window input)")
    hint.add_argument("--json", action="store_true",
                      help="print one JSON object (keys in docs/hint.md)")
    add_templates_option(hint)
    hint.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if (args.source is None) == (args.window is None):
        raise UserError("give a PUZZLE or --window TITLE (one of them)")
    if args.exact and args.window is None:
        raise UserError("--exact is for --window")
    from autoplayer.games.nonogram.hint import CONTRADICTION, STALLED, as_dict, describe, next_hint

    image, reading, puzzle = _load(args)
    if args.overlay is not None and reading is None:
        raise UserError("--overlay draws on a screenshot: give one (or --window)")
    grid = puzzle.grid.tolist() if puzzle.grid is not None else None
    if args.cells is not None:
        grid = read_cells(args.cells, puzzle.width, puzzle.height)
    hint = next_hint(puzzle, grid)
    if args.overlay is not None:
        from autoplayer.commands.vision import save_png
        from autoplayer.games.nonogram.hint_overlay import draw_hint

        save_png(args.overlay, draw_hint(image, reading.cells, hint))
    if args.json:
        import json

        print(json.dumps(as_dict(hint)))
    else:
        print(describe(hint))
    return {CONTRADICTION: EXIT_CONTRADICTION, STALLED: EXIT_STALLED}.get(hint.status, EXIT_STEP)


def _load(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """(image, reading, puzzle); image and reading are None for a puzzle file or URL."""
    if args.window is not None:
        from autoplayer.screen.capture import Screen
        from autoplayer.screen.source import WindowSource

        source = WindowSource(Screen(), args.window, exact=args.exact)
        try:
            image = source.grab().pixels
        finally:
            source.close()
        return image, *_read(image, args, f"window '{args.window}'")
    if _is_image(args.source):
        from autoplayer.commands.vision import load_image

        image = load_image(args.source)
        return image, *_read(image, args, args.source)
    from autoplayer.games.nonogram import formats

    return None, None, formats.load_puzzle(args.source)


def _read(image: Any, args: argparse.Namespace, name: str) -> tuple[Any, Any]:
    """The reading and the puzzle with the cells the screen shows as its grid."""
    from autoplayer.games.nonogram.reader import read_nonogram
    from autoplayer.vision.templates import NO_TEMPLATES, every_template_set, load_templates

    templates = load_templates(args.templates) \
        if args.templates not in (None, NO_TEMPLATES) else None
    fallbacks = every_template_set() if args.templates is None else ()
    try:
        reading = read_nonogram(image, templates=templates, fallbacks=fallbacks)
    except InputError as err:
        raise err.at(name) from None
    return reading, reading.puzzle.with_grid(reading.state)


def _is_image(path: str) -> bool:
    """Whether `path` is a file that starts as a screenshot does (not a puzzle or a URL)."""
    from autoplayer.files import exists, is_stdio

    if is_stdio(path) or not exists(path):
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(12)
    except OSError:
        return False
    return head.startswith(IMAGE_MAGIC) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")


def read_cells(path: str, width: int, height: int) -> list[list[int]]:
    """A `--cells` file: H lines of W cells; blank lines and spaces are ignored."""
    from autoplayer.files import read_text

    rows = []
    for number, raw in enumerate(read_text(path).splitlines(), 1):
        text = "".join(raw.split())
        if not text:
            continue
        bad = next((ch for ch in text if ch not in CELL_SYMBOLS), None)
        if bad is not None:
            raise InputError(f"'{bad}' is not a cell: use '#' filled, 'x' empty, '.' or '?' "
                             "unknown", path=path, line=number)
        if len(text) != width:
            raise InputError(f"{len(text)} cells but the puzzle is {width} wide",
                             path=path, line=number)
        rows.append([CELL_SYMBOLS[ch] for ch in text])
    if len(rows) != height:
        raise InputError(f"{len(rows)} rows but the puzzle is {height} high", path=path)
    return rows
