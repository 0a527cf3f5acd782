"""Colours at a chosen WCAG contrast ratio from another, for the bundled game's looks.

Real games draw grid lines barely darker than their cells (1.15:1) and clue numbers
in grey: a look given as a ratio is the same faintness on every skin and theme.
"""

from __future__ import annotations

import colorsys

from autoplayer.errors import UserError

TINTS: dict[str, tuple[float, float]] = {
    "grey": (0.0, 0.0),
    "yellow": (50 / 360, 1.0),
    "blue": (215 / 360, 0.8),
    "red": (0.0, 0.8),
    "green": (120 / 360, 0.6),
    "brown": (30 / 360, 0.5),
}
"""Tint name -> (hue, saturation) of the HSL colours searched for a ratio."""

RGB = tuple[int, int, int]


def parse_hex(text: str) -> RGB:
    """'#rrggbb' -> (r, g, b); UserError otherwise."""
    digits = text.removeprefix("#")
    if len(digits) != 6 or any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise UserError(f"colour {text!r} is not #RRGGBB")
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def to_hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _hsl(hue: float, sat: float, light: float) -> RGB:
    r, g, b = colorsys.hls_to_rgb(hue, light, sat)
    return round(r * 255), round(g * 255), round(b * 255)


def at_contrast(base: RGB, ratio: float, tint: str = "grey") -> RGB:
    """A colour of the tint at `ratio`:1 from `base`: darker on a light base, lighter on a
    dark one (the other way when that side cannot reach the ratio). UserError when
    neither side can."""
    hue, sat = TINTS[tint]
    lb = luminance(base)
    darker = (lb + 0.05) / ratio - 0.05
    lighter = ratio * (lb + 0.05) - 0.05
    sides = [darker, lighter] if lb > 0.18 else [lighter, darker]
    target = next((t for t in sides if 0 <= t <= 1), None)
    if target is None:
        raise UserError(f"no colour is {ratio:g}:1 from {to_hex(base)}")
    lo, hi = 0.0, 1.0  # HSL lightness; luminance rises with it at a fixed hue and saturation
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if luminance(_hsl(hue, sat, mid)) < target else (lo, mid)
    # The 8-bit colour nearest the ratio asked for, of those about the exact lightness.
    candidates = [_hsl(hue, sat, min(1.0, max(0.0, lo + k / 510))) for k in range(-4, 5)]
    return min(candidates, key=lambda c: abs(contrast(c, base) - ratio))
