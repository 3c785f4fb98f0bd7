"""common.js prints numbers as sitebuild/numbers.py does, character for character: the
widgets' numbers and the page's static numbers never disagree. Every style the widgets
use, in every language, over the values where two formatters part ways (grouping from
five digits on, negative zero, exact halves, rounding up to the next power of ten)."""

from __future__ import annotations

import itertools
import json

import pytest

import locales
from sitebuild.numbers import format_value, format_vector
from tests.project import DEFAULT, LANGUAGES, ROOT

pytestmark = pytest.mark.browser

ORIGIN = "http://numbers.test"
COMMON_JS = ROOT / "docs" / "assets" / "javascripts" / "common.js"
# The module, imported in the page: an ES module exports its functions, no global.
COMMON = f"await import('{ORIGIN}/assets/javascripts/common.js')"

STYLES = ("fix0", "fix1", "fix3", "sig1", "sig2", "sig3", "sci1", "sci2", "sci3")
VALUES = (
    0.0, -0.0, 1e-4, -1e-4, -0.4, 0.5, 2.5, -2.5, 0.125, -0.125, 0.15, 1 / 3, -2 / 3,
    0.0995, 0.09995, 9.995, 99.96, 999.95, 1234.5, 9999.4, 9999.5, 9999.96, 10000.0,
    12345.678, -12345.678, 99999.95, 1234567.891, 1e21, -2.5e7, 9.96e5, 1.304e-31,
    1e-5, 0.001, 1000.0, 3.14159e5, 0.1 + 0.2, 123456789012.0, 6.02214076e23,
)
WHOLE = (0, 7, 4096, 9999, 10000, 123456, -123456, 1_000_000_000)


def cases() -> list[tuple[float, str, str]]:
    grid = list(itertools.product(VALUES, STYLES, LANGUAGES))
    return grid + list(itertools.product(WHOLE, ("int",), LANGUAGES))


@pytest.fixture
def common_js(browser):
    """A page that can import nothing but common.js, and carries the language record that
    every page of the site carries (overrides/main.html), from a host that exists only in
    this test."""
    record = json.dumps(locales.record(DEFAULT).for_page()).replace("</", "<\\/")
    context = browser.new_context()
    page = context.new_page()
    page.route(f"{ORIGIN}/", lambda route: route.fulfill(
        content_type="text/html; charset=utf-8",
        body=f'<!doctype html><html lang="{DEFAULT}"><meta charset="utf-8"><title>numbers</title>'
        f'<script id="site-language" type="application/json">{record}</script></html>'))
    page.route(f"{ORIGIN}/assets/javascripts/common.js", lambda route: route.fulfill(
        content_type="text/javascript; charset=utf-8", body=COMMON_JS.read_text(encoding="utf-8")))
    page.goto(f"{ORIGIN}/")
    yield page
    context.close()


def test_javascript_prints_every_style_as_python_does(common_js):
    grid = cases()
    printed = common_js.evaluate(f"""async (grid) => {{
      const {{ formatNumber }} = {COMMON};
      return grid.map(([value, style, language]) => formatNumber(value, style, language));
    }}""", grid)
    differ = [f"{value!r} {style} {language}: Python {expected!r}, JS {shown!r}"
              for (value, style, language), shown in zip(grid, printed, strict=True)
              if shown != (expected := format_value(value, style, language))]
    assert not differ, f"{len(differ)} of {len(grid)} differ:\n" + "\n".join(differ[:40])


def test_javascript_prints_vectors_as_python_does(common_js):
    values = [0.75, -0.25, 12345.5]
    for language in LANGUAGES:
        shown = common_js.evaluate(f"""async ([values, language]) => {{
          const site = {COMMON};
          return site.vector(values, (v) => site.formatNumber(v, "sig3", language), language);
        }}""", [values, language])
        assert shown == format_vector(values, "sig3", language), language
