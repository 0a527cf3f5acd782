"""The bundled nonogram page's appearance options on the server's side (no browser): URL
checking, colours at a contrast ratio, installed faces, and the random-look generator's
draws all accepted by the page."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from looks import axes, random_look, url_params

from autoplayer.errors import UserError
from autoplayer.webgame import nonogram
from autoplayer.webgame.contrast import at_contrast, contrast, luminance, parse_hex, to_hex
from autoplayer.webgame.nonogram_looks import CLUE_FONTS, appearance
from autoplayer.webgame.server import GameServer


def looks(query: dict[str, str], skin: str = "serif", theme: str = "light",
          clues: str | None = None) -> dict:
    s = nonogram.skins()[skin]
    return appearance(query, s, theme, clues or s["clues"])


# --- contrast ---------------------------------------------------------------------------

def test_wcag_contrast_of_known_pairs():
    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21)
    assert contrast((0x77, 0x77, 0x77), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert luminance((255, 255, 255)) == pytest.approx(1)
    assert to_hex(parse_hex("#A0b1C2")) == "#a0b1c2"
    for bad in ("a0b1c2x", "#12345", "#12345g"):
        with pytest.raises(UserError, match="is not #RRGGBB"):
            parse_hex(bad)


@pytest.mark.parametrize("base", ["#ffffff", "#fffdf8", "#c7dc93", "#262c34", "#0c120c"])
@pytest.mark.parametrize(("ratio", "tint"), [(1.15, "grey"), (1.3, "yellow"), (3, "blue"),
                                             (4.5, "grey")])
def test_a_colour_at_a_ratio_is_at_that_ratio_darker_on_light_lighter_on_dark(base, ratio,
                                                                              tint):
    b = parse_hex(base)
    c = at_contrast(b, ratio, tint)
    assert contrast(c, b) == pytest.approx(ratio, rel=0.01)  # 8-bit steps
    assert (luminance(c) < luminance(b)) == (luminance(b) > 0.18)
    if tint == "yellow":
        assert c[0] >= c[1] > c[2], to_hex(c)
    if tint == "grey":
        assert c[0] == c[1] == c[2]


def test_a_ratio_no_colour_reaches_is_refused():
    with pytest.raises(UserError, match="no colour is 20:1 from #777777"):
        at_contrast((0x77, 0x77, 0x77), 20)


# --- the URL's appearance options -------------------------------------------------------

def test_no_options_change_nothing_and_a_font_names_one_installed_face():
    assert looks({}) == {}
    assert looks({"font": "lato", "weight": "black"}) == {
        "font": "Lato", "face": "Lato-Black", "weight": 900}
    assert looks({"font": "dejavu-serif", "style": "italic"}) == {
        "font": "\"DejaVu Serif\"", "face": "DejaVuSerif-Italic", "style": "italic"}
    assert looks({"weight": "bold"}) == {"weight": 700}  # the skin's own font, bolder
    assert looks({"texture": "noise"}) == {"texture": "noise"}


@pytest.mark.parametrize(("query", "message"), [
    ({"weight": "heavy"}, "unknown weight 'heavy'; weights: normal, bold, black"),
    ({"style": "oblique"}, "unknown style 'oblique'; styles: normal, italic"),
    ({"font": "comic"}, "unknown font 'comic'; fonts: dejavu-sans, open-sans, lato, "
                        "liberation-sans, roboto-slab, dejavu-serif, liberation-serif"),
    ({"font": "roboto-slab", "style": "italic"},
     "font roboto-slab has no normal italic face; faces: normal normal, bold normal"),
    ({"font": "dejavu-sans", "weight": "black"}, "font dejavu-sans has no black normal face"),
    ({"digits": "big"}, "digits='big' is not a number"),
    ({"digits": "1.3"}, "digits=1.3 is outside 0.6..1.2"),
    ({"digits": "0.5"}, "digits=0.5 is outside 0.6..1.2"),
    ({"lines": "1.05"}, "lines=1.05 is outside 1.1..21"),
    ({"lines": "1.3:pink"}, "lines= tint 'pink'; tints: grey, yellow, blue, red, green, brown"),
    ({"ink": "1.2"}, "ink=1.2 is outside 1.5..21"),
    ({"ink": "#12"}, "colour '#12' is not #RRGGBB"),
])
def test_bad_appearance_options_are_one_line_user_errors(query, message):
    with pytest.raises(UserError) as err:
        looks(query)
    assert str(err.value).startswith(message)


def test_tall_digits_need_free_clues_and_the_pixel_skin_keeps_its_bitmaps():
    assert looks({"digits": "1.2"}, "serif") == {"digits": 1.2}
    assert looks({"digits": "0.85"}, "sans") == {"digits": 0.85}
    for skin, clues in (("sans", None), ("bars", None), ("serif", "grid")):
        with pytest.raises(UserError, match=r"clues in \w+ cells take at most 0.85"):
            looks({"digits": "0.9"}, skin, clues=clues)
    assert looks({"digits": "1.1"}, "sans", clues="free") == {"digits": 1.1}
    for key, value in (("font", "lato"), ("weight", "bold"), ("style", "italic"),
                       ("digits", "0.7")):
        with pytest.raises(UserError, match="skin pixel draws bitmap digits"):
            looks({key: value}, "pixel")


@pytest.mark.parametrize(("skin", "theme"), [("sans", "light"), ("sans", "dark"),
                                             ("serif", "light"), ("bars", "dark")])
def test_lines_and_ink_at_a_ratio_replace_the_skins_colours(skin, theme):
    colours = nonogram.skins()[skin][theme]
    out = looks({"lines": "1.15:yellow", "ink": "3"}, skin, theme)["colours"]
    line = out["grid"]
    assert out["thickLine"] == out["border"] == line
    assert contrast(parse_hex(line), parse_hex(colours["cell"])) == pytest.approx(1.15, abs=0.02)
    # Clue boxes ruled like the grid are ruled in the new colour too.
    assert ("boxLine" in out) == (colours["boxLine"] == colours["grid"] is not None)
    under = {"boxed": colours["box"], "bars": colours["band1"]}.get(
        nonogram.skins()[skin]["clues"], colours["canvas"])
    assert contrast(parse_hex(out["ink"]), parse_hex(under)) == pytest.approx(3, abs=0.03)
    assert looks({"ink": "#808080"}, skin, theme)["colours"]["ink"] == "#808080"


def test_every_face_a_font_names_is_installed():
    if shutil.which("fc-list") is None:
        pytest.skip("no fc-list (fontconfig) to ask")
    for font, (_, faces) in CLUE_FONTS.items():
        for face, name in faces.items():
            found = subprocess.run(["fc-list", f":postscriptname={name}", "file"],
                                   capture_output=True, text=True, check=True).stdout
            assert found.strip(), f"{font} {face}: {name} is not installed " \
                                  "(tools/ensure-system-deps)"


def test_a_page_url_checks_its_looks_and_hands_them_to_the_page():
    with GameServer() as server:
        with pytest.raises(UserError, match=r"clues in boxed cells take at most 0\.85"):
            server.url(size=(5, 5), skin="sans", digits=1.0)
        with pytest.raises(UserError, match=r"^panel='left'; choices: none, top$"):
            server.url(size=(5, 5), panel="left")
        server.url(size=(5, 5), skin="sans", clue_cells="free", digits=1.0, lines="1.2",
                   ink="4:blue", font="roboto-slab", weight="bold", panel="top",
                   session="looks-cfg")
        config = server.config("looks-cfg")
        assert config is not None
        assert config["layout"]["panel"] == "top"
        assert config["appearance"]["digits"] == 1.0
        assert config["appearance"]["face"] == "RobotoSlab-Bold"
        assert set(config["appearance"]["colours"]) == {"grid", "thickLine", "border",
                                                        "boxLine", "ink", "inkZero"}


def test_random_looks_are_pages_the_server_accepts_and_cover_every_axis():
    drawn = [random_look(np.random.default_rng([11, k])) for k in range(400)]
    with GameServer() as server:
        for look in drawn:
            server.url(size=look["size"], cell=look["cell"], **url_params(look))
    seen: dict[str, set[str]] = {}
    for look in drawn:
        for axis, value in axes(look).items():
            seen.setdefault(axis, set()).add(value)
    assert seen["skin"] == set(nonogram.SKINS)
    assert seen["font"] == {"skin", *CLUE_FONTS}
    assert {"black normal", "normal italic", "bold normal"} <= seen["face"]
    assert seen["digits"] == {"skin", "0.6-0.8", "0.8-1.0", "1.0-1.2"}
    assert "<10" in seen["digit px"]
    assert {"5x5", "30x20+", "other"} <= seen["board"]
    assert seen["panel"] == {"none", "top"}
    assert seen["sides"] == {"left/top", "right/top", "left/bottom", "right/bottom"}
    assert {"skin", "1.15-1.5:yellow", "1.15-1.5:grey"} <= seen["lines"]
    assert seen["clues"] == {"grid", "free", "boxed", "bands", "bars"}
    assert random_look(np.random.default_rng([3, 1])) == random_look(np.random.default_rng([3, 1]))
