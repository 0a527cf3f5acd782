"""Nonogram file formats: one module each, a registry, and the load/save entry points.

Each format module is a pure codec with the same small surface: `NAME`,
`EXTENSIONS`, `CARRIES` (which optional fields of `Puzzle` it can hold),
`DESCRIPTION`, `looks_like(text)`, `parse(text) -> Puzzle` and
`format(puzzle) -> str`. Parsers raise `InputError` with a line number; the
functions here add the file name, pick the format, and do the file I/O.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from autoplayer.errors import InputError, UserError
from autoplayer.games.nonogram.formats import common
from autoplayer.games.nonogram.model import Puzzle


class Format:
    """One format of the registry: its name and extensions are known without importing
    its codec; everything else loads the codec on first use, so reading a `.non` file
    imports the `.non` codec alone (start-up time is most of a small solve)."""

    __slots__ = ("_module", "extensions", "name")

    def __init__(self, name: str, extensions: tuple[str, ...]) -> None:
        self.name, self.extensions = name, extensions
        self._module: ModuleType | None = None

    @property
    def module(self) -> ModuleType:
        if self._module is None:
            self._module = importlib.import_module(f"{__name__}.{self.name}")
        return self._module

    @property
    def carries(self) -> frozenset[str]:
        return self.module.CARRIES

    @property
    def description(self) -> str:
        return self.module.DESCRIPTION

    @property
    def looks_like(self) -> Callable[[str], bool]:
        return self.module.looks_like

    @property
    def parse(self) -> Callable[[str], Puzzle]:
        return self.module.parse

    @property
    def format(self) -> Callable[[Puzzle], str]:
        return self.module.format

    def __repr__(self) -> str:
        return f"Format({self.name!r}, {self.extensions!r})"


FORMATS: dict[str, Format] = {
    name: Format(name, extensions) for name, extensions in (
        ("puzzlink", ()),
        ("native", (".nonogram",)),
        ("non", (".non",)),
        ("webpbn", (".xml", ".pbn")),
        ("tatham", (".pattern",)),
        ("nin", (".nin",)),
    )
}
"""Every format by name (its module's NAME) and extensions (its module's EXTENSIONS), in
the order `detect_format` tries their content tests."""

_BY_EXTENSION = {ext: f.name for f in FORMATS.values() for ext in f.extensions}

OPTIONAL_FIELDS = ("title", "author", "copyright", "grid", "solution")


def format_for_extension(path: str | Path) -> str | None:
    return _BY_EXTENSION.get(Path(path).suffix.lower())


def detect_format(path: str | Path | None, text: str) -> str:
    """The format a file is in: by its extension, else by what its content looks like."""
    if path is not None and (name := format_for_extension(path)) is not None:
        return name
    for fmt in FORMATS.values():
        if fmt.looks_like(text):
            return fmt.name
    known = ", ".join(f"{f.name} ({' '.join(f.extensions)})" for f in FORMATS.values())
    raise InputError(f"cannot tell the puzzle format; known formats: {known}", path=path,
                     line=1)


def parse_puzzle(text: str, fmt: str | None = None, *, path: str | Path | None = None) -> Puzzle:
    """A puzzle from text in a named format (detected when None); errors name `path`."""
    text = text.removeprefix("\ufeff")
    try:
        common.check_text(text)
        name = fmt if fmt is not None else detect_format(path, text)
        return _get(name).parse(text)
    except InputError as err:
        raise err.at(path) if path is not None and err.path is None else err from None


def format_puzzle(puzzle: Puzzle, fmt: str) -> str:
    """A puzzle as text in the named format (fields the format cannot carry are left out)."""
    return _get(fmt).format(puzzle)


def dropped_fields(puzzle: Puzzle, fmt: str) -> list[str]:
    """The optional fields the puzzle has that the format cannot carry."""
    carries = _get(fmt).carries
    return [f for f in OPTIONAL_FIELDS if f not in carries and _present(puzzle, f)]


def _present(puzzle: Puzzle, name: str) -> bool:
    value = getattr(puzzle, name)
    return value is not None and (not isinstance(value, str) or bool(value))


_GAME_ID = re.compile(r"\d+(x\d+)?:[0-9./]*(,[A-Za-z]*)?")


def is_game_id(text: str) -> bool:
    return bool(_GAME_ID.fullmatch(text.strip()))


def load_puzzle(source: str | Path) -> Puzzle:
    """A puzzle from a file (`-`: standard input), or from a Tatham game ID or a
    puzz.link URL given in place of a file name."""
    from autoplayer.files import exists, is_stdio, read_input

    puzzlink = FORMATS["puzzlink"]
    if isinstance(source, str) and not exists(source) and puzzlink.looks_like(source):
        try:
            return puzzlink.parse(source)
        except InputError as err:
            from autoplayer.puzzlink import WHERE

            raise InputError(err.message, path=WHERE) from None
    if isinstance(source, str) and not exists(source) and is_game_id(source):
        try:
            return FORMATS["tatham"].parse(source)
        except InputError as err:
            shown = source if len(source) <= 40 else source[:37] + "..."
            raise InputError(err.message, path=f"game ID {shown}") from None
    data = read_input(source)
    name = "standard input" if is_stdio(source) else source
    try:
        text = common.decode(data)
    except InputError as err:
        raise err.at(name) from None
    return parse_puzzle(text, path=name)


def save_puzzle(puzzle: Puzzle, path: str | Path, fmt: str | None = None) -> None:
    """Write a puzzle where `path` points (`files.write_output`: atomic for a file; `-` is
    standard output, in the native format unless `fmt` names another)."""
    from autoplayer.files import is_stdio, write_output  # here: `solve` never writes without --out

    if fmt is None:
        fmt = "native" if is_stdio(path) else format_for_extension(path)
        if fmt is None:
            names = ", ".join(f"{ext} ({f})" for ext, f in _BY_EXTENSION.items())
            raise UserError(f"{path}: cannot tell the format from the extension; use one of "
                            f"{names} or name the format")
    write_output(path, format_puzzle(puzzle, fmt))


def _get(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise UserError(
            f"unknown format {name!r}; known formats: {', '.join(FORMATS)}"
        ) from None


__all__ = [
    "FORMATS",
    "Format",
    "detect_format",
    "dropped_fields",
    "format_puzzle",
    "is_game_id",
    "load_puzzle",
    "parse_puzzle",
    "save_puzzle",
]
