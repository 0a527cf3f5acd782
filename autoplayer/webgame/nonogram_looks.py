"""The nonogram page's appearance options: how the clues and lines look on any skin.

`font=`, `weight=`, `style=` pick one real installed face (the page loads it by its
PostScript name and waits for it before drawing, so no shot shows a fallback face);
`texture=` lies under the clues; `digits=` sizes the clue digits against the cell;
`lines=` and `ink=` recolour the grid lines and the clue ink at a WCAG contrast ratio.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from autoplayer.errors import UserError
from autoplayer.webgame.contrast import TINTS, at_contrast, parse_hex, to_hex

FONT_WEIGHTS = {"normal": 400, "bold": 700, "black": 900}
"""`weight=`: the clue font's weight (CSS weight the page asks for)."""
FONT_STYLES = ("normal", "italic")
"""`style=`: upright or italic clue digits."""

CLUE_FONTS: dict[str, tuple[str, dict[tuple[str, str], str]]] = {
    "dejavu-sans": ("\"DejaVu Sans\"", {
        ("normal", "normal"): "DejaVuSans", ("bold", "normal"): "DejaVuSans-Bold",
        ("normal", "italic"): "DejaVuSans-Oblique", ("bold", "italic"): "DejaVuSans-BoldOblique"}),
    "open-sans": ("\"Open Sans\"", {
        ("normal", "normal"): "OpenSans", ("bold", "normal"): "OpenSans-Bold",
        ("black", "normal"): "OpenSans-Extrabold", ("normal", "italic"): "OpenSans-Italic",
        ("bold", "italic"): "OpenSans-BoldItalic",
        ("black", "italic"): "OpenSans-ExtraboldItalic"}),
    "lato": ("Lato", {
        ("normal", "normal"): "Lato-Regular", ("bold", "normal"): "Lato-Bold",
        ("black", "normal"): "Lato-Black", ("normal", "italic"): "Lato-Italic",
        ("bold", "italic"): "Lato-BoldItalic", ("black", "italic"): "Lato-BlackItalic"}),
    "liberation-sans": ("\"Liberation Sans\"", {
        ("normal", "normal"): "LiberationSans", ("bold", "normal"): "LiberationSans-Bold",
        ("normal", "italic"): "LiberationSans-Italic",
        ("bold", "italic"): "LiberationSans-BoldItalic"}),
    "roboto-slab": ("\"Roboto Slab\"", {
        ("normal", "normal"): "RobotoSlab-Regular", ("bold", "normal"): "RobotoSlab-Bold"}),
    "dejavu-serif": ("\"DejaVu Serif\"", {
        ("normal", "normal"): "DejaVuSerif", ("bold", "normal"): "DejaVuSerif-Bold",
        ("normal", "italic"): "DejaVuSerif-Italic", ("bold", "italic"): "DejaVuSerif-BoldItalic"}),
    "liberation-serif": ("\"Liberation Serif\"", {
        ("normal", "normal"): "LiberationSerif", ("bold", "normal"): "LiberationSerif-Bold",
        ("normal", "italic"): "LiberationSerif-Italic",
        ("bold", "italic"): "LiberationSerif-BoldItalic"}),
}
"""`font=NAME`: CSS family and the installed faces by (weight, style), as PostScript names
(Debian packages: tools/ensure-system-deps)."""

CLUE_TEXTURES = ("flat", "dotted", "noise", "gradient")
"""`texture=`: what lies under the clues (over the skin's own clue background)."""

DIGITS = (0.6, 1.2)
"""`digits=F`: clue digit height (ink, top of the tallest digit to the bottom of the
lowest) as a fraction of the cell pitch."""
BOXED_DIGITS = 0.85
"""The tallest digits a clue drawn inside a box, band or bar takes (free clues take any)."""
LINES = (1.1, 21.0)
"""`lines=RATIO[:TINT]`: the contrast ratios grid lines may have against the cells."""
INK = (1.5, 21.0)
"""`ink=RATIO[:TINT]` or `ink=#RRGGBB`: the clue ink's contrast against its background."""


