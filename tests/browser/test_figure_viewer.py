"""The figure viewer: every figure opens at full size, zooms with + and −, the wheel
or a pinch, pans with the arrow keys or by dragging, stays sharp (no CSS scaling of
an SVG), and Esc closes it and returns focus to the figure. The gestures do not depend
on the page's language and are checked once, in English; the viewer's words are
checked in every language, against mkdocs.yml."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import axe
from tests.browser.conftest import SCHEMES
from tests.project import DEFAULT, LANGUAGES, TRANSLATIONS, site_words

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGE = "feature-recovery/"  # the article with the run's figures
DIALOG = "dialog.figure-viewer"
IMAGE = f"{DIALOG} .figure-viewer__image"
def view(page) -> dict:
    """Zoom, drawn size and position of the image in the viewer."""
    return page.evaluate("""(selector) => {
      const image = document.querySelector(selector);
      const box = image.getBoundingClientRect();
      return {
        zoom: Number(image.closest("dialog").dataset.zoom),
        width: box.width, height: box.height, left: box.left, top: box.top,
        styleWidth: parseFloat(image.style.width),
        transform: getComputedStyle(image).transform,
        natural: image.naturalWidth,
        src: image.src,
      };
    }""", IMAGE)


def translation_only(transform: str) -> bool:
    numbers = [float(x) for x in re.findall(r"-?[\d.]+(?:e-?\d+)?", transform)]
    return transform == "none" or numbers[:4] == [1, 0, 0, 1]


def open_first_figure(page):
    opener = page.locator(".md-content button.figure-open:visible").first
    opener.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(s) => document.querySelector(s)?.open", arg=DIALOG)
    page.wait_for_function("(s) => document.querySelector(s).naturalWidth > 0", arg=IMAGE)
    return opener


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_viewer_speaks_the_language_of_the_page(open_site_page, language):
    words = site_words()[language]["figureViewer"]
    page, _ = open_site_page(language, PAGE)
    images = page.locator(".md-content article img")
    assert images.count() >= 3
    for i in range(images.count()):
        image = images.nth(i)
        button = image.locator("xpath=ancestor::button[contains(@class, 'figure-open')]")
        assert button.count() == 1, image.get_attribute("src")
        alt = image.get_attribute("alt")
        assert alt, image.get_attribute("src")
        if button.is_visible():  # a twin drawn for the other scheme is hidden, nameless
            expect(button).to_have_accessible_name(f"{alt} {words['open']}")
    open_first_figure(page)
    expect(page.locator(f"{DIALOG} .figure-viewer__help")).to_have_text(words["help"])
    for name in ("zoomIn", "zoomOut", "fit", "close"):
        expect(page.locator(f"{DIALOG} .figure-viewer__button[aria-label]").and_(
            page.locator(f"{DIALOG} .figure-viewer__{name}"))).to_have_accessible_name(words[name])


def test_keys_zoom_pan_fit_and_esc_returns_focus_to_the_figure(open_site_page):
    page, traffic = open_site_page(DEFAULT, PAGE)
    opener = open_first_figure(page)
    fitted = view(page)
    assert fitted["zoom"] == 1
    assert fitted["src"].endswith(".svg")
    for _ in range(8):  # 1.25⁸ ≈ 6: larger than the window both ways, so it can pan
        page.keyboard.press("+")
    zoomed = view(page)
    assert zoomed["zoom"] == pytest.approx(1.25**8)
    # Sharp: the image is laid out at the zoomed size and never scaled by CSS.
    assert zoomed["width"] == pytest.approx(fitted["width"] * 1.25**8, abs=1)
    assert zoomed["styleWidth"] == pytest.approx(zoomed["width"], abs=0.5)
    assert translation_only(zoomed["transform"])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    panned = view(page)
    assert panned["left"] > zoomed["left"] and panned["top"] > zoomed["top"]
    page.keyboard.press("-")
    assert view(page)["zoom"] == pytest.approx(1.25**7)
    page.keyboard.press("0")
    assert view(page)["zoom"] == 1
    page.keyboard.press("Escape")
    assert not page.evaluate("(s) => document.querySelector(s).open", DIALOG)
    assert opener.evaluate("(button) => document.activeElement === button")
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_wheel_zooms_and_dragging_pans(open_site_page):
    page, _ = open_site_page(DEFAULT, PAGE)
    open_first_figure(page)
    before = view(page)
    centre_x, centre_y = before["left"] + before["width"] / 2, before["top"] + before["height"] / 2
    page.mouse.move(centre_x, centre_y)
    page.mouse.wheel(0, -1200)  # e^2.4 ≈ 11: as far as it goes, 8 times the fitted size
    page.wait_for_function("(s) => Number(document.querySelector(s).dataset.zoom) === 8",
                           arg=DIALOG)
    zoomed = view(page)
    assert zoomed["width"] > before["width"]
    page.mouse.down()
    page.mouse.move(centre_x + 80, centre_y + 60, steps=4)
    page.mouse.up()
    # Chromium hands pointer moves to the page with its next frames, which on a busy
    # machine can come after mouse.up() has returned: give the drag time to arrive.
    page.wait_for_function(
        "([s, left]) => Math.abs(document.querySelector(s).getBoundingClientRect().left"
        " - left) >= 78", arg=[IMAGE, zoomed["left"]])
    dragged = view(page)
    assert dragged["left"] - zoomed["left"] == pytest.approx(80, abs=2)
    assert dragged["top"] - zoomed["top"] == pytest.approx(60, abs=2)
    page.locator(f"{DIALOG} .figure-viewer__close").click()
    assert not page.evaluate("(s) => document.querySelector(s).open", DIALOG)


def test_two_finger_pinch_zooms(open_site_page):
    page, _ = open_site_page(DEFAULT, PAGE, has_touch=True, fresh=True)  # a CDP session
    open_first_figure(page)
    before = view(page)
    x, y = before["left"] + before["width"] / 2, before["top"] + before["height"] / 2
    touch = page.context.new_cdp_session(page)

    def fingers(kind: str, spread: float) -> None:
        points = [] if kind == "touchEnd" else [
            {"x": x - spread, "y": y, "id": 1}, {"x": x + spread, "y": y, "id": 2}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    fingers("touchStart", 40)
    for spread in (60, 80, 100, 120):
        fingers("touchMove", spread)
    fingers("touchEnd", 0)
    assert view(page)["zoom"] == pytest.approx(3, rel=0.05)  # fingers 80 -> 240 px apart


@pytest.mark.parametrize("scheme", SCHEMES)
def test_open_viewer_has_no_axe_violations(open_site_page, scheme):
    page, _ = open_site_page(DEFAULT, PAGE, scheme=scheme)
    open_first_figure(page)
    assert axe.violations(page) == []


# Material shows an image whose address ends in #only-light on a light page only, and
# #only-dark on a dark one; the attention article draws its scaling figure both ways.
TWINS_PAGE = "attention/"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_figure_drawn_for_both_schemes_opens_as_the_reader_sees_it(open_site_page, scheme):
    page, _ = open_site_page(DEFAULT, TWINS_PAGE, scheme=scheme)
    other = "dark" if scheme == "light" else "light"
    hidden = page.locator(f'button.figure-open:has(img[src$="#only-{other}"])')
    assert hidden.count() > 0, f"{TWINS_PAGE} has no figure drawn for both schemes"
    # The twin not shown takes no tab stop: its button is hidden with its image.
    for button in hidden.all():
        expect(button).to_be_hidden()
    shown = page.locator(f'button.figure-open:has(img[src$="#only-{scheme}"])').first
    expect(shown).to_be_visible()
    expected = shown.locator("img").evaluate("(img) => img.src.split('#')[0]")
    shown.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(s) => document.querySelector(s)?.open", arg=DIALOG)
    assert view(page)["src"] == expected  # what the reader sees, without the fragment
    expect(page.locator(IMAGE)).to_be_visible()


# A figure of several panels side by side is drawn stacked for a phone too; each
# screen shows one layout, and the viewer opens the one shown.
STACKED = "learned_keys_query_responses"
PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize(("width", "shown", "hidden"), [
    (PHONE["width"], "figure-narrow", "figure-wide"),
    (1280, "figure-wide", "figure-narrow"),
])
def test_a_stacked_figure_shows_the_layout_for_the_screen(open_site_page, width, shown,
                                                           hidden):
    page, _ = open_site_page(TRANSLATIONS[-1], PAGE, fresh=True)
    page.set_viewport_size({"width": width, "height": PHONE["height"]})
    visible = page.locator(f'button.figure-open:has(img[src*="{STACKED}"]):visible')
    expect(visible).to_have_count(1)  # one layout, one scheme
    image = visible.locator("img")
    assert shown in image.get_attribute("class")
    for button in page.locator(f'button.figure-open:has(img.{hidden}[src*="{STACKED}"])').all():
        expect(button).to_be_hidden()
    box = image.bounding_box()
    assert box["width"] <= width
    if width == PHONE["width"]:
        # Drawn for a phone's column: shown at nearly its drawn size, its printed
        # entries readable (the wide layout would shrink to under half of its own).
        natural = image.evaluate("(img) => img.naturalWidth")
        assert box["width"] >= 0.8 * natural, (box["width"], natural)
