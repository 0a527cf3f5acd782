"""Which game a window or a picture holds, and the back-end that plays it."""

from __future__ import annotations

import importlib
from typing import Any

GAMES: dict[str, str] = {
    "nonogram": "autoplayer.games.nonogram.game:make_game",
    "fifteen": "autoplayer.games.fifteen.game:make_game",
    "ripple": "autoplayer.games.ripple.game:make_game",
}
"""Game name -> 'module:factory'; a factory takes the keyword options of `make_game`."""

WINDOW_WORDS = (("fifteen", "fifteen"), ("ripple", "ripple"), ("nonogram", "nonogram"))
"""A kind of puzzle named in a window's title or class (as a person would read it there),
and the game back-end that plays it. Kinds of puzzle only, never one program's name."""


def game_for(name: str | None, window: Any, pixels: Any = None) -> str:
    """The game asked for, or the kind of puzzle the window names, or the one the picture
    shows: a Ripple board (rooms, digits in cells), else a nonogram."""
    if name is not None:
        return name
    named = window_names(window)
    if named is not None:
        return named
    if pixels is not None:
        from autoplayer.games.ripple.detect import shows_ripple

        if shows_ripple(pixels):
            return "ripple"
    return "nonogram"


def window_names(window: Any) -> str | None:
    """The game the window's title or class names, if any."""
    if window is None:
        return None
    names = " ".join((window.title, *window.wm_class)).lower()
    return next((game for word, game in WINDOW_WORDS if word in names), None)


def load_game(name: str, **options: Any) -> Any:
    module, _, factory = GAMES[name].partition(":")
    return getattr(importlib.import_module(module), factory)(**options)
