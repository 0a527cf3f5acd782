"""The nonogram page's side of the server: URL query -> puzzle and page config.

The skins live in `static/nonogram/skins.json`, read here to check a URL and
handed whole to the page, so Python and JavaScript never disagree about them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from autoplayer.errors import UserError

# The appearance options (font=, weight=, style=, texture=, digits=, lines=, ink=) live in
# their own module; re-exported here with the page's other options.
from autoplayer.webgame.nonogram_looks import CLUE_FONTS as CLUE_FONTS
from autoplayer.webgame.nonogram_looks import CLUE_TEXTURES as CLUE_TEXTURES
from autoplayer.webgame.nonogram_looks import FONT_STYLES as FONT_STYLES
from autoplayer.webgame.nonogram_looks import FONT_WEIGHTS as FONT_WEIGHTS
from autoplayer.webgame.nonogram_looks import appearance
from autoplayer.webgame.puzzles import parse_grid_param, parse_size, puzzle_json, seeded_puzzle
from autoplayer.webgame.server import (
    STATIC,
    GamePage,
    GameServer,
    PageConfig,
    query_cell,
    query_int,
)

THEMES = ("light", "dark")
MIN_CELL, MAX_CELL = 12, 40
DEFAULT_SKIN = "pixel"

@cache
def skins() -> dict[str, dict[str, Any]]:
    """Every skin by name, as the page draws them."""
    return json.loads((STATIC / "nonogram" / "skins.json").read_text(encoding="utf-8"))


SKINS: tuple[str, ...] = tuple(skins())


def configure(server: GameServer, query: Mapping[str, str]) -> PageConfig:
    """The puzzle (by `puzzle=ID`, else `size=WxH&seed=N`) and the look a URL asks for.

    Optional: `grid=` a started game (`puzzles.grid_param`), `hover=R,C` a cell
    drawn as if the pointer were over it (until the pointer moves), the
    appearance options (`appearance`) and the rule set (`rule_options`).
    """
    from autoplayer.games.nonogram.model import Puzzle

    if "puzzle" in query:
        puzzle = server.registered(query["puzzle"])
        if not isinstance(puzzle, Puzzle):
            raise UserError(f"puzzle {query['puzzle']!r} is not a nonogram")
    else:
        width, height = parse_size(query.get("size", "10x10"))
        puzzle = seeded_puzzle(width, height, query_int(query, "seed", 0))
    skin = query.get("skin", DEFAULT_SKIN)
    if skin not in skins():
        raise UserError(f"unknown skin {skin!r}; skins: {', '.join(skins())}")
    theme = query.get("theme", THEMES[0])
    if theme not in THEMES:
        raise UserError(f"unknown theme {theme!r}; themes: {', '.join(THEMES)}")
    cell = query_int(query, "cell", skins()[skin]["cell"])
    if not MIN_CELL <= cell <= MAX_CELL:
        raise UserError(f"cell size {cell} px is outside {MIN_CELL}..{MAX_CELL}")
    config = {
        "puzzle": puzzle_json(puzzle),
        "skinName": skin,
        "skin": skins()[skin],
        "theme": theme,
        "cell": cell,
    }
    # A started game (cells already set) and a highlighted cell, for pictures without a pointer.
    config["rules"] = rule_options(query)
    if "grid" in query:
        config["initial"] = parse_grid_param(query["grid"], puzzle.width, puzzle.height)
        if config["rules"]["mark"] == "none" and any(0 in row for row in config["initial"]):
            raise UserError("grid= has marked cells but mark=none has no marks")
    if "hover" in query:
        config["hover"] = list(query_cell(query, "hover", puzzle.width, puzzle.height))
    config["layout"] = layout_options(query)
    clues = config["layout"]["clue_cells"]
    looks = appearance(query, skins()[skin], theme, skins()[skin]["clues"] if clues == "skin"
                       else clues)
    if looks:
        config["appearance"] = looks
    name = puzzle.title or f"{puzzle.width}×{puzzle.height}"
    return PageConfig(config, puzzle, f"Nonogram – {name}")


LAYOUT_CHOICES: dict[str, tuple[str, ...]] = {
    "rows": ("left", "right"),  # which side of the board the row clues stand on
    "columns": ("top", "bottom"),  # which side the column clues stand on
    "frame": ("1", "0"),  # 0: inner lines only, the outer cells open to the page
    "fives": ("1", "0"),  # thick lines every 5 cells
    # Clue numbers as the skin draws them, one per box drawn exactly like a grid cell
    # (abutting the board), or free-standing.
    "clue_cells": ("skin", "grid", "free"),
    # A puzzle player's ruled menu bar and toolbar (ruled like the grid) above the board
    # region, below any heading: more ruled boxes in view than the board's.
    "panel": ("none", "top"),
}
"""Layout options (`key=value` in the URL; the first choice is the default). They move
and frame things; how the clues look (fonts, backgrounds) is the skin's business."""


