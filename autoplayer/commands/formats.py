"""Commands on nonogram files: `convert` between formats, `show`, and `check`.

The format package (and numpy with it) is imported inside each command so
that `autoplayer --help` stays fast.
"""

from __future__ import annotations

import argparse
import sys

from autoplayer.commands import summary
from autoplayer.commands.batch import (
    add_pretty_option,
    emit_json,
    expand,
    pretty,
    run_each,
)
from autoplayer.errors import UserError, printable
from autoplayer.files import same_file

FORMAT_NAMES = ("native", "non", "webpbn", "tatham", "nin", "puzzlink")
"""Kept here as text so building the parser imports nothing heavy; a test keeps it in step."""

EXIT_OK, EXIT_WRONG, EXIT_BAD_INPUT = 0, 1, 2

_SOURCE_HELP = ("puzzle file (format from its extension or content), a Pattern game ID or a "
                "puzz.link URL")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
    convert = subparsers.add_parser(
        "convert",
        help=summary("convert"),
        description="Reads IN and writes OUT in the format OUT's extension names (or --to). "
        "OUT is written atomically and never replaces IN; anything the output format cannot "
        "hold (title, solution, ...) is named on stderr. OUT '-' writes to stdout. With "
        "several INs (or a folder), OUT is a folder (or -) and --to is needed: each file "
        "goes there under its own name with the format's extension; a summary line goes "
        "to stderr and the exit code is non-zero if any failed.",
    )
    convert.add_argument("input", metavar="IN", nargs="+", help=_SOURCE_HELP + "; a folder "
                         "of them; - for standard input")
    convert.add_argument("output", metavar="OUT",
                         help="file to write, - for stdout, or a folder for several INs")
    convert.add_argument("--to", metavar="FMT", dest="fmt",
                         help=f"output format: {', '.join(FORMAT_NAMES)}")
    convert.set_defaults(func=run_convert)

    show = subparsers.add_parser(
        "show",
        help=summary("show"),
        description="Pretty prints the puzzle: column clues above, row clues at the left, "
        "a rule every 5 cells; the solution and the saved grid when the file has them.",
    )
    show.add_argument("file", metavar="FILE", help=_SOURCE_HELP + "; - for standard input")
    add_pretty_option(show)
    show.set_defaults(func=run_show)

    check = subparsers.add_parser(
        "check",
        help=summary("check"),
        description="Exit 0 when the file is a valid puzzle and its solution/grid (if any) "
        "agrees with the clues, 1 when the solution or grid breaks a clue (the first such "
        "line is named), 2 when the file itself is malformed. With several files (or a "
        "folder) each is checked, a summary line goes to stderr, and the exit code is the "
        "highest of theirs.",
    )
    check.add_argument("files", metavar="FILE", nargs="+",
                       help=_SOURCE_HELP + "; a folder of them; - for standard input")
    check.add_argument("--json", action="store_true",
                       help="one JSON object a file, one a line (keys in docs/cli.md)")
    check.set_defaults(func=run_check)


def run_convert(args: argparse.Namespace) -> int:
    import os

    from autoplayer.files import is_stdio

    sources = expand(args.input)
    if len(sources) == 1 and not (len(args.input) == 1 and os.path.isdir(args.input[0])):
        args.input = sources[0]
        return _convert_one(args)
    if args.fmt is None:
        raise UserError("converting several files needs --to FMT")
    if not is_stdio(args.output) and not os.path.isdir(args.output):
        raise UserError(f"{printable(args.output)}: with several inputs OUT must be an "
                        "existing folder (or - for standard output)")

    def one(source: str) -> int:
        target = args.output
        if not is_stdio(target):
            target = os.path.join(target, _output_name(source, args.fmt))
        return _convert_one(argparse.Namespace(input=source, output=target, fmt=args.fmt))

    def failed(source: str, err: UserError) -> int:
        return err.exit_code

    return run_each("autoplayer convert", sources, one, failed)


def _output_name(source: str, fmt: str) -> str:
    """IN's file name with the extension of the format written (`.txt` for a URL)."""
    from pathlib import Path

    from autoplayer.games.nonogram import formats

    if fmt not in formats.FORMATS:
        raise UserError(f"unknown format {fmt!r}; known formats: {', '.join(formats.FORMATS)}")
    extensions = formats.FORMATS[fmt].extensions
    stem = Path(source).stem if source != "-" else "stdin"
    return stem + (extensions[0] if extensions else ".txt")


