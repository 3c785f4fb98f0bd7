"""The language switcher in the header keeps the reader on the same page, from every
language to every other, as a reader uses it: open the menu, click a language."""

from __future__ import annotations

import pytest

from tests.browser.conftest import page_url
from tests.project import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Two round trips that between them take each of the six directions once.
ROUND_TRIPS = (("en", "uk", "sv", "en"), ("en", "sv", "uk", "en"))


@pytest.mark.parametrize("page", PAGES)
def test_switching_language_keeps_the_page_in_every_direction(open_site_page, server, page):
    tab, traffic = open_site_page("en", page)
    taken = set()
    for trip in ROUND_TRIPS:
        tab.goto(page_url(server, trip[0], page))
        for here, there in zip(trip, trip[1:], strict=False):
            tab.hover(".md-header .md-select")  # the menu opens on hover (or focus)
            with tab.expect_navigation():
                tab.click(f'.md-header a.md-select__link[hreflang="{there}"]')
            assert tab.url == page_url(server, there, page), f"{here} → {there}"
            assert tab.evaluate("document.documentElement.lang") == there
            taken.add((here, there))
    assert len(taken) == 6
    # Leaving a page cancels its late requests (search index, favicon): only answers count.
    assert traffic.http_errors == []
