"""Simon Tatham's Pattern (Debian `sgt-pattern`), read from the screen and played.

Pattern is a nonogram behind the shared `NonogramGame` machinery; what is its
own lives here: reading its canvas (grid from its lines, grey unknown cells,
antialiased clue digits, row clues as one right-aligned string, rows clipped at
the window's edge), digit templates calibrated from screenshots the game
renders itself, and how it counts a puzzle finished (every cell decided).
"""
