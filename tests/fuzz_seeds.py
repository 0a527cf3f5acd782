"""The inputs the fuzz mutates: a few valid files of every format the offline commands read.

The built-in seeds are enough on their own (the repository has no examples folder, so
they are written out here, small and covering every layout a reader knows); small
files from ../shared are added when it is there. Images are drawn with Pillow when
asked for, a few dozen bytes each, plus one real screenshot from calibration/.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"

NONOGRAM, GAME_ID, RIPPLE, RIPPLE_SOLUTION, FIFTEEN, IMAGE = (
    "nonogram", "game-id", "ripple", "ripple-solution", "fifteen", "image")
"""Seed kinds: what a seed is, and so which commands read it."""

SHARED_MOST_BYTES = 3000
"""Shared files larger than this are left out: the fuzz wants many cheap calls."""


@dataclass(frozen=True)
class Seed:
    """One valid input. `name` is its file name (the extension picks a nonogram format);
    a ripple solution's `partner` names the puzzle seed it solves."""

    kind: str
    name: str
    data: bytes
    partner: str = ""


NONOGRAM_TEXTS: dict[str, str] = {
    "lantern.nonogram": """5x5

title
Lantern

author
A. Tester

rows
3
1,1,1
5
1,1
3

columns
3
1,1,1
3,1
1,1,1
3

grid
X . . . .
. X . . .
. . # . .
. . . X .
. . . . X

solution
. # # # .
# . # . #
# # # # #
# . . . #
. # # # .
""",
    "lantern.non": """title "Lantern"
by "A. Tester"
copyright "(c) nobody"
width 5
height 5

rows
3
1,1,1
5
1,1
3

columns
3
1,1,1
3,1
1,1,1
3

goal "0111010101111111000101110"

saved "0?????0?????1?????0?????0"
""",
    "lantern.xml": """<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.1.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<title>Lantern</title>
<author>A. Tester</author>
<copyright>(c) nobody</copyright>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns">
<line><count>3</count></line>
<line><count>1</count><count>1</count><count>1</count></line>
<line><count>3</count><count>1</count></line>
<line><count>1</count><count>1</count><count>1</count></line>
<line><count>3</count></line>
</clues>
<clues type="rows">
<line><count>3</count></line>
<line><count>1</count><count>1</count><count>1</count></line>
<line><count>5</count></line>
<line><count>1</count><count>1</count></line>
<line><count>3</count></line>
</clues>
<solution type="goal">
<image>
|.XXX.|
|X.X.X|
|XXXXX|
|X...X|
|.XXX.|
</image>
</solution>
<solution type="saved">
<image>
|.????|
|?.???|
|??X??|
|???.?|
|????.|
</image>
</solution>
</puzzle>
</puzzleset>
""",
    "lantern.pattern": "5x5:3/1.1.1/3.1/1.1.1/3/3/1.1.1/5/1.1/3,afFff\n",
    "lantern.nin": "5 5\n3\n1 1 1\n5\n1 1\n3\n3\n1 1 1\n3 1\n1 1 1\n3\n",
    # Content detection (no known extension), CRLF line ends, a multi-line goal.
    "steps.txt": "4x4\r\n\r\nrows\r\n1\r\n2\r\n3\r\n4\r\n\r\ncolumns\r\n4\r\n3\r\n2\r\n1\r\n",
    "steps-goal.non": "width 4\nheight 4\nrows\n1\n2\n3\n4\ncolumns\n4\n3\n2\n1\n"
                      "goal\n1000\n1100\n1110\n1111\n",
    "two-ways.txt": "2 2\n1\n1\n1\n1\n",                   # nin by content: two solutions
    "blank-line.non": "width 3\nheight 2\nrows\n3\n0\ncolumns\n1\n1\n1\n",
    "none.nonogram": "2x2\n\nrows\n2\n0\n\ncolumns\n2\n0\n",   # no grid fits
    "save.sav": "".join(f"{key:<8}:{len(value)}:{value}\n" for key, value in (
        ("SAVEFILE", "Simon Tatham's Portable Puzzle Collection"), ("VERSION", "1"),
        ("GAME", "Pattern"), ("PARAMS", "4x4"), ("CPARAMS", "4x4"),
        ("DESC", "2/1/2/1/1.1/2/1/1,bCl"), ("NSTATES", "3"), ("STATEPOS", "1"),
        ("MOVE", "F1,1,2,2"), ("MOVE", "E0,0,4,1"))),
    "wide.xml": """<puzzleset><puzzle><title>Bar &amp; dot</title>
<clues type="columns"><line><count>1</count></line><line/><line><count>1</count></line>
<line><count>1</count></line></clues>
<clues type="rows"><line><count>1</count><count>2</count></line></clues>
</puzzle></puzzleset>
""",
}