def layout_options(query: Mapping[str, str]) -> dict[str, Any]:
    """Where the clues stand and how the board is framed, plus text near the board:
    `heading=TEXT` (a heading just beyond the column clues) and `status=TEXT` (a status
    line just beyond the board on the other side), both on the game's own canvas."""
    out: dict[str, Any] = {}
    for key, choices in LAYOUT_CHOICES.items():
        value = query.get(key, choices[0])
        if value not in choices:
            raise UserError(f"{key}={value!r}; choices: {', '.join(choices)}")
        out[key] = value == "1" if choices == ("1", "0") else value
    for key in ("heading", "status"):
        text = query.get(key, "")
        if len(text) > 60:
            raise UserError(f"{key} text is over 60 characters")
        out[key] = text
    return out


RULE_CHOICES: dict[str, tuple[str, ...]] = {
    # How a filled cell is drawn: the skin's colour, a light blue with an inset shadow
    # (lighter than the clue ink), a picture (a bevelled, striped tile), or blue hatching
    # (dark diagonal stripes on a pale blue, continuous from cell to cell).
    "fill": ("skin", "light", "image", "hatched"),
    # How a marked-empty cell is drawn: the skin's cross or dot, the whole cell grey, a
    # picture of an X; or the game has no marks at all.
    "mark": ("skin", "grey", "image", "none"),
    # What the pointer lights up: its row and column (clues too), its cell only, nothing,
    # or the clues of its row and column only (no grid cell).
    "highlight": ("lines", "cell", "none", "clues"),
    # What the buttons do to a cell (docs/development.md: rule sets).
    "buttons": ("toggle", "set", "cycle", "cycle2", "lock"),
    # What moving with a button held does: paint the straight run from the pressed cell,
    # set every cell the pointer enters, set only the release's cell, or nothing.
    "drag": ("line", "enter", "ends", "none"),
    # When the game is solved: every line's runs match its clue, or that and every other
    # cell marked empty.
    "rule": ("runs", "marks"),
    # What the game shows once solved, besides its status text (docs/development.md: rule sets):
    # nothing, an in-page dialog, a browser alert, the canvas dimmed, the board restyled
    # (no lines, fills merged, a check mark beside it), the board frozen into an image
    # (a pulsing frame, a check mark fading over it), a "Complete!" notice over the board
    # with the page greyed.
    "sign": ("none", "dialog", "alert", "dim", "restyle", "freeze", "notice"),
}
"""Rule-set options (`key=value` in the URL; the first choice is the default, today's
game): how other nonogram games draw cells, take input and say they are solved, so the
bot can be tested against combinations of them. `rules_conflict` says which don't mix."""

MARKING_BUTTONS = ("cycle2", "lock")
"""Button schemes that are defined by what the right button does to cells: no game
without marks has them (with mark=none the right button does nothing to cells)."""


def rules_conflict(rules: Mapping[str, str]) -> str | None:
    """Why a full set of rule choices cannot go together, or None when it can.

    Only marks are ever missing. Every sign mixes with every board: one sign per game,
    and restyle, freeze and notice work on whatever the board shows (a restyle drops the
    marks and the hover, a freeze keeps the board as last drawn without the hover), so
    an alert over hatched or image fills, or a freeze of a cycle board, is a game like
    any other."""
    if rules["mark"] == "none":
        if rules["rule"] == "marks":
            return "rule=marks needs marks, but mark=none has none"
        if rules["buttons"] in MARKING_BUTTONS:
            return f"buttons={rules['buttons']} needs marks, but mark=none has none"
    return None


def rule_options(query: Mapping[str, str]) -> dict[str, str]:
    """Every rule-set option (RULE_CHOICES), the default where the URL gives none;
    UserError for an unknown value or a combination `rules_conflict` refuses."""
    out: dict[str, str] = {}
    for key, choices in RULE_CHOICES.items():
        value = query.get(key, choices[0])
        if value not in choices:
            raise UserError(f"{key}={value!r}; choices: {', '.join(choices)}")
        out[key] = value
    problem = rules_conflict(out)
    if problem:
        raise UserError(problem)
    return out


def parse_rules(text: str) -> dict[str, str]:
    """`KEY=VALUE,...` (a command line's rule set) -> every rule-set option, checked as a
    URL's are; UserError for a malformed pair or an unknown key."""
    given: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = pair.partition("=")
        if not sep:
            raise UserError(f"rule {pair!r} is not KEY=VALUE")
        if key not in RULE_CHOICES:
            raise UserError(f"unknown rule {key!r}; rules: {', '.join(RULE_CHOICES)}")
        given[key] = value
    return rule_options(given)


def load(path: str | Path) -> Any:
    """A puzzle file in any format the engine reads (or a Pattern game ID)."""
    from autoplayer.games.nonogram.formats import load_puzzle

    return load_puzzle(path)


PAGE = GamePage("nonogram", "nonogram/index.html", configure, load)
