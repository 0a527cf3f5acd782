"""Simon Tatham's Pattern (Debian `sgt-pattern`), read from the screen and played.

Pattern is a nonogram read by the shared reader (`autoplayer.games.nonogram.reader`,
opted in to clues clipped at the window's edge) behind the shared `NonogramGame`;
what is its own lives here: solving from clipped clues' visible tails and its
default digit templates (`game`), how it counts a puzzle finished (`completion`),
and running the real game for tests and benchmarks (`session`).
"""
