"""Command groups of the `autoplayer` CLI, one module each (see `autoplayer.cli`).

The table of commands lives here, apart from the modules, so that `autoplayer --help`
and `--version` list and answer without importing any of them: each module's parser is
built only when its command runs.
"""

COMMANDS: dict[str, tuple[str, str]] = {
    "convert": ("autoplayer.commands.formats", "convert a nonogram between file formats"),
    "show": ("autoplayer.commands.formats",
             "print a nonogram with its clues (and its solution or grid, if it has one)"),
    "check": ("autoplayer.commands.formats",
              "validate a nonogram file and the solution or grid it carries"),
    "solve": ("autoplayer.commands.solve",
              "solve a nonogram file and say whether its solution is unique"),
    "count": ("autoplayer.commands.count", "count the N×M nonograms that line logic alone solves"),
    "hint": ("autoplayer.commands.hint", "the next logical step on a nonogram, explained"),
    "play": ("autoplayer.commands.play",
             "play a game shown on the screen: read it, solve it, click it out, verify"),
    "demo": ("autoplayer.commands.play", "play the bundled nonogram game in Chromium, end to end"),
    "read": ("autoplayer.commands.vision", "read a nonogram (clues and cells) from a screenshot"),
    "calibrate": ("autoplayer.commands.vision", "learn a game's digit templates from screenshots"),
    "serve": ("autoplayer.commands.webgame",
              "serve a bundled browser game (nonogram, 15-puzzle, Ripple Effect) on 127.0.0.1"),
    "ripple": ("autoplayer.commands.ripple",
               "solve, check and generate Ripple Effect (Hakyuu) puzzles"),
    "fifteen": ("autoplayer.commands.fifteen",
                "the 15-puzzle (any W×H from 2×2 to 6×6): solve, show, play"),
}
"""Each command (in the order of `autoplayer --help`): the module that registers it, and
its one-line summary."""


def summary(command: str) -> str:
    """A command's line in `autoplayer --help`, for the module that adds its parser."""
    return COMMANDS[command][1]
