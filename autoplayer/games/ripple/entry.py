"""How a Ripple page takes a value, as plain data, and the watched experiment that learns it.

Real players differ: a click selects a cell and typing enters (sometimes only
once Enter commits it, sometimes only once a first click has given the board
the keyboard focus), clicks on the selected cell count up, or a number pad
beside the board enters the digit clicked. The bot does not ask; it tries, one
press at a time through the mid-end (`play.experiment`), on an empty cell A
whose solution value v is known, each step only if the one before showed
nothing in A:

1. click A; A showing one more means every click counts (`count` with no select
   step); a click that changes nothing there (no cursor) is tried once more: a
   cursor then means the first click only gave the board the focus, one more in A
   means clicks count, and one click on another cell B tells a page whose first
   click selected A unseen (B keeps its value) from one whose first click only
   focused it (B counts too);
2. type v: A showing v means typing (`type`);
3. Enter: A showing v now means typing committed by Enter;
4. the pad's button v, where digit buttons 1..N are found beside the board
   (`pad.find_pad`): A showing v means `pad`;
5. click A again: A showing 1 means clicks count (`count`).

Anything else is unexplained and the bot stops (InputError) before playing on.
A typing or pad page is then asked whether its arrow keys move the cursor: the
arrow towards a wrong neighbour B of A, then B's value; B showing it means they
do. What was learned is kept in the window's profile file, so a game seen
before is played with no experiment.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from autoplayer.errors import UserError

TYPE, COUNT, PAD = "type", "count", "pad"
ENTRIES = (TYPE, COUNT, PAD)
FORMAT = "autoplayer ripple input 1"


@dataclass(frozen=True)
class Input:
    """A page's input rules."""

    entry: str
    """TYPE, COUNT or PAD."""
    enter: bool = False
    """Typed digits show only once Enter commits them."""
    focus: bool = False
    """The first click on the board only gives it the keyboard focus."""
    arrows: bool = False
    """The arrow keys move the page's cursor to a neighbouring cell."""
    cursor: bool = True
    """A click on a cell shows on the board (a cursor), so the bot can see it was taken."""
    select: bool = True
    """Counting pages: the first click on a cell only selects it (else every click counts)."""

    def describe(self) -> str:
        count = ("clicks on the selected cell count up" if self.select
                 else "every click on a cell counts up")
        how = {TYPE: "a click selects and typing enters", COUNT: count,
               PAD: "a click selects and the number pad beside the board enters"}[self.entry]
        extras = [e for e, on in (("Enter commits", self.enter),
                                  ("the first click only focuses the board", self.focus),
                                  ("arrow keys move the cursor", self.arrows)) if on]
        return "; ".join([how, *extras])

    def as_json(self, window: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return {"format": FORMAT, "window": dict(window or {}), **asdict(self)}


def input_from_json(data: Any, where: str) -> Input:
    """A profile file's contents, checked; `where` names the file in errors."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserError(f"{where}: not an autoplayer ripple input profile (no \"format\": "
                        f"\"{FORMAT}\")")
    if data.get("entry") not in ENTRIES:
        raise UserError(f"{where}: \"entry\" must be one of {', '.join(ENTRIES)}")
    flags = {k: data.get(k, default) for k, default in
             (("enter", False), ("focus", False), ("arrows", False), ("cursor", True),
              ("select", True))}
    if not all(isinstance(v, bool) for v in flags.values()):
        raise UserError(f"{where}: enter, focus, arrows, cursor and select must be true or "
                        "false")
    return Input(data["entry"], **flags)


def load_input(path: Path) -> Input:
    from autoplayer.profiles import load_json

    return input_from_json(load_json(path), str(path))


def save_input(path: Path, rules: Input, window: Mapping[str, Any] | None) -> None:
    from autoplayer.profiles import save_json

    save_json(path, rules.as_json(window))


Shown = Callable[[Any], tuple[int, ...]]
"""A frame -> every cell's value as read."""
