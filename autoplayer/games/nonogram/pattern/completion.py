"""A clue cut by the window's edge: which lines its visible tail allows.

Pattern never shrinks to fit, so a long row clue runs off a small window's
left edge; only the numbers after the cut one are certainly in the clue.
"""

from __future__ import annotations


def tail_fits(got: tuple[int, ...], tail: tuple[int, ...], hidden: int) -> bool:
    """Whether a line's runs can be a clue seen only from `tail` on (cut by the edge)."""
    if len(got) < len(tail) + hidden:
        return False
    return not tail or got[-len(tail):] == tail