def _convert_one(args: argparse.Namespace) -> int:
    from autoplayer.games.nonogram import formats

    if _ripple_url(args.input):
        return _convert_ripple(args)
    fmt = args.fmt
    if fmt is not None and fmt not in formats.FORMATS:
        raise UserError(f"unknown format {fmt!r}; known formats: {', '.join(formats.FORMATS)}")
    to_stdout = args.output == "-"
    if fmt is None:
        if to_stdout:
            raise UserError("writing to stdout needs --to FMT")
        fmt = formats.format_for_extension(args.output)
        if fmt is None:
            raise UserError(
                f"{args.output}: cannot tell the output format from the extension; "
                f"use --to ({', '.join(formats.FORMATS)})"
            )
    if not to_stdout and same_file(args.input, args.output):
        raise UserError(f"{args.output}: is the input file; refusing to overwrite it")
    puzzle = formats.load_puzzle(args.input)
    dropped = formats.dropped_fields(puzzle, fmt)
    if dropped:
        print(f"autoplayer convert: the {fmt} format cannot hold the puzzle's "
              f"{', '.join(dropped)}; left out", file=sys.stderr)
    formats.save_puzzle(puzzle, args.output, fmt)
    return EXIT_OK


def _ripple_url(source: str) -> bool:
    """Whether `source` is a Ripple Effect puzz.link URL given in place of a file."""
    from autoplayer import puzzlink
    from autoplayer.files import exists
    from autoplayer.games.ripple.puzzlink import PIDS

    return puzzlink.pid_of(source) in PIDS and not exists(source)


def _convert_ripple(args: argparse.Namespace) -> int:
    """A Ripple Effect URL: written in the ripple spec's layout, or as a URL again."""
    from autoplayer.games.ripple.cli import run_convert as ripple_convert

    if args.fmt not in (None, "puzzlink"):
        raise UserError(f"the input is a Ripple Effect puzzle: it is written in the ripple "
                        f"layout (no --to) or as --to puzzlink, not as {args.fmt!r}")
    return ripple_convert(args.input, args.output, args.fmt or "text")


def run_show(args: argparse.Namespace) -> int:
    from autoplayer.games.nonogram import formats
    from autoplayer.games.nonogram.render import render_puzzle

    puzzle = formats.load_puzzle(args.file)
    unicode = pretty(args)
    heading = f"{puzzle.width}x{puzzle.height}"
    if puzzle.title:
        heading = f"{printable(puzzle.title)} ({heading})"
    lines = [heading]
    if puzzle.author:
        lines.append(f"by {printable(puzzle.author)}")
    if puzzle.copyright:
        lines.append(printable(puzzle.copyright))
    out = ["\n".join(lines), ""]
    shown = [(name, getattr(puzzle, name)) for name in ("solution", "grid")]
    shown = [(name, grid) for name, grid in shown if grid is not None]
    if not shown:
        out.append(render_puzzle(puzzle, unicode=unicode))
    for name, grid in shown:
        if len(shown) > 1:
            out.append(f"{name}:")
        out.append(render_puzzle(puzzle, grid, unicode=unicode))
    sys.stdout.write("\n".join(out))
    return EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    files = expand(args.files)

    def failed(file: str, err: UserError) -> int:
        if args.json:
            emit_json(_check_record(file, error=str(err)))
        return err.exit_code

    return run_each("autoplayer check", files, lambda f: _check_one(f, args.json), failed)


def _check_record(file: str, **fields: object) -> dict[str, object]:
    """`check --json`'s object: every key always there, null when it does not apply."""
    record: dict[str, object] = {"file": file, "ok": False, "width": None, "height": None,
                                 "checked": [], "wrong": None, "error": None}
    record.update(fields)
    return record


def _check_one(file: str, as_json: bool) -> int:
    from autoplayer.games.nonogram import formats
    from autoplayer.games.nonogram.model import UNKNOWN, first_disagreement

    puzzle = formats.load_puzzle(file)
    size = f"{puzzle.width}x{puzzle.height}"
    verdicts = []
    checked: list[str] = []
    for name in ("solution", "grid"):
        grid = getattr(puzzle, name)
        if grid is None:
            continue
        checked.append(name)
        wrong = first_disagreement(puzzle, grid)
        if wrong is not None:
            if as_json:
                emit_json(_check_record(file, width=puzzle.width, height=puzzle.height,
                                        checked=checked, wrong=f"{name}: {wrong}"))
            else:
                print(f"{printable(file)}: {name} is wrong: {wrong}")
            return EXIT_WRONG
        if name == "grid" and (grid == UNKNOWN).any():
            verdicts.append("every line's known cells fit its clue")
        else:
            verdicts.append(f"the {name} satisfies every clue")
    if not verdicts:
        verdicts.append("no solution or grid to check")
    if as_json:
        emit_json(_check_record(file, ok=True, width=puzzle.width, height=puzzle.height,
                                checked=checked))
        return EXIT_OK
    print(f"{printable(file)}: ok: valid {size} puzzle; {'; '.join(verdicts)}")
    return EXIT_OK
