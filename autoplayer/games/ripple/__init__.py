"""Ripple Effect (Hakyuu): the second game behind `autoplayer.games.base`.

What a back-end needs apart from the screen is here, as pure functions:
`model` (rooms and givens), `formats` (the spec's files and the values-first
layout), `solver` (propagation + MRV search proving uniqueness), `checker`
and `drawing` (the spec's `ripple-effect-check`), `generator` (unique
puzzles for tests and the browser game). `cli` holds the two console
scripts. Reading a Ripple Effect board from the screen comes with the
vision work; the solver already takes what a reader would produce.
"""

from autoplayer.games.ripple.model import EMPTY, Puzzle
from autoplayer.games.ripple.solver import SolveResult, solve

__all__ = ["EMPTY", "Puzzle", "SolveResult", "solve"]