GAME_IDS = (
    "4x4:2/1/2/1/1.1/2/1/1",
    "5x5:3/1.1.1/3.1/1.1.1/3/3/1.1.1/5/1.1/3,afFff",
    "2x2:1/1/1/1",
    "3:1/1/1/1/1/1",
    "10x1:1/1/1/1/1/1/1/1/1/1/10",
    # puzz.link URLs go where a game ID goes (robx/pzprjs test/script/nonogram.js).
    "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h",
    "?nonogram/3/2/111111g",
)

RIPPLE_PUZZLES: dict[str, str] = {
    "corner.txt": "1 1 2\n1 3 3\n\n- - -\n- - -\n",
    "dominoes.txt": "1 1\n2 2\n\n- -\n- -\n",
    "five-six.txt": "1 1 2 2 2 3\n1 1 4 4 5 5\n4 4 4 6 5 5\n7 7 7 8 8 8\n9 9 7 10 8 11\n\n"
                    "- - - - - -\n1 - - - 4 -\n4 - - - - -\n- - - - - -\n- - - - - -\n",
    # The values-first layout: 0 for an empty cell, right-aligned room numbers.
    "five-six-values-first.txt": "0 0 0 0 0 0\n1 0 0 0 4 0\n4 0 0 0 0 0\n0 0 0 0 0 0\n"
                                 "0 0 0 0 0 0\n\n 1  1  2  2  2  3\n 1  1  4  4  5  5\n"
                                 " 4  4  4  6  5  5\n 7  7  7  8  8  8\n 9  9  7 10  8 11\n",
    "clash.txt": "1 1\n\n1 1\n",
    # A file holding a puzz.link URL (robx/pzprjs test/script/ripple.js).
    "pzprjs-url.txt": "https://puzz.link/p?ripple/4/4/9n8rigk14h32k\n",
}

RIPPLE_SOLUTIONS: dict[str, tuple[str, str]] = {
    "corner-solution.txt": ("corner.txt", "1 2 1\n3 1 2\n"),
    "five-six-solution.txt": ("five-six.txt", "2 4 1 2 3 1\n1 3 2 5 4 3\n4 1 3 1 2 1\n"
                                              "3 2 1 4 1 2\n2 1 4 1 3 1\n"),
    "dominoes-wrong.txt": ("dominoes.txt", "1 2\n1 2\n"),
    # A whole puzzle file is accepted as a solution too.
    "corner-full.txt": ("corner.txt", "1 1 2\n1 3 3\n\n1 2 1\n3 1 2\n"),
}

FIFTEEN_IDS = (
    "3x3:8,6,7,2,5,4,3,0,1",
    "4x4:4,6,5,12,9,0,11,1,10,3,8,7,14,13,2,15",
    "2x2:3,1,0,2",
    "5x3:1,2,3,4,5,6,7,8,9,10,11,12,13,0,14",
    "2x5:6,1,7,8,3,4,5,0,9,2",
    "6x6:11,24,18,30,28,35,33,23,31,22,25,4,27,12,1,0,29,7,5,8,34,16,20,32,6,17,10,14,15,"
    "19,2,13,3,26,21,9",
    "3x3:1 2 3 4 5 6 7 0 8",
)

SCREENSHOT = REPO / "calibration" / "pattern-screens" / "t14-small.png"
"""A real 195x391 screenshot of a 9x20 Pattern board (what `read` reads when all is well)."""


def builtin_seeds() -> list[Seed]:
    """Every built-in seed: enough to fuzz every format and command without ../shared."""
    seeds = [Seed(NONOGRAM, name, text.encode()) for name, text in NONOGRAM_TEXTS.items()]
    seeds += [Seed(GAME_ID, f"id{k}", text.encode()) for k, text in enumerate(GAME_IDS)]
    seeds += [Seed(RIPPLE, name, text.encode()) for name, text in RIPPLE_PUZZLES.items()]
    seeds += [Seed(RIPPLE_SOLUTION, name, text.encode(), partner)
              for name, (partner, text) in RIPPLE_SOLUTIONS.items()]
    seeds += [Seed(FIFTEEN, f"board{k}", text.encode()) for k, text in enumerate(FIFTEEN_IDS)]
    return seeds + image_seeds()


