"""Commands `read` (a puzzle from a screenshot) and `calibrate` (digit templates for a game).

Heavy imports (numpy, OpenCV, Pillow) happen inside the command functions so
that `autoplayer --help` stays fast.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from autoplayer.commands import summary
from autoplayer.commands.batch import add_pretty_option, emit_json, pretty, rows_text
from autoplayer.commands.options import add_templates_option
from autoplayer.errors import Aborted, InputError, UserError
from autoplayer.limits import shown

_SET_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
    read = subparsers.add_parser(
        "read",
        help=summary("read"),
        description="Finds the board in IMAGE, reads every clue and cell, checks that the "
        "clues make a solvable puzzle, and prints it. Exit 2 with the line and pixel region "
        "when a clue cannot be read with confidence.",
    )
    read.add_argument("image", metavar="IMAGE",
                      help="screenshot (PNG, JPEG, ...), - for standard input")
    read.add_argument("--overlay", metavar="OUT.png",
                      help="also write the screenshot with what was read drawn on it")
    read.add_argument("--out", metavar="PUZZLE",
                      help="save the puzzle read (format from the extension: .non, .txt, ...); "
                      "- writes the native format to stdout and the report to stderr")
    add_templates_option(read)
    read.add_argument("--no-verify", action="store_true",
                      help="print what was read even when the clues do not add up")
    add_pretty_option(read)
    read.add_argument("--json", action="store_true",
                      help="print what was read as one JSON object (keys in docs/cli.md)")
    read.set_defaults(func=run_read)

    cal = subparsers.add_parser(
        "calibrate",
        help=summary("calibrate"),
        description="Pairs the digit glyphs on screenshots of a known puzzle with their "
        "values and saves them as templates/NAME (samples under calibration/NAME). Without "
        "--puzzle, asks for the value of each new glyph, showing it as ASCII art.",
    )
    cal.add_argument("screenshots", metavar="SCREENSHOT", nargs="+")
    cal.add_argument("--puzzle", metavar="FILE", action="append",
                     help="the puzzle the screenshots show: a puzzle file or a Pattern game ID; "
                     "give it once for all screenshots or once per screenshot, in order")
    cal.add_argument("--name", required=True, help="template set name (templates/NAME)")
    cal.add_argument("--dir", default=".", help="where templates/ and calibration/ go "
                     "(default: the current directory)")
    cal.set_defaults(func=run_calibrate)


def load_image(path: str):
    """A screenshot as RGB, its size checked from the header before it is decoded."""
    from autoplayer.vision.image_file import load_image

    return load_image(path)


def save_png(path: str | Path, image) -> None:
    """Write an RGB array as PNG atomically (temp file + rename)."""
    from PIL import Image

    from autoplayer.files import write_output

    write_output(path, lambda out: Image.fromarray(image).save(out, format="PNG"))


def run_read(args: argparse.Namespace) -> int:
    from autoplayer.files import is_stdio
    from autoplayer.games.nonogram import formats
    from autoplayer.games.nonogram.clipped import edge_lines
    from autoplayer.games.nonogram.model import UNKNOWN
    from autoplayer.games.nonogram.reader import LOW_CONFIDENCE, read_nonogram
    from autoplayer.games.nonogram.render import render_puzzle
    from autoplayer.vision.templates import NO_TEMPLATES, every_template_set, load_templates

    to_stdout = is_stdio(args.out)
    if args.out and not to_stdout and formats.format_for_extension(args.out) is None:
        raise UserError(f"{args.out}: cannot tell the puzzle format from the extension")
    if to_stdout and args.json:
        raise UserError("--json and --out - would both write to standard output")
    templates = load_templates(args.templates) \
        if args.templates not in (None, NO_TEMPLATES) else None
    fallbacks = every_template_set() if args.templates is None else ()
    image = load_image(args.image)
    try:
        reading = read_nonogram(image, templates=templates, fallbacks=fallbacks,
                                verify=not args.no_verify)
    except InputError as err:
        raise err.at(args.image) from None
    if args.overlay:
        write_overlay(args.overlay, image, reading, LOW_CONFIDENCE)
    puzzle = reading.puzzle
    known = reading.state != UNKNOWN
    grid = reading.state if known.any() else None
    board = (f"{puzzle.width}x{puzzle.height} board at x={reading.board.x} "
             f"y={reading.board.y} w={reading.board.w} h={reading.board.h}")
    notes = [f"passed over a ruled region at x={r.x} y={r.y} w={r.w} h={r.h}: not read as "
             "the puzzle" for r in reading.passed_over]
    notes += [f"corrected {c}" for c in reading.corrections]
    warnings = []
    if reading.near_edge:
        near = edge_lines(reading.near_edge, 'start near', _sides(reading))
        warnings.append(f"{near}: a whole number beyond the edge would not show, so check "
                        "those clues (or capture with a margin)")
    unsure = [f"{k} {i + 1}: {n.value} ({n.confidence:.2f})" for k, i, n in reading.numbers()
              if n.confidence < LOW_CONFIDENCE]
    if unsure:
        warnings.append("low confidence: " + "; ".join(unsure))
    # Warnings and notes are for the person: stderr, so stdout is the puzzle alone.
    for line in notes + [f"warning: {w}" for w in warnings]:
        print(f"autoplayer read: {line}", file=sys.stderr)
    tatham = formats.format_puzzle(puzzle, "tatham").strip()
    url = formats.format_puzzle(puzzle, "puzzlink").strip()
    if args.json:
        b = reading.board
        emit_json({
            "file": args.image, "ok": True, "width": puzzle.width, "height": puzzle.height,
            "board": {"x": b.x, "y": b.y, "w": b.w, "h": b.h},
            "rows": [list(c) for c in puzzle.rows],
            "columns": [list(c) for c in puzzle.columns],
            "grid": rows_text(grid.tolist()) if grid is not None else None,
            "templates": reading.template_set, "tatham": tatham, "puzzlink": url,
            "warnings": warnings, "notes": notes, "error": None,
        })
    else:
        out = [board]
        if reading.template_set is not None:
            out.append(f"clues read with templates {reading.template_set}")
        unicode = pretty(args)
        out.append(render_puzzle(puzzle, grid, unicode=unicode) if grid is not None
                   else render_puzzle(puzzle, unicode=unicode))
        out.append(tatham)
        out.append(url)  # to share it, or solve
        # With `--out -` standard output carries the puzzle file alone; the report, stderr.
        report = sys.stderr if to_stdout else sys.stdout
        report.write("\n".join(out) + "\n")
        report.flush()
    if args.out:
        formats.save_puzzle(puzzle, args.out)
    return 0


def _sides(reading) -> tuple[str, str]:
    """The picture's edges beyond the row and the column clues."""
    layout = reading.layout
    return (layout.row_side, layout.column_side) if layout is not None else ("left", "top")


