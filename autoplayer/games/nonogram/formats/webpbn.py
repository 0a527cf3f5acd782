"""Jan Wolter's webpbn XML (pbn_fmt v0.3), black and white only.

`<puzzleset><puzzle>` with `<clues type="columns|rows">` of `<line><count>`
elements, optional `title`/`author`/`copyright`, and `<solution>` images
(`|`-delimited rows of colour characters): type `goal` or `solution` is read as
the solution, `saved` (with `?` for unknown) as the grid. Parsed with the
standard library's expat, which keeps line numbers for error messages; a file
declaring entities is refused (no entity expansion, so no "billion laughs").
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from autoplayer.errors import InputError
from autoplayer.games.nonogram.formats import common
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Clue, Puzzle

if TYPE_CHECKING:
    import numpy as np

NAME = "webpbn"
EXTENSIONS = (".xml", ".pbn")
CARRIES = frozenset({"title", "author", "copyright", "grid", "solution"})
DESCRIPTION = "webpbn XML (black and white; goal image as solution, saved image as grid)"

_DEFAULT_CHARS = {"black": "X", "white": "."}
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters XML 1.0 cannot hold at all, even escaped."""


def looks_like(text: str) -> bool:
    head = text.lstrip("\ufeff \t\r\n")[:2000]
    return head.startswith("<") and ("<puzzleset" in head or "<puzzle" in head)


class _Node:
    """An element with the line it starts on (ElementTree keeps no line numbers)."""

    __slots__ = ("attrs", "children", "line", "tag", "text")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag, self.attrs, self.line = tag, attrs, line
        self.children: list[_Node] = []
        self.text = ""

    def find_all(self, tag: str) -> list[_Node]:
        return [c for c in self.children if c.tag == tag]

    def find(self, tag: str) -> _Node | None:
        return next((c for c in self.children if c.tag == tag), None)


def _tree(text: str) -> _Node:
    from xml.parsers import expat  # here: only webpbn files pay for it

    parser = expat.ParserCreate()
    parser.buffer_text = True
    root = _Node("", {}, 0)
    stack = [root]

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def data(chunk: str) -> None:
        stack[-1].text += chunk

    def entity(name: str, *_: object) -> None:
        raise InputError(
            f"the DOCTYPE declares entity {name!r}; entity declarations are refused",
            line=parser.CurrentLineNumber,
        )

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    parser.EntityDeclHandler = entity
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(text, True)
    except expat.ExpatError as err:
        message = expat.errors.messages.get(err.code, str(err)) if err.code else str(err)
        raise InputError(f"not well-formed XML: {message}", line=err.lineno) from None
    if not root.children:
        raise InputError("no XML element found", line=1)
    return root.children[0]


def parse(text: str) -> Puzzle:
    top = _tree(text)
    if top.tag == "puzzleset":
        puzzles = top.find_all("puzzle")
        if not puzzles:
            raise InputError("no <puzzle> in the <puzzleset>", line=top.line)
        if len(puzzles) > 1:
            raise InputError(
                f"the puzzleset holds {len(puzzles)} puzzles; split it into one file each",
                line=puzzles[1].line,
            )
        puzzle = puzzles[0]
    elif top.tag == "puzzle":
        puzzle, top = top, _Node("", {}, 0)
    else:
        raise InputError(f"root element is <{top.tag}>, not <puzzleset>", line=top.line)
    kind = puzzle.attrs.get("type", "grid")
    if kind != "grid":
        raise InputError(f"puzzle type {kind!r} is not supported (only 'grid')",
                         line=puzzle.line)
    default = puzzle.attrs.get("defaultcolor", "black")
    background = puzzle.attrs.get("backgroundcolor", "white")
    chars = dict(_DEFAULT_CHARS)
    for colour in puzzle.find_all("color"):
        if "name" in colour.attrs and "char" in colour.attrs:
            chars[colour.attrs["name"]] = colour.attrs["char"]
    filled, empty = chars.get(default, "X"), chars.get(background, ".")
    clue_nodes = {c.attrs.get("type"): c for c in puzzle.find_all("clues")}
    for name in ("columns", "rows"):
        if name not in clue_nodes:
            raise InputError(f'no <clues type="{name}">', line=puzzle.line)
    lines = {name: clue_nodes[name].find_all("line") for name in ("columns", "rows")}
    width, height = len(lines["columns"]), len(lines["rows"])
    for name, count in (("columns", width), ("rows", height)):
        if count == 0:
            raise InputError(f"<clues type=\"{name}\"> has no <line>",
                             line=clue_nodes[name].line)
        if count > 200:
            raise InputError(f"{count} {name}; at most 200 are supported",
                             line=clue_nodes[name].line)
    columns = _clues(lines["columns"], "column", height, default)
    rows = _clues(lines["rows"], "row", width, default)
    solution = grid = None
    for node in puzzle.find_all("solution"):
        image = node.find("image")
        if image is None:
            raise InputError("<solution> without an <image>", line=node.line)
        kind = node.attrs.get("type", "goal")
        if kind in ("goal", "solution") and solution is None:
            solution = _image(image, width, height, filled, empty, False)
        elif kind == "saved" and grid is None:
            grid = _image(image, width, height, filled, empty, True)
    meta = {name: _text(puzzle, name) or _text(top, name)
            for name in ("title", "author", "copyright")}
    result = Puzzle(rows, columns, grid=grid, solution=solution, **meta)
    return common.checked(result, clue_nodes["rows"].line)


