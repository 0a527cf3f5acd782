"""Simon Tatham's Pattern (Debian `sgt-pattern`) run for tests and benchmarks (`session`).

Nothing here decides how the bot plays: Pattern's window gets the one nonogram
back-end (`autoplayer.games.nonogram.game`), and what its pictures need (clues cut by
the window's edge, read as unknown tails and solved by `clipped`; its calibrated digit
templates, tried in turn with every other set) comes from what the picture shows.
`session` starts the real game on an X display and watches for its completion flash,
so tests can judge the bot by the game's own word.
"""
