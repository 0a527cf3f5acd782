"""The Ripple Effect page's side of the server: URL query -> puzzle, look and input scheme.

`/ripple?size=WxH&seed=N` shows a generated puzzle with one solution (4x4..15x15,
rooms of up to 12 cells, so values 10-12 take two keys); `puzzle=ID` a
registered `Puzzle` or a file in any layout `autoplayer ripple` reads. The
look varies the way real sites do, each part chosen by its own parameter or
all at once by `look=N` (a seed): room borders thick or coloured, cell lines
thin or dotted, entered digits told from givens by colour or by weight, pencil
marks in corners, light or dark theme, three fonts, the cell size, and a
puzzle player's ruled menu panel above the board (`menu=panel`). The input
rules vary as real players' do, each by its own parameter or all at once by
`rules=N` (a seed): `scheme=` how a digit goes in (see `SCHEMES`: typed into
the selected cell, counted up by clicks on the selected cell or by every click, or
clicked on a number pad beside the board), `commit=enter` typed digits wait in an
entry field until Enter, `focus=click` the first click on the board only gives
it the keyboard focus, `lag=MS` each input is drawn MS ms late and input arriving
meanwhile is dropped (a busy page). The page judges its own board and reports it, with
every event it took and dropped, as the other pages do.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from autoplayer.errors import InputError, UserError
from autoplayer.webgame.server import GamePage, GameServer, PageConfig, query_cell, query_int

MIN_SIDE, MAX_SIDE = 4, 15
MAX_ROOM = 12
GENERATOR_ROOM = 8
"""The generator's room size before joining; joined rooms stay within `MAX_ROOM`."""
MIN_CELL, MAX_CELL = 28, 64
DEFAULT_CELL = 44

LOOK: dict[str, tuple[str, ...]] = {
    "theme": ("light", "dark"),
    "border": ("thick", "colour"),
    "lines": ("thin", "dotted"),
    "font": ("sans", "serif", "mono"),
    "entered": ("colour", "weight"),
    "pencil": ("none", "corners"),
    "menu": ("none", "panel"),
}
"""Each part of the look and its choices (the first is the default)."""

SCHEMES: dict[str, str] = {
    "type": "click a cell, then type its value (10-12: two keys); BackSpace clears",
    "count": "click a cell to select it, click it again to count up, right-click to count "
             "down; BackSpace clears",
    "cycle": "every click on a cell counts it up, a right-click down; nothing is selected",
    "pad": "click a cell, then a digit button on the number pad beside the board; typed "
           "digits do nothing; BackSpace clears",
}

RULES: dict[str, tuple[str, ...]] = {
    "scheme": tuple(SCHEMES),
    "commit": ("none", "enter"),
    "focus": ("none", "click"),
}
"""Each input rule and its choices (the first is the default). commit=enter is for typing
pages (scheme=type) only."""
DRAWN_SCHEMES = ("type", "count", "pad")
"""The schemes `rules=N` draws first (a count page then counts every click half the
time: drawn last, so a seed keeps the rules it had before "cycle" was added)."""
LAGS = (0, 60)
"""`lag=` values `rules=N` draws from (ms)."""
MAX_LAG = 1000


def random_rules(seed: int) -> dict[str, Any]:
    """Input rules drawn from a seed, the same on every machine; commit only when typing."""
    rng = random.Random(f"ripple-rules:{seed}")
    rules: dict[str, Any] = {key: rng.choice(DRAWN_SCHEMES if key == "scheme" else choices)
                             for key, choices in RULES.items()}
    if rules["scheme"] != "type":
        rules["commit"] = "none"
    rules["lag"] = rng.choice(LAGS)
    if rules["scheme"] == "count" and rng.random() < 0.5:
        rules["scheme"] = "cycle"  # drawn last: older seeds keep their other rules
    return rules


def random_look(seed: int) -> dict[str, Any]:
    """A look drawn from a seed: every part and a cell size, the same on every machine."""
    rng = random.Random(f"ripple-look:{seed}")
    look: dict[str, Any] = {key: rng.choice(choices) for key, choices in LOOK.items()
                            if key != "menu"}
    look["cell"] = rng.randrange(32, 57, 4)
    look["menu"] = rng.choice(LOOK["menu"])  # drawn last: older seeds keep their looks
    return look