def _text(node: _Node, tag: str) -> str:
    found = node.find(tag)
    return found.text.strip() if found is not None else ""


def _clues(lines: list[_Node], kind: str, length: int, default: str) -> tuple[Clue, ...]:
    out = []
    for index, line in enumerate(lines, 1):
        counts = line.find_all("count")
        for count in counts:
            if count.attrs.get("color", default) != default:
                raise InputError("colour puzzles are not supported", line=count.line)
        tokens = [c.text.strip() for c in counts]
        if tokens == ["0"]:
            raise InputError(f"{kind} {index}: a count of 0 (an empty line is <line/>)",
                             line=line.line)
        out.append(common.clue(tokens, kind=kind, index=index, length=length, line=line.line))
    return tuple(out)


def _image(
    node: _Node, width: int, height: int, filled: str, empty: str, saved: bool
) -> np.ndarray:
    if "|" in node.text:
        # Rows each between bars (`|..X.|`, newlines optional), or separated by single bars.
        body = re.sub(r"\s+", "", node.text).removeprefix("|").removesuffix("|")
        rows = body.split("||") if "||" in body else body.split("|")
    else:  # no bars at all: a row a line
        rows = node.text.split()
    what = "saved image" if saved else "solution image"
    if len(rows) != height:
        raise InputError(f"{what} has {len(rows)} rows but the puzzle has {height}",
                         line=node.line)
    chars = {filled: FILLED, empty: EMPTY}
    if saved:
        chars["?"] = UNKNOWN
    out = []
    for i, row in enumerate(rows, 1):
        if re.search(r"\[", row):
            raise InputError(f"{what} row {i}: cells limited to several colours ('[...]') "
                             "are not supported", line=node.line)
        for ch in row:
            if ch not in chars and ch.isalnum() and not saved:
                raise InputError("colour puzzles are not supported", line=node.line)
        out.append(common.cells(row, chars, width=width, what=f"{what} row {i}",
                                line=node.line))
    return common.grid_array(out)


def format(puzzle: Puzzle) -> str:
    out = ['<?xml version="1.0"?>',
           '<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.1.dtd">',
           "<puzzleset>",
           '<puzzle type="grid" defaultcolor="black">']
    for tag, value in (("title", puzzle.title), ("author", puzzle.author),
                       ("copyright", puzzle.copyright)):
        if value:
            text = _NOT_XML.sub(" ", common.one_line(value))
            out.append(f"<{tag}>{html.escape(text, quote=False)}</{tag}>")
    out += ['<color name="white" char=".">fff</color>',
            '<color name="black" char="X">000</color>']
    for name, clues in (("columns", puzzle.columns), ("rows", puzzle.rows)):
        out.append(f'<clues type="{name}">')
        for clue in clues:
            counts = "".join(f"<count>{n}</count>" for n in clue)
            out.append(f"<line>{counts}</line>")
        out.append("</clues>")
    for kind, grid in (("goal", puzzle.solution), ("saved", puzzle.grid)):
        if grid is not None:
            rows = common.cell_string(grid, "X", ".", "?")
            out.append(f'<solution type="{kind}">')
            out.append("<image>")
            out += [f"|{row}|" for row in rows]
            out.append("</image>")
            out.append("</solution>")
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"
