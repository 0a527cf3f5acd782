"""The 15-puzzle page's side of the server: URL query -> a board and the page's config.

`/fifteen?size=WxH&seed=N` (3x3..6x6; default 4x4) shows a seeded, solvable
shuffle; `puzzle=ID` a registered board (a `Board`, or a file holding a Tatham
game ID such as `4x4:4,6,5,12,...`). `tile=PX` sets the tile size; `hover=R,C`
draws that tile lit as if the pointer were on it.

The look and the rules vary the way real sliding-puzzle games do, each part by
its own parameter or all at once by `look=N` (a seed; see `LOOK`): tiles with
borders on a board, or borderless numerals floating on one flat panel inside a
dark rounded frame; four fonts (italic serif among them); the solved position
with the gap last (tiles 1..N-1) or first (tiles 2..N); a click sliding the
whole run between the tile and the gap, only a tile next to the gap, or
nothing; arrow keys moving the tile into the gap, the gap into the tile, or
nothing; picture tiles with no numbers (`tiles=picture`, `picture=KIND`); `slide=MS`
animations, during which input finishes the animation or
is dropped (`busy`). The page judges solved by its own goal and reports its
cells, the solved flag and every input it took, as the nonogram page does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from autoplayer.errors import InputError, UserError
from autoplayer.webgame.server import GamePage, GameServer, PageConfig, query_cell, query_int

MIN_SIDE, MAX_SIDE = 3, 6
MIN_TILE, MAX_TILE = 40, 120
DEFAULT_TILE = 72
MIN_SLIDE, MAX_SLIDE = 0, 600
DEFAULT_SLIDE = 130
"""Milliseconds a slide animates (Tatham's Fifteen takes as long)."""

LOOK: dict[str, tuple[str, ...]] = {
    "tiles": ("bordered", "flat", "picture"),
    "font": ("sans", "serif-italic", "serif", "mono"),
    "theme": ("wood", "slate"),
    "goal": ("gap-last", "gap-first"),
    "click": ("line", "adjacent", "none"),
    "keys": ("none", "tile", "gap", "mixed"),
    "busy": ("finish", "ignore"),
    "picture": ("noise", "gradient", "mixed", "shapes"),
}
"""Each part of the look and rules, and its choices (the first is the default).

tiles: bordered tiles on a board, borderless numerals on one flat panel in a dark
rounded frame, or pictures with no numbers: one generated picture (`picture`: its kind, see
`picture_art`) cut into tiles that abut on that panel, the gap showing the panel. goal:
the solved position has the gap last (tiles 1..N-1) or first (tiles 2..N). click: a click
on any tile in the gap's row or column slides the whole run, only a tile next to the gap
slides, or clicks do nothing. keys: an arrow moves the tile into the gap in its direction,
moves the gap in its direction, or does nothing; "mixed" (asked for, never drawn): left and
right move the tile, up and down the gap. busy: input during a
slide animation finishes it first, or is ignored."""

DRAWN_KEYS = ("none", "tile", "gap")
"""The keys `look=N` draws from (a page asks for "mixed" by name)."""
PICTURE_SHARE = 0.25
"""How often `look=N` draws picture tiles."""
NUMERAL_TILES = ("bordered", "flat")

SHUFFLE_MOVES = 400
"""Random slides from the goal: every board reached is solvable by construction, and this
many mix a 6x6 board well (the parity rule checks it anyway)."""


def goal_board(width: int, height: int, goal: str = "gap-last") -> Any:
    """The solved position: 1..N-1 then the gap, or the gap then 2..N."""
    from autoplayer.games.fifteen.model import Board

    n = width * height
    cells = (*range(1, n), 0) if goal == "gap-last" else (0, *range(2, n + 1))
    return Board(width, height, cells)


def seeded_board(width: int, height: int, seed: int, goal: str = "gap-last") -> Any:
    """A solvable, well-mixed board, the same for the same arguments on every machine.

    Made by random slides from the goal (never undoing the last one), so it is
    solvable without trusting a parity argument; a board that ends solved is
    mixed further.
    """
    from autoplayer.games.fifteen.model import OPPOSITE

    key = f"fifteen:{width}x{height}:{seed}" + ("" if goal == "gap-last" else f":{goal}")
    rng = random.Random(key)
    solved = goal_board(width, height, goal)
    board = solved
    last = ""
    i = 0
    while i < SHUFFLE_MOVES or board == solved:
        moves = [m for m in board.legal_moves() if m != OPPOSITE.get(last, "")]
        last = rng.choice(moves)
        board = board.move(last)
        i += 1
    return board


def board_size(text: str) -> tuple[int, int]:
    """`WxH` for a board this page draws; a one-line UserError otherwise."""
    from autoplayer.games.fifteen.model import parse_size

    try:
        width, height = parse_size(text)
    except InputError as err:
        raise UserError(err.message) from None
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise UserError(f"board size {width}x{height} is outside "
                        f"{MIN_SIDE}x{MIN_SIDE}..{MAX_SIDE}x{MAX_SIDE}")
    return width, height


def random_look(seed: int) -> dict[str, Any]:
    """A look and rules drawn from a seed, the same on every machine: every part, a tile
    size and a slide time. Never a page that takes no input at all."""
    rng = random.Random(f"fifteen-look:{seed}")
    # Picture tiles are drawn last, so a seed draws the other parts as it did before them.
    look: dict[str, Any] = {key: rng.choice(NUMERAL_TILES if key == "tiles" else
                                            DRAWN_KEYS if key == "keys" else choices)
                            for key, choices in LOOK.items() if key != "picture"}
    if look["click"] == "none" and look["keys"] == "none":
        look["keys"] = rng.choice(("tile", "gap"))
    look["tile"] = rng.randrange(56, 97, 8)
    look["slide"] = rng.randrange(60, 361, 20)
    look["picture"] = LOOK["picture"][0]
    if rng.random() < PICTURE_SHARE:
        look["tiles"] = "picture"
        look["picture"] = rng.choice(LOOK["picture"])
    return look


def _choice(query: Mapping[str, str], key: str, default: str) -> str:
    value = query.get(key, default)
    if value not in LOOK[key]:
        raise UserError(f"unknown {key} {value!r}; choices: {', '.join(LOOK[key])}")
    return value


def configure(server: GameServer, query: Mapping[str, str]) -> PageConfig:
    from autoplayer.games.fifteen.model import Board

    base = random_look(query_int(query, "look", 0)) if "look" in query else {}
    look = {key: _choice(query, key, base.get(key, choices[0])) for key, choices in LOOK.items()}
    if "puzzle" in query:
        board = server.registered(query["puzzle"])
        if not isinstance(board, Board):
            raise UserError(f"puzzle {query['puzzle']!r} is not a sliding-puzzle board")
        board_size(f"{board.width}x{board.height}")
        name = f"{board.width}×{board.height}"
    else:
        width, height = board_size(query.get("size", "4x4"))
        seed = query_int(query, "seed", 0)
        board = seeded_board(width, height, seed, look["goal"])
        name = f"{width}×{height} #{seed}"
    solved = goal_board(board.width, board.height, look["goal"])
    if sorted(board.cells) != sorted(solved.cells):
        raise UserError(f"the board's tiles are not those of the {look['goal']} goal "
                        f"({', '.join(map(str, sorted(t for t in solved.cells if t)))})")
    tile = query_int(query, "tile", base.get("tile", DEFAULT_TILE))
    if not MIN_TILE <= tile <= MAX_TILE:
        raise UserError(f"tile size {tile} px is outside {MIN_TILE}..{MAX_TILE}")
    slide = query_int(query, "slide", base.get("slide", DEFAULT_SLIDE))
    if not MIN_SLIDE <= slide <= MAX_SLIDE:
        raise UserError(f"slide time {slide} ms is outside {MIN_SLIDE}..{MAX_SLIDE}")
    config = {"width": board.width, "height": board.height, "cells": list(board.cells),
              "goal": list(solved.cells), "tile": tile, "slide": slide, "look": look}
    if look["tiles"] == "picture":
        key = query.get("puzzle", f"{board.width}x{board.height}:{query.get('seed', '0')}")
        config["picture"] = picture_url(f"fifteen-picture:{key}", look["picture"],
                                        board.width * tile, board.height * tile)
    if "hover" in query:
        r, c = query_cell(query, "hover", board.width, board.height)
        config["hover"] = r * board.width + c
    return PageConfig(config, board, f"Fifteen – {name}")


def picture_url(key: str, kind: str, width: int, height: int) -> str:
    """The page's picture as a PNG data URL, the same for the same key on every machine."""
    import base64

    import cv2

    from autoplayer.webgame.picture_art import seeded_picture

    rgb = seeded_picture(key, kind, height, width)
    ok, png = cv2.imencode(".png", rgb[:, :, ::-1])
    assert ok, "OpenCV encodes a PNG"
    return "data:image/png;base64," + base64.b64encode(png.tobytes()).decode("ascii")


def load(path: str | Path) -> Any:
    """A file holding a board as a Tatham game ID (`WxH:t,t,...`, 0 the gap)."""
    from autoplayer.files import read_text
    from autoplayer.games.fifteen.model import parse_board

    text = read_text(path)
    try:
        return parse_board(text)
    except InputError as err:
        raise err.at(path) from None


PAGE = GamePage("fifteen", "fifteen/index.html", configure, load, example="size=4x4&seed=1")
