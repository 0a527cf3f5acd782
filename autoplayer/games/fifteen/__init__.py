"""The 15-puzzle (any W×H from 2×2 to 6×6), the third game behind `autoplayer.games.base`.

- `model`: boards, moves, the parity rule, Tatham game IDs, Korf's gap-first convention;
- `goals`: the goal inferred from the numbers shown (or Unsure), solving toward any goal;
- `instances`: boards as plain numbers and files of them (Korf's 100);
- `pictures`: the goal of a picture puzzle from how its tiles' edges continue (or Unsure);
- `ids`: every solvable board ↔ an ID (Steinhaus–Johnson–Trotter ranks);
- `partitions`, `pdb`, `optimal`: additive pattern databases and IDA* (numba; 3×3, 4×4);
- `human`: the rows-first solver people use, any size, step by step;
- `planner`: solution → clicks for games where one click slides a whole run;
- `render`, `terminal`: the box-drawn board and the curses game;
- `reader`: a frame → the Board and each cell's rectangle (Tatham's Fifteen, the bundled page);
- `game`: the back-end the shared play loop drives (`autoplayer play --game fifteen`).
"""
