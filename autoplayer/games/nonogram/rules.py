"""What a nonogram game does with input, as learned by experiment, and the file it is kept in.

Plain data: which state each button takes a cell to from each state (only
what the bot has seen happen), how the game takes a drag, which buttons open
a menu instead, and what the game needs before it says it is solved. Kept
per game (window class and title) as a small JSON file in the user's config
directory, so a game seen before costs no experiment.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from autoplayer.errors import UserError
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.games.nonogram.planner import Profile
from autoplayer.geometry import Button
from autoplayer.profiles import config_dir, profile_path, window_key  # noqa: F401 (kept here)

FORMAT = "autoplayer nonogram rules 1"
DRAGS = ("line", "enter", "ends", "none")
"""How a game takes a drag: the straight run from press to pointer (`line`), every cell
the pointer enters (`enter`), the press and release cells only (`ends`), or the press
cell only (`none`)."""
DONE = ("sign", "marks", "none")
"""What made the game say solved: the right fills alone (`sign`), fills and marks on the
other cells (`marks`), or it never said (`none`)."""
STATES = {UNKNOWN: "blank", FILLED: "filled", EMPTY: "marked"}
BY_NAME = {v: k for k, v in STATES.items()}
DEFAULT_MOTION = 0.02
"""Seconds before each motion of a drag: GTK drops motions closer than about 20 ms."""


@dataclass(frozen=True)
class Rules:
    """One game's input rules as far as the bot has seen them."""

    press: Mapping[tuple[int, Button], int] = field(default_factory=dict)
    """(state, button) -> state after the press, for every press seen; a press that
    changed nothing maps a state to itself."""
    drag: str | None = None
    """One of DRAGS, or None while untried."""
    menu: frozenset[Button] = frozenset()
    """Buttons that open a menu over the game instead of acting on the cell."""
    done: str | None = None
    """One of DONE, or None until the game has been seen to finish."""
    motion: float = DEFAULT_MOTION
    click_only: frozenset[Button] = frozenset()
    """Buttons whose drags the game was seen to miss (its drags with the filling button
    work): clicked cell by cell."""

    def has_mark(self) -> bool:
        return any(after == EMPTY for after in self.press.values())

    def button_to(self, before: int, after: int) -> Button | None:
        """A button seen to take `before` straight to `after`."""
        return next((b for (s, b), a in self.press.items() if s == before and a == after), None)

    def seen(self, state: int, button: Button, after: int) -> Rules:
        return replace(self, press={**self.press, (state, button): after})

    def profile(self, mark_empty: bool = False) -> Profile:
        """The planner's view: presses that change something, drags where they work."""
        return Profile(
            name="learned",
            press={k: v for k, v in self.press.items() if v != k[0]},
            drags=self.drag in ("line", "enter"),
            drag_each_cell=self.drag == "enter",
            mark_empty=mark_empty,
            click_only=self.click_only,
        )

    def describe(self) -> str:
        """One line for the report: what each button does, drags, menus."""
        parts = []
        for button in Button:
            steps = [f"{STATES[s]}->{STATES[a]}" for (s, b), a in sorted(
                self.press.items(), key=lambda kv: kv[0][0]) if b is button and a != s]
            if steps:
                parts.append(f"{button.value}: {', '.join(steps)}")
        if self.menu:
            parts.append("menu on " + ", ".join(button_names(self.menu)))
        parts.append(f"drags: {self.drag or 'untried'}")
        if self.click_only:
            parts.append("clicks only with " + ", ".join(button_names(self.click_only)))
        return "; ".join(parts)

    # -- the file -----------------------------------------------------------
    def as_json(self, window: Mapping[str, Any] | None = None) -> dict[str, Any]:
        press: dict[str, dict[str, str]] = {}
        for (state, button), after in sorted(self.press.items(),
                                             key=lambda kv: (kv[0][0], kv[0][1].value)):
            press.setdefault(STATES[state], {})[button.value] = STATES[after]
        return {
            "format": FORMAT,
            "window": dict(window or {}),
            "press": press,
            "menu": button_names(self.menu),
            "drag": self.drag,
            "done": self.done,
            "motion_ms": round(self.motion * 1000, 1),
            "click_only": button_names(self.click_only),
        }


def button_names(buttons: Iterable[Button]) -> list[str]:
    """Buttons by name, in a fixed order (for the report and the file)."""
    return sorted(b.value for b in buttons)


def rules_from_json(data: Any, where: str) -> Rules:
    """A profile file's contents, checked; `where` names the file in errors."""
    def bad(what: str) -> UserError:
        return UserError(f"{where}: {what}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f"not an autoplayer nonogram profile (no \"format\": \"{FORMAT}\")")
    buttons = {b.value: b for b in Button}
    press: dict[tuple[int, Button], int] = {}
    raw = data.get("press", {})
    if not isinstance(raw, dict):
        raise bad("\"press\" must map a state to {button: state}")
    for state, moves in raw.items():
        if state not in BY_NAME or not isinstance(moves, dict):
            raise bad(f"unknown state {state!r} in \"press\" (states: blank, filled, marked)")
        for button, after in moves.items():
            if button not in buttons or after not in BY_NAME:
                raise bad(f"\"press\".{state}: {button!r} -> {after!r} is not "
                          "a button (left, right, middle) -> state")
            press[(BY_NAME[state], buttons[button])] = BY_NAME[after]

    def button_set(key: str) -> frozenset[Button]:
        names = data.get(key, [])
        if not isinstance(names, list) or any(n not in buttons for n in names):
            raise bad(f"\"{key}\" must list buttons (left, right, middle)")
        return frozenset(buttons[n] for n in names)

    menu = button_set("menu")
    drag = data.get("drag")
    if drag is not None and drag not in DRAGS:
        raise bad(f"\"drag\" is {drag!r}; one of {', '.join(DRAGS)} or null")
    done = data.get("done")
    if done is not None and done not in DONE:
        raise bad(f"\"done\" is {done!r}; one of {', '.join(DONE)} or null")
    motion = data.get("motion_ms", DEFAULT_MOTION * 1000)
    if not isinstance(motion, int | float) or not 0 <= motion <= 1000:
        raise bad("\"motion_ms\" must be a number of milliseconds, 0..1000")
    return Rules(press=press, drag=drag, menu=menu, done=done, motion=motion / 1000,
                 click_only=button_set("click_only"))


def load_rules(path: Path) -> Rules:
    from autoplayer.profiles import load_json

    return rules_from_json(load_json(path), str(path))


def save_rules(path: Path, rules: Rules, window: Mapping[str, Any] | None = None) -> None:
    """Written whole to a temp file and renamed: a reader never sees half a profile."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(rules.as_json(window), indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
