"""An evidence mark shows its note where the reader is: focused (or hovered, or
tapped), Material's footnote tooltip opens with the note's words and numbers, in
the page's language; the closed box at the end holds every note."""

from __future__ import annotations

import pytest

from tests.project import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MARK = "sup.evidence a.footnote-ref"


@pytest.mark.parametrize("language", LANGUAGES)
def test_focusing_a_mark_shows_its_note_as_a_tooltip(open_site_page, language):
    page, traffic = open_site_page(language, "attention/")
    mark = page.locator(MARK).first
    target = mark.get_attribute("href").removeprefix("#")
    note = page.locator(f"[id='{target}']").text_content()  # in the closed box
    mark.scroll_into_view_if_needed()
    mark.focus()
    tooltip = page.locator(".md-tooltip2--active")
    tooltip.wait_for(state="visible")
    shown = tooltip.inner_text()
    assert shown.strip() == note.strip() and any(c.isdigit() for c in shown)
    assert not (traffic.console_errors or traffic.page_errors or traffic.failed)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_marks_link_opens_the_closed_box_at_its_note(open_site_page, language):
    page, _ = open_site_page(language, "feature-recovery/")
    box = page.locator("details.evidence-notes")
    assert box.get_attribute("open") is None
    mark = page.locator(MARK).nth(2)
    target = mark.get_attribute("href").removeprefix("#")
    mark.click()
    page.wait_for_function("(id) => document.getElementById(id).closest('details').open",
                           arg=target)
    assert page.locator(f"[id='{target}']").is_visible()