def write_overlay(path: str, image, reading, low: float) -> None:
    """The reading drawn over the picture, the board's puzz.link URL beneath it."""
    from autoplayer.games.nonogram import formats
    from autoplayer.games.nonogram.model import EMPTY, FILLED
    from autoplayer.vision.overlay import draw_overlay, with_caption

    marks = []
    for r, row in enumerate(reading.cells):
        for c, rect in enumerate(row):
            s = reading.state[r, c]
            if s in (FILLED, EMPTY):
                marks.append((rect, "#" if s == FILLED else "x"))
    numbers = [(n.value, n.confidence, n.box) for _, _, n in reading.numbers()]
    ignored = reading.layout.ignored if reading.layout is not None else ()
    drawn = draw_overlay(image, reading.board, reading.cells, numbers, low=low,
                         cell_marks=marks, ignored=ignored, passed_over=reading.passed_over)
    url = formats.format_puzzle(reading.puzzle, "puzzlink").strip()
    save_png(path, with_caption(drawn, [url]))


def run_calibrate(args: argparse.Namespace) -> int:
    from autoplayer.games.nonogram import formats
    from autoplayer.vision import calibrate
    from autoplayer.vision.image import ascii_picture
    from autoplayer.vision.templates import TemplateSet, save_templates

    if not _SET_NAME.fullmatch(args.name):
        raise UserError(f"--name '{shown(args.name)}' is not a plain name: letters, digits, "
                        "'.', '_' and '-', at most 64, not starting with '.' (it names the "
                        "folders templates/NAME and calibration/NAME)")
    base = Path(args.dir)
    given = args.puzzle or []
    if len(given) not in (0, 1, len(args.screenshots)):
        raise UserError(f"{len(given)} --puzzle for {len(args.screenshots)} screenshots: give "
                        "one for all of them or one per screenshot")
    puzzles = [formats.load_puzzle(p) for p in given]
    if len(puzzles) == 1:
        puzzles *= len(args.screenshots)
    templates = TemplateSet(args.name)
    all_samples: list[tuple[str, calibrate.Sample]] = []

    def ask(glyph, where: str) -> int | None:
        print(f"{where}, glyph at x={glyph.box.x} y={glyph.box.y}:")
        print(ascii_picture(glyph.mask))
        while True:
            try:
                answer = input("which digit is this? (0-9, s to skip, q to quit) ").strip()
            except EOFError:
                raise Aborted("calibration ended before every glyph had a value") from None
            if answer == "q":
                raise Aborted("calibration stopped; nothing was saved")
            if answer == "s":
                return None
            if len(answer) == 1 and answer.isdigit():
                return int(answer)

    for k, shot in enumerate(args.screenshots):
        image = load_image(shot)
        puzzle = puzzles[k] if puzzles else None
        try:
            if puzzle is not None:
                labelled = calibrate.label_with_puzzle(image, puzzle)
            else:
                labelled = calibrate.label_interactively(image, templates, ask)
        except InputError as err:
            raise err.at(shot) from None
        for s in labelled.samples:
            templates.add(s.digit, s.glyph.mask)
            all_samples.append((shot, s))
        note = f", skipped {len(labelled.skipped)} lines" if labelled.skipped else ""
        print(f"{shot}: {len(labelled.samples)} glyphs{note}")
    if not templates.digits:
        raise UserError("no glyph could be paired with a digit; nothing saved")
    target = save_templates(templates, base / "templates" / args.name)
    save_samples(base / "calibration" / args.name, all_samples, args.puzzle)
    missing = sorted(set(range(10)) - templates.digits)
    print(f"saved {sum(len(v) for v in templates.samples.values())} templates to {target}"
          + (f" (no samples of {', '.join(map(str, missing))})" if missing else ""))
    return 0


def save_samples(directory: Path, samples, puzzle: str | None = None) -> None:
    """Every labelled glyph as a PNG plus samples.json, written into a fresh directory."""
    import json
    import shutil
    import tempfile

    import numpy as np
    from PIL import Image

    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    index = []
    for k, (shot, s) in enumerate(samples):
        name = f"{k:04d}_digit{s.digit}.png"
        Image.fromarray(np.where(s.glyph.mask, 0, 255).astype(np.uint8)).save(tmp / name)
        b = s.glyph.box
        index.append({"file": name, "digit": s.digit, "screenshot": str(shot),
                      "line": s.where, "box": [b.x, b.y, b.w, b.h]})
    document = {"puzzle": puzzle, "samples": index}
    (tmp / "samples.json").write_text(json.dumps(document, indent=1) + "\n")
    if directory.exists():
        shutil.rmtree(directory)
    tmp.rename(directory)
