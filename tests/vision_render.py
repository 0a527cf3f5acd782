"""Synthetic nonogram screenshots drawn with Pillow, for reader tests without a browser.

Skins vary the way real games do: font (antialiased sans, serif, monospace, or
a blocky pixel font made by enlarging an unantialiased small rendering), light
or dark theme, clues free-standing or boxed, thick lines every 5 cells, cell
sizes 12-40 px. The truth is the puzzle the picture was drawn from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from autoplayer.games.nonogram.model import Puzzle, puzzle_from_grid

FONTS = {
    "sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "serif": "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
    "mono": "/usr/share/fonts/truetype/liberation/LiberationMono-Bold.ttf",
    "pixel": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
    # Display fonts the generic readers know worst: a black-weight sans (its 1, 2 and 4
    # read as one another) and an italic serif (its 4 reads as 9 or 3, its 5 as 3).
    "black": "/usr/share/fonts/truetype/lato/Lato-Black.ttf",
    "italic": "/usr/share/fonts/truetype/liberation/LiberationSerif-BoldItalic.ttf",
}


@dataclass(frozen=True)
class Skin:
    font: str = "sans"
    dark: bool = False
    boxed: bool = False
    cell: int = 24
    zero: bool = True
    """Empty lines show a '0' (else nothing)."""


def random_puzzle(w: int, h: int, seed: int, density: float = 0.55) -> Puzzle:
    rng = np.random.default_rng(seed)
    grid = (rng.random((h, w)) < density).astype(np.int8)
    return puzzle_from_grid(grid)


def available(skin: Skin) -> bool:
    return Path(FONTS[skin.font]).exists()


PIXEL_FONT = {  # a classic 5x7 bitmap font, as pixel-art games use
    "0": ("01110", "10001", "10011", "10101", "11001", "10001", "01110"),
    "1": ("00100", "01100", "00100", "00100", "00100", "00100", "01110"),
    "2": ("01110", "10001", "00001", "00010", "00100", "01000", "11111"),
    "3": ("11111", "00010", "00100", "00010", "00001", "10001", "01110"),
    "4": ("00010", "00110", "01010", "10010", "11111", "00010", "00010"),
    "5": ("11111", "10000", "11110", "00001", "00001", "10001", "01110"),
    "6": ("00110", "01000", "10000", "11110", "10001", "10001", "01110"),
    "7": ("11111", "00001", "00010", "00100", "01000", "01000", "01000"),
    "8": ("01110", "10001", "10001", "01110", "10001", "10001", "01110"),
    "9": ("01110", "10001", "10001", "01111", "00001", "00010", "01100"),
}


def _pixel_text(text: str, scale: int, ink: int, paper: int) -> Image.Image:
    bits = np.concatenate([np.array([[c == "1" for c in row] for row in PIXEL_FONT[ch]])
                           if i == 0 else np.hstack([np.zeros((7, 1), bool), np.array(
                               [[c == "1" for c in row] for row in PIXEL_FONT[ch]])])
                           for i, ch in enumerate(text)], axis=1)
    big = np.kron(bits, np.ones((scale, scale), bool))
    return Image.fromarray(np.where(big, ink, paper).astype(np.uint8))


def _digit_image(text: str, skin: Skin, size: int, ink: int, paper: int) -> Image.Image:
    if skin.font == "pixel":
        return _pixel_text(text, max(1, round(size / 8)), ink, paper)
    f = ImageFont.truetype(FONTS[skin.font], size)
    left, top, right, bottom = f.getbbox(text)
    im = Image.new("L", (right - left + 2, bottom - top + 2), paper)
    ImageDraw.Draw(im).text((1 - left, 1 - top), text, font=f, fill=ink)
    return im


def render(puzzle: Puzzle, skin: Skin, *, margin: int = 0) -> Image.Image:
    """The puzzle drawn as a game would show it, unsolved, somewhere in a larger page."""
    c = skin.cell
    margin = margin or max(40, 2 * c)
    paper, ink = (34, 230) if skin.dark else (250, 20)
    line, thick = ((90, 90, 90), (160, 160, 160)) if skin.dark else ((190, 190, 190), (60, 60, 60))
    font_px = max(11, int(c * 0.62))
    clue_numbers = [[str(n) for n in clue] or (["0"] if skin.zero else []) for clue in puzzle.rows]
    col_numbers = [[str(n) for n in clue] or (["0"] if skin.zero else [])
                   for clue in puzzle.columns]
    # Row clue widths decide the left band.
    imgs_rows = [[_digit_image(t, skin, font_px, ink, paper) for t in nums]
                 for nums in clue_numbers]
    gap = max(4, c // 3)
    row_band = max((sum(i.width for i in row) + gap * max(0, len(row) - 1) for row in imgs_rows),
                   default=0) + 2 * gap
    col_band = max((len(n) for n in col_numbers), default=0) * c + gap
    W = margin * 2 + row_band + puzzle.width * c + 1
    H = margin * 2 + col_band + puzzle.height * c + 1
    page = Image.new("RGB", (W + 60, H + 40), (paper,) * 3)
    d = ImageDraw.Draw(page)
    # Some unrelated page furniture: a title and a button far from the board.
    title = ImageFont.truetype(FONTS["sans"], 14)
    d.text((8, 6), "Puzzle 12 - Score 3308", font=title, fill=(ink,) * 3)
    d.rectangle((W + 10, 20, W + 50, 44), outline=(ink,) * 3)
    bx, by = margin + row_band, margin + col_band
    # Grid: cell rectangles on the line colour, thicker every 5.
    board_w, board_h = puzzle.width * c, puzzle.height * c
    d.rectangle((bx, by, bx + board_w, by + board_h), fill=line)
    for r in range(puzzle.height):
        for k in range(puzzle.width):
            x0, y0 = bx + k * c + 1, by + r * c + 1
            x1, y1 = bx + (k + 1) * c - 1, by + (r + 1) * c - 1
            if k % 5 == 0:
                x0 += 1
            if r % 5 == 0:
                y0 += 1
            d.rectangle((x0, y0, x1, y1), fill=(paper,) * 3)
    for k in range(0, puzzle.width + 1, 5):
        d.line((bx + k * c, by, bx + k * c, by + board_h), fill=thick, width=1)
    for r in range(0, puzzle.height + 1, 5):
        d.line((bx, by + r * c, bx + board_w, by + r * c), fill=thick, width=1)
    d.rectangle((bx, by, bx + board_w, by + board_h), outline=thick)
    # Column clues: stacked, bottom number just above the board.
    for k, nums in enumerate(col_numbers):
        cx = bx + k * c + c // 2
        for n, text in enumerate(reversed(nums)):
            im = _digit_image(text, skin, font_px, ink, paper)
            cy = by - gap // 2 - c // 2 - n * c
            _paste(page, im, cx - im.width // 2, cy - im.height // 2, skin, c)
    # Row clues: right aligned, separated by `gap`.
    for r, row in enumerate(imgs_rows):
        x = bx - gap
        cy = by + r * c + c // 2
        for im in reversed(row):
            x -= im.width
            _paste(page, im, x, cy - im.height // 2, skin, c)
            x -= gap
    return page


def _paste(page: Image.Image, im: Image.Image, x: int, y: int, skin: Skin, c: int) -> None:
    page.paste(Image.merge("RGB", (im, im, im)), (x, y))
    if skin.boxed:
        d = ImageDraw.Draw(page)
        colour = (120, 120, 120) if skin.dark else (170, 170, 170)
        d.rectangle((x - 3, y - 3, x + im.width + 2, y + im.height + 2), outline=colour)