def image_seeds() -> list[Seed]:
    """Small images of odd sizes and modes, and the one real screenshot."""
    from PIL import Image, ImageDraw

    def encoded(image: Image.Image, fmt: str = "PNG") -> bytes:
        out = io.BytesIO()
        image.save(out, format=fmt)
        return out.getvalue()

    board = Image.new("RGB", (48, 48), "white")
    draw = ImageDraw.Draw(board)
    for k in range(6):  # a 5x5 lattice, 8 px cells, with two filled cells
        draw.line([(8 + 8 * k, 8), (8 + 8 * k, 48)], fill="black")
        draw.line([(8, 8 + 8 * k), (48, 8 + 8 * k)], fill="black")
    draw.rectangle([17, 17, 23, 23], fill="black")
    draw.rectangle([33, 25, 39, 31], fill="black")
    noise = Image.frombytes("L", (15, 15), bytes((k * 97) % 256 for k in range(225)))
    images = {
        "one.png": encoded(Image.new("RGB", (1, 1), "white")),
        "two.png": encoded(Image.new("L", (2, 2), 0)),
        "noise.png": encoded(noise),
        "rgba.png": encoded(Image.new("RGBA", (16, 16), (0, 0, 0, 0))),
        "thin.png": encoded(Image.new("RGB", (17, 3), "black")),
        "tall.png": encoded(Image.new("RGB", (3, 300), "white")),
        "board.png": encoded(board),
        "board-palette.png": encoded(board.convert("P")),
        "board-1bit.png": encoded(board.convert("1")),
        "board-16bit.png": encoded(board.convert("L").convert("I;16")),
        "board.bmp": encoded(board, "BMP"),
        "board.gif": encoded(board, "GIF"),
        "board.jpg": encoded(board, "JPEG"),
    }
    seeds = [Seed(IMAGE, name, data) for name, data in images.items()]
    if SCREENSHOT.exists():
        seeds.append(Seed(IMAGE, SCREENSHOT.name, SCREENSHOT.read_bytes()))
    return seeds


def shared_seeds(root: Path = SHARED) -> tuple[list[Seed], str]:
    """Small puzzle files from ../shared, and why there are none when there are none."""
    if not root.is_dir():
        return [], f"no shared seeds: {root} is not there (the built-in seeds are used alone)"
    seeds: list[Seed] = []

    def small(path: Path) -> bool:
        return path.is_file() and path.stat().st_size <= SHARED_MOST_BYTES

    for path in sorted((root / "nonograms").rglob("*")):
        if path.suffix in (".non", ".nin") and small(path):
            seeds.append(Seed(NONOGRAM, f"shared-{path.name}", path.read_bytes()))
    janko = root / "ripple" / "puzzlekit-janko"
    for path in sorted(janko.glob("*.txt")):
        solution = path.with_suffix(".sol")
        if small(path):
            name = f"shared-{path.name}"
            seeds.append(Seed(RIPPLE, name, path.read_bytes()))
            if small(solution):
                seeds.append(Seed(RIPPLE_SOLUTION, f"shared-{solution.name}",
                                  solution.read_bytes(), name))
    hunter = root / "ripple" / "hunterknepshield"
    for path in sorted(hunter.glob("*Puzzle*.txt")) + sorted(hunter.glob("Multiple*.txt")):
        if not small(path):
            continue
        name = f"shared-{path.name}"
        seeds.append(Seed(RIPPLE, name, path.read_bytes()))
        solution = path.with_name(path.name.replace("Puzzle", "Solution"))
        if solution != path and small(solution):
            seeds.append(Seed(RIPPLE_SOLUTION, f"shared-{solution.name}", solution.read_bytes(),
                              name))
    korf = root / "fifteen" / "korf100.txt"
    if korf.is_file():
        for k, line in enumerate(korf.read_text().splitlines()[:3]):
            tiles = line.split()[:16]
            if len(tiles) == 16:  # Korf's boards as IDs (a different goal: may be refused)
                seeds.append(Seed(FIFTEEN, f"shared-korf{k}", f"4x4:{','.join(tiles)}".encode()))
    return seeds, f"{len(seeds)} shared seeds from {root}"
