"""The language switcher in the header keeps the reader on the same page, from every
language to every other, as a reader uses it: open the menu, click a language.
tests/site/test_built_site.py checks every switcher link of every page in the HTML;
here one page shows that the menu works in a browser."""

from __future__ import annotations

from itertools import permutations

import pytest

from tests.browser.conftest import page_url
from tests.project import DEFAULT, LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGE = "attention/"


def test_switching_language_keeps_the_page_in_every_direction(open_site_page, server):
    tab, traffic = open_site_page(DEFAULT, PAGE)
    for here, there in permutations(LANGUAGES, 2):
        if tab.url != page_url(server, here, PAGE):
            tab.goto(page_url(server, here, PAGE))
        tab.hover(".md-header .md-select")  # the menu opens on hover (or focus)
        with tab.expect_navigation():
            tab.click(f'.md-header a.md-select__link[hreflang="{there}"]')
        assert tab.url == page_url(server, there, PAGE), f"{here} → {there}"
        assert tab.evaluate("document.documentElement.lang") == there
    # Leaving a page cancels its late requests (search index, favicon): only answers count.
    assert traffic.http_errors == []
