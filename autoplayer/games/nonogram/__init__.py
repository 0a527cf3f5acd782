"""Nonograms (paint by numbers): model, file formats, solver, counting, screen reader, planner."""
