"""The math font that the site ships (docs/assets/fonts/, docs/assets/stylesheets/math.css):
an OpenType MATH table, stretchy brackets, a licence beside it, and a glyph for every
character of every formula that the build renders, so that no formula on any page, in
any language, borrows a glyph from another font. (That Chromium loads it and sets the
formulas with it: tests/browser/test_math_font.py.)"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup
from fontTools.ttLib import TTFont

from tests.project import ROOT

FONTS = ROOT / "docs" / "assets" / "fonts"
FONT = FONTS / "NotoSansMath-Regular.woff"  # WOFF: fontTools reads it with zlib alone
CSS = ROOT / "docs" / "assets" / "stylesheets" / "math.css"

# MathML Core's text-transform: math-auto, which Chromium applies to an <mi> of one
# character: the letter is drawn as its mathematical italic (U+1D400 on).
_ITALIC_SPECIAL = {"h": 0x210E, "ı": 0x1D6A4, "ȷ": 0x1D6A5, "∇": 0x1D6FB, "∂": 0x1D715,
                   "ϵ": 0x1D716, "ϑ": 0x1D717, "ϰ": 0x1D718, "ϕ": 0x1D719, "ϱ": 0x1D71A,
                   "ϖ": 0x1D71B}
_ITALIC_RANGES = ((0x41, 0x5A, 0x1D434), (0x61, 0x7A, 0x1D44E),  # A-Z, a-z
                  (0x391, 0x3A9, 0x1D6E2), (0x3B1, 0x3C9, 0x1D6FC))  # Α-Ω, α-ω


def math_italic(char: str) -> str:
    if char in _ITALIC_SPECIAL:
        return chr(_ITALIC_SPECIAL[char])
    code = ord(char)
    for first, last, italic in _ITALIC_RANGES:
        if first <= code <= last:
            return chr(italic + code - first)
    return char


def test_the_math_font_has_an_opentype_math_table():
    font = TTFont(FONT)
    assert font.flavor == "woff" and "MATH" in font
    constants = font["MATH"].table.MathConstants
    assert constants.AxisHeight.Value > 0 and constants.FractionRuleThickness.Value > 0


def test_its_brackets_and_radical_stretch_to_any_height():
    """A glyph assembly (top, extender, bottom) in the MATH table's vertical variants:
    what lets Chromium draw \\left( … \\right) as tall as the fraction inside."""
    font = TTFont(FONT)
    cmap = font.getBestCmap()
    variants = font["MATH"].table.MathVariants
    constructions = dict(zip(variants.VertGlyphCoverage.glyphs, variants.VertGlyphConstruction,
                             strict=True))
    for char in "()[]{}|√":
        construction = constructions[cmap[ord(char)]]
        assert construction.GlyphAssembly is not None, char
        assert any(part.PartFlags & 1 for part in construction.GlyphAssembly.PartRecords), char


def test_the_style_sheet_loads_the_shipped_file_for_math_elements():
    css = CSS.read_text(encoding="utf-8")
    [face] = re.findall(r"@font-face\s*\{[^}]*\}", css)
    assert re.search(r'src: url\("\.\./fonts/NotoSansMath-Regular\.woff"\) format\("woff"\);',
                     face)
    assert 'font-family: "Noto Sans Math";' in face and "font-display: swap;" in face
    assert "unicode-range" not in face  # the whole font: math italics lie beyond Latin
    assert re.search(r'(?m)^math \{\s*font-family: "Noto Sans Math", math;', css)


def test_the_licence_travels_with_the_font():
    licence = (FONTS / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Google LLC" in licence
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "@fontsource/noto-sans-math" in readme and "OFL-1.1" in readme


def test_every_character_of_every_formula_is_in_the_font(site):
    cmap = TTFont(FONT).getBestCmap()
    missing = set()
    for path in site.rglob("*.html"):
        html = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for math in html.find_all("math"):
            drawn = [char for char in math.get_text() if not char.isspace()]
            drawn += [math_italic(mi.get_text()) for mi in math.find_all("mi")
                      if len(mi.get_text()) == 1 and not mi.get("mathvariant")]
            missing |= {f"{char} U+{ord(char):04X} ({path.relative_to(site)})"
                        for char in drawn if ord(char) not in cmap}
    assert not missing, "\n".join(sorted(missing))