def _number(query: Mapping[str, str], key: str, text: str, bounds: tuple[float, float]) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UserError(f"{key}={query[key]!r} is not a number") from None
    if not bounds[0] <= value <= bounds[1]:
        raise UserError(f"{key}={value:g} is outside {bounds[0]:g}..{bounds[1]:g}")
    return value


def _ratio_and_tint(query: Mapping[str, str], key: str,
                    bounds: tuple[float, float]) -> tuple[float, str]:
    text, _, tint = query[key].partition(":")
    tint = tint or "grey"
    if tint not in TINTS:
        raise UserError(f"{key}= tint {tint!r}; tints: {', '.join(TINTS)}")
    return _number(query, key, text, bounds), tint


def clue_background(colours: Mapping[str, Any], clues: str) -> str:
    """The colour under a clue number: the box, band or bar it stands in, else the canvas."""
    return {"grid": colours["cell"], "boxed": colours["box"], "bands": colours["band1"],
            "bars": colours["band1"]}.get(clues) or colours["canvas"]


def appearance(query: Mapping[str, str], skin: Mapping[str, Any], theme: str,
               clues: str) -> dict[str, Any]:
    """The appearance options a URL asks for, checked; only those given, so a page without
    them is drawn exactly as its skin says. `clues` is how the clues stand (the skin's
    `clues`, or `grid`/`free` from `clue_cells=`): it bounds `digits=` and sets `ink=`'s
    background. `colours` holds the skin colours the options replace."""
    out: dict[str, Any] = {}
    for key, allowed in (("weight", tuple(FONT_WEIGHTS)), ("style", FONT_STYLES),
                         ("texture", CLUE_TEXTURES), ("font", tuple(CLUE_FONTS))):
        if key in query and query[key] not in allowed:
            raise UserError(f"unknown {key} {query[key]!r}; {key}s: {', '.join(allowed)}")
    if "texture" in query:
        out["texture"] = query["texture"]
    if "weight" in query:
        out["weight"] = FONT_WEIGHTS[query["weight"]]
    if "style" in query:
        out["style"] = query["style"]
    if "font" in query:
        family, faces = CLUE_FONTS[query["font"]]
        face = (query.get("weight", "normal"), query.get("style", "normal"))
        if face not in faces:
            raise UserError(f"font {query['font']} has no {' '.join(face)} face; faces: "
                            + ", ".join(" ".join(f) for f in faces))
        out["font"] = family
        out["face"] = faces[face]
    pixel = skin["font"] == "pixel"
    if pixel and any(k in query for k in ("font", "weight", "style", "digits")):
        raise UserError("skin pixel draws bitmap digits: font=, weight=, style= and digits= "
                        "are for the other skins")
    if "digits" in query:
        digits = _number(query, "digits", query["digits"], DIGITS)
        if clues != "free" and digits > BOXED_DIGITS:
            raise UserError(f"digits={digits:g}: clues in {clues} cells take at most "
                            f"{BOXED_DIGITS:g} (clue_cells=free for taller digits)")
        out["digits"] = digits
    colours = skin[theme]
    replaced: dict[str, str] = {}
    if "lines" in query:
        ratio, tint = _ratio_and_tint(query, "lines", LINES)
        line = to_hex(at_contrast(parse_hex(colours["cell"]), ratio, tint))
        # Every line drawn in the grid's colours (the clue boxes' too where they match it).
        for name in ("grid", "thickLine", "border", "boxLine"):
            if name != "boxLine" or colours[name] == colours["grid"]:
                replaced[name] = line
    if "ink" in query:
        if query["ink"].startswith("#"):
            ink = to_hex(parse_hex(query["ink"]))
        else:
            ratio, tint = _ratio_and_tint(query, "ink", INK)
            ink = to_hex(at_contrast(parse_hex(clue_background(colours, clues)), ratio, tint))
        replaced["ink"] = ink
        if colours["inkZero"] == colours["ink"]:
            replaced["inkZero"] = ink
    if replaced:
        out["colours"] = replaced
    return out
