"""The nonogram solver: complete line logic, propagation, probing and search.

Pure functions of a puzzle; nothing here imports numpy until a grid is built,
so `autoplayer solve` starts fast.
"""

from autoplayer.games.nonogram.solver.line import line_solve, solve_masks
from autoplayer.games.nonogram.solver.search import (
    BACKENDS,
    Backend,
    SolveResult,
    SolveStats,
    Verdict,
    solve,
)

__all__ = [
    "BACKENDS", "Backend", "SolveResult", "SolveStats", "Verdict", "line_solve", "solve",
    "solve_masks",
]