def parse_board_size(text: str) -> tuple[int, int]:
    """'WxH' -> (rows, cols) for a board this page draws; a one-line UserError otherwise."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.strip().isdigit() or not h.strip().isdigit():
        raise UserError(f"size {text!r} is not WIDTHxHEIGHT (for example 10x10)")
    cols, rows = int(w), int(h)
    if not (MIN_SIDE <= cols <= MAX_SIDE and MIN_SIDE <= rows <= MAX_SIDE):
        raise UserError(f"board size {cols}x{rows} is outside "
                        f"{MIN_SIDE}x{MIN_SIDE}..{MAX_SIDE}x{MAX_SIDE}")
    return rows, cols


def seeded_puzzle(rows: int, cols: int, seed: int) -> Any:
    """A puzzle with exactly one solution, the same for the same arguments everywhere."""
    from autoplayer.games.ripple.generator import generate

    return generate(rows, cols, seed, max_room=GENERATOR_ROOM)[0]


def puzzle_json(puzzle: Any, title: str) -> dict[str, Any]:
    """Rooms and givens only: the page judges by the rules, never by a stored solution."""
    return {"rows": puzzle.rows, "cols": puzzle.cols, "rooms": list(puzzle.rooms),
            "givens": list(puzzle.givens), "title": title}


def values_param(values: list[int]) -> str:
    """Entered values as a URL value: comma-separated, 0 for an empty cell."""
    return ",".join(str(v) for v in values)


def _choice(query: Mapping[str, str], key: str, default: str) -> str:
    value = query.get(key, default)
    if value not in LOOK[key]:
        raise UserError(f"unknown {key} {value!r}; choices: {', '.join(LOOK[key])}")
    return value


def configure(server: GameServer, query: Mapping[str, str]) -> PageConfig:
    from autoplayer.games.ripple.model import Puzzle

    if "puzzle" in query:
        puzzle = server.registered(query["puzzle"])
        if not isinstance(puzzle, Puzzle):
            raise UserError(f"puzzle {query['puzzle']!r} is not a Ripple Effect puzzle")
        name = f"{puzzle.cols}×{puzzle.rows}"
    else:
        rows, cols = parse_board_size(query.get("size", "8x8"))
        seed = query_int(query, "seed", 0)
        puzzle = seeded_puzzle(rows, cols, seed)
        name = f"{cols}×{rows} #{seed}"
    if not (MIN_SIDE <= puzzle.rows <= MAX_SIDE and MIN_SIDE <= puzzle.cols <= MAX_SIDE):
        raise UserError(f"board size {puzzle.cols}x{puzzle.rows} is outside "
                        f"{MIN_SIDE}x{MIN_SIDE}..{MAX_SIDE}x{MAX_SIDE}")
    if puzzle.max_value > MAX_ROOM:
        raise UserError(f"a room of {puzzle.max_value} cells is larger than {MAX_ROOM}")
    base = random_look(query_int(query, "look", 0)) if "look" in query else {}
    look = {key: _choice(query, key, base.get(key, choices[0])) for key, choices in LOOK.items()}
    look["cell"] = query_int(query, "cell", base.get("cell", DEFAULT_CELL))
    if not MIN_CELL <= look["cell"] <= MAX_CELL:
        raise UserError(f"cell size {look['cell']} px is outside {MIN_CELL}..{MAX_CELL}")
    rules = rule_options(query)
    config: dict[str, Any] = {"puzzle": puzzle_json(puzzle, f"Ripple Effect {name}"),
                              "look": look, **rules,
                              "pencilSeed": query_int(query, "seed", 0)}
    if "values" in query:
        config["initial"] = _values(query["values"], puzzle)
    if "cursor" in query:
        r, c = query_cell(query, "cursor", puzzle.cols, puzzle.rows)
        config["cursor"] = r * puzzle.cols + c
    return PageConfig(config, puzzle, f"Ripple Effect – {name}")


def rule_options(query: Mapping[str, str]) -> dict[str, Any]:
    """scheme, commit, focus and lag from the URL (drawn by `rules=N` where not given);
    UserError for an unknown value or commit=enter on a page that takes no typing."""
    base = random_rules(query_int(query, "rules", 0)) if "rules" in query else {}
    out: dict[str, Any] = {}
    for key, choices in RULES.items():
        value = query.get(key, base.get(key, choices[0]))
        if value not in choices:
            raise UserError(f"unknown {key} {value!r}; choices: {', '.join(choices)}")
        out[key] = value
    if out["commit"] == "enter" and out["scheme"] != "type":
        raise UserError(f"commit=enter is for scheme=type (typed digits), not {out['scheme']}")
    out["lag"] = query_int(query, "lag", base.get("lag", 0))
    if not 0 <= out["lag"] <= MAX_LAG:
        raise UserError(f"lag={out['lag']} ms is outside 0..{MAX_LAG}")
    return out


def _values(text: str, puzzle: Any) -> list[int]:
    parts = text.split(",")
    if len(parts) != puzzle.rows * puzzle.cols or not all(p.strip().isdigit() for p in parts):
        raise UserError(f"values= needs {puzzle.rows * puzzle.cols} comma-separated numbers")
    values = [int(p) for p in parts]
    for cell, (v, given) in enumerate(zip(values, puzzle.givens, strict=True)):
        if v and (given or v > puzzle.room_size[cell]):
            raise UserError(f"values=: cell {cell} cannot hold {v}")
    return values


def load(path: str | Path) -> Any:
    """A puzzle file in either layout the engine reads."""
    from autoplayer.games.ripple.cli import load_puzzle

    try:
        return load_puzzle(path)
    except InputError as err:
        raise UserError(str(err)) from None


PAGE = GamePage("ripple", "ripple/index.html", configure, load, example="size=8x8&seed=1")
