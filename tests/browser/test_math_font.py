"""The math font as Chromium uses it (docs/assets/stylesheets/math.css): on the attention
page of each language the face loads from the site itself, and the one-line formula is
drawn in it alone, its brackets stretched to the fraction they hold, so that the three
languages set it alike. (The file and its MATH table: tests/test_math_font_file.py.)"""

from __future__ import annotations

import pytest

from tests.project import LANGUAGES

pytestmark = pytest.mark.browser

FAMILY = "Noto Sans Math"
FONT_PATH = "/assets/fonts/NotoSansMath-Regular.woff"
FORMULA = 'math[alttext*="softmax"]'  # the one-line formula of the attention article

# The face's status once the page's fonts settle: the page's own formulas ask for it
# (font-display: swap), nothing here loads it.
FACE = """async (family) => {
  await document.fonts.ready;
  const faces = Array.from(document.fonts).filter(
    (face) => face.family.replace(/^"|"$/g, "") === family);
  const files = performance.getEntriesByType("resource")
    .filter((entry) => entry.name.endsWith(".woff") || entry.name.endsWith(".woff2"))
    .map((entry) => ({url: entry.name, status: entry.responseStatus}));
  return {
    statuses: faces.map((face) => face.status),
    check: document.fonts.check(`1em "${family}"`),
    files,
    origin: location.origin,
  };
}"""

COMPUTED_FAMILIES = """(selector) => Array.from(
  document.querySelectorAll(`.md-content ${selector}`),
  (element) => getComputedStyle(element).fontFamily)"""

# Heights of the formula's parentheses and of the fraction between the stretchy pair.
BRACKETS = """(selector) => {
  const math = document.querySelector(selector);
  const height = (element) => element.getBoundingClientRect().height;
  const fences = Array.from(math.querySelectorAll('mo[stretchy="true"]'));
  const plain = Array.from(math.querySelectorAll('mo[stretchy="false"]'));
  return {
    fences: fences.map(height),
    plain: plain.map(height),
    fraction: height(math.querySelector("mfrac")),
  };
}"""


def _faces_settled(page) -> None:
    page.wait_for_function(
        """(family) => Array.from(document.fonts).some(
             (face) => face.family.replace(/^"|"$/g, "") === family && face.status !== "unloaded"
                       && face.status !== "loading")""", arg=FAMILY)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_math_font_loads_from_the_site_itself(open_site_page, language):
    page, traffic = open_site_page(language, "attention/", fresh=True)  # a first visit
    _faces_settled(page)
    face = page.evaluate(FACE, FAMILY)
    assert face["statuses"] == ["loaded"] and face["check"]
    assert face["files"] == [{"url": face["origin"] + FONT_PATH, "status": 200}]
    assert traffic.failed == [] and traffic.http_errors == []
    assert traffic.hosts <= {"127.0.0.1", "data"}
    assert page.evaluate("window.__cspViolations") == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_math_element_asks_for_the_math_font_first(open_site_page, language):
    page, _ = open_site_page(language, "attention/")
    families = page.evaluate(COMPUTED_FAMILIES, "math")
    assert families, "no formula on the attention page"
    assert {family.split(",")[0].strip() for family in families} == {f'"{FAMILY}"'}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_formula_is_drawn_in_the_math_font_alone(open_site_page, language):
    """What Chromium drew each text of the formula with (DevTools' "Rendered Fonts"):
    one glyph from another font would set that language's formula differently."""
    page, _ = open_site_page(language, "attention/", fresh=True)  # a CDP session of its own
    _faces_settled(page)
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    nodes = session.send("DOM.querySelectorAll",
                         {"nodeId": root, "selector": f"{FORMULA}, {FORMULA} *"})["nodeIds"]
    glyphs: dict[str, int] = {}
    for node in nodes:
        for font in session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]:
            glyphs[font["familyName"]] = glyphs.get(font["familyName"], 0) + font["glyphCount"]
    session.detach()
    assert set(glyphs) == {FAMILY}, glyphs
    assert glyphs[FAMILY] >= len("Attention(Q,K,V)=softmax(QK⊤√dk+mask)V")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_brackets_around_the_fraction_stretch_to_its_height(open_site_page, language):
    page, _ = open_site_page(language, "attention/")
    _faces_settled(page)
    heights = page.evaluate(BRACKETS, FORMULA)
    assert len(heights["fences"]) == 2 and len(heights["plain"]) == 2
    for fence in heights["fences"]:
        assert fence >= 0.9 * heights["fraction"], heights
        assert fence >= 1.5 * max(heights["plain"]), heights
