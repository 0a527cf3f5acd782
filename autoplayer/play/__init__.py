"""The mid-end: the one place that owns time, the screen, input and the verdict.

- `loop`: batches (capture, read, solve, plan, act, verify) and the end of a play;
- `settle`: the only "capture until the screen is still" primitive;
- `ending`: the game's answer to the last move;
- `experiment`: carries out the presses a back-end declares to learn its rules;
- `hands`: the input driver, frame pixels to the screen, parking the pointer;
- `report`: what happened, as lines and as data;
- `registry`: which game a window or picture holds.
"""

from autoplayer.play.hands import default_driver
from autoplayer.play.loop import play
from autoplayer.play.report import NotSolved, Report, Unseen

__all__ = ["NotSolved", "Report", "Unseen", "default_driver", "play"]
