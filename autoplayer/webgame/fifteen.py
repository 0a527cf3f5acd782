"""The 15-puzzle page's side of the server: URL query -> a board and the page's config.

`/fifteen?size=WxH&seed=N` (3x3..6x6; default 4x4) shows a seeded, solvable
shuffle; `puzzle=ID` a registered board (a `Board`, or a file holding a Tatham
game ID such as `4x4:4,6,5,12,...`). `tile=PX` sets the tile size; `hover=R,C`
draws that tile lit as if the pointer were on it. The page reports its cells, a
solved flag and the clicks it took, as the nonogram page does.
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
SHUFFLE_MOVES = 400
"""Random slides from the goal: every board reached is solvable by construction, and this
many mix a 6x6 board well (the parity rule checks it anyway)."""


def seeded_board(width: int, height: int, seed: int) -> Any:
    """A solvable, well-mixed board, the same for the same arguments on every machine.

    Made by random slides from the goal (never undoing the last one), so it is
    solvable without trusting a parity argument; a board that ends solved is
    mixed further.
    """
    from autoplayer.games.fifteen.model import OPPOSITE, goal

    rng = random.Random(f"fifteen:{width}x{height}:{seed}")
    board = goal(width, height)
    last = ""
    i = 0
    while i < SHUFFLE_MOVES or board.is_solved():
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


def configure(server: GameServer, query: Mapping[str, str]) -> PageConfig:
    from autoplayer.games.fifteen.model import Board

    if "puzzle" in query:
        board = server.registered(query["puzzle"])
        if not isinstance(board, Board):
            raise UserError(f"puzzle {query['puzzle']!r} is not a sliding-puzzle board")
        board_size(f"{board.width}x{board.height}")
        name = f"{board.width}×{board.height}"
    else:
        width, height = board_size(query.get("size", "4x4"))
        seed = query_int(query, "seed", 0)
        board = seeded_board(width, height, seed)
        name = f"{width}×{height} #{seed}"
    tile = query_int(query, "tile", DEFAULT_TILE)
    if not MIN_TILE <= tile <= MAX_TILE:
        raise UserError(f"tile size {tile} px is outside {MIN_TILE}..{MAX_TILE}")
    config = {"width": board.width, "height": board.height, "cells": list(board.cells),
              "tile": tile}
    if "hover" in query:
        r, c = query_cell(query, "hover", board.width, board.height)
        config["hover"] = r * board.width + c
    return PageConfig(config, board, f"Fifteen – {name}")


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
