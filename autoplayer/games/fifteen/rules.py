"""How a sliding-puzzle game takes input, as learned by experiment, and the file it is kept in.

Plain data, as the nonogram rules are: what a click on a tile further along the
gap's row or column does (slides the whole run, slides only the tile next to
the gap, or nothing), whether a click next to the gap slides it, and which tile
slide each arrow key makes (the tile beside the gap moving into it in the
arrow's direction, or the gap moving that way, or nothing). Kept per game
(window class and title) in the user's config directory beside the nonogram
profiles, so a game seen before costs no experiment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoplayer.errors import UserError

FORMAT = "autoplayer fifteen input 1"
FAR = ("run", "one", "none")
"""A click on a tile two or more cells from the gap, in its row or column: every tile
between slides with it (`run`), only the tile next to the gap slides (`one`), nothing."""
ARROWS = ("left", "right", "up", "down")
SLIDES = ("L", "R", "U", "D", "")
"""The tile slide a key makes ('' none)."""
TILE_SENSE = {"left": "L", "right": "R", "up": "U", "down": "D"}
"""Arrow -> the tile slide when the arrow moves a tile into the gap its way."""
GAP_SENSE = {"left": "R", "right": "L", "up": "D", "down": "U"}
"""Arrow -> the tile slide when the arrow moves the gap its way."""


@dataclass(frozen=True)
class Input:
    """One game's input rules as far as the bot has seen them."""

    near: bool
    """A click on a tile next to the gap slides it."""
    far: str
    """One of FAR."""
    keys: Mapping[str, str] = field(default_factory=dict)
    """Arrow -> the tile slide it makes (see SLIDES); empty when keys were not tried (the
    clicks do the work)."""
    slide: float = 0.0
    """Seconds one slide took to be drawn and settle in the experiment."""

    @property
    def clicks(self) -> bool:
        return self.near

    def key_for(self, move: str) -> str | None:
        """The arrow that makes tile slide `move`, if any."""
        return next((k for k, m in self.keys.items() if m == move), None)

    def playable(self) -> bool:
        return self.near or all(self.key_for(m) for m in "LRUD")

    def describe(self) -> str:
        if self.near:
            far = {"run": "a click on a tile in the gap's row or column slides the whole run",
                   "one": "a click on a tile further along slides only the one next to the "
                          "gap", "none": "only a tile next to the gap slides when clicked"}
            text = far[self.far]
        else:
            text = "clicks slide nothing"
        if self.keys:
            sense = ("the tile into the gap" if self.keys == TILE_SENSE else
                     "the gap into the tile" if self.keys == GAP_SENSE else
                     ", ".join(f"{k}: {m or 'nothing'}" for k, m in self.keys.items()))
            text += "; arrow keys move " + sense if any(self.keys.values()) else \
                "; arrow keys do nothing"
        if self.slide:
            text += f"; a slide settles in {self.slide:.2f} s"
        return text

    def as_json(self, window: Mapping[str, Any] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "near": self.near, "far": self.far,
                               "keys": dict(self.keys), "slide": round(self.slide, 3)}
        if window is not None:
            out["window"] = dict(window)
        return out


def input_from_json(data: Any, where: str) -> Input:
    """A profile file's contents, checked; `where` names the file in errors."""
    def bad(what: str) -> UserError:
        return UserError(f"{where}: {what}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f"not an autoplayer fifteen profile (no \"format\": \"{FORMAT}\")")
    near, far, keys, slide = (data.get(k) for k in ("near", "far", "keys", "slide"))
    if not isinstance(near, bool):
        raise bad("\"near\" must be true or false")
    if far not in FAR:
        raise bad(f"\"far\" must be one of {', '.join(FAR)}")
    if not isinstance(keys, dict) or not all(k in ARROWS and v in SLIDES
                                             for k, v in keys.items()):
        raise bad("\"keys\" must map arrows (left, right, up, down) to L, R, U, D or \"\"")
    if not isinstance(slide, (int, float)) or not 0 <= slide <= 10:
        raise bad("\"slide\" must be seconds, 0..10")
    return Input(near, far, dict(keys), float(slide))


def load_input(path: Path) -> Input:
    from autoplayer.profiles import load_json

    return input_from_json(load_json(path), str(path))


def save_input(path: Path, rules: Input, window: Mapping[str, Any] | None = None) -> None:
    """Written whole to a temp file and renamed: a reader never sees half a profile."""
    from autoplayer.profiles import save_json

    save_json(path, rules.as_json(window))


def profile_for(wm_class: Any, title: str) -> tuple[dict[str, Any], Path]:
    """The window key and profile file for a sliding-puzzle window (`autoplayer.profiles`,
    the file named for this kind of game: one window may hold several)."""
    from autoplayer.profiles import profile_path, window_key

    key = window_key(wm_class, title)
    return key, profile_path(key, "fifteen")
