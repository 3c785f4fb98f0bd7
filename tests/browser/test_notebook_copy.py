"""The notebook page's copy buttons are Material's, as on every other page: named in
the page's language, and they copy the cell's code. mkdocs-jupyter's own buttons
(English words, inline scripts) are gone."""

from __future__ import annotations

import re
from pathlib import Path

import material
import pytest

import locales
from tests.project import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MATERIAL_LANGUAGES = Path(material.__file__).parent / "templates" / "partials" / "languages"


def material_word(language: str, key: str) -> str:
    """Material's word KEY on the pages of LANGUAGE: the record's own where it gives one."""
    record = locales.record(language)
    if key in record.material_words:
        return record.material_words[key]
    text = (MATERIAL_LANGUAGES / f"{record.material}.html").read_text(encoding="utf-8")
    return re.search(rf'"{re.escape(key)}": "([^"]+)"', text)[1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_cell_has_materials_copy_button_in_the_pages_language(open_site_page, language):
    tab, _ = open_site_page(language, "notebook/")
    buttons = tab.locator('.jp-CodeCell .md-code__button[data-md-type="copy"]')
    cells = tab.locator(".jp-CodeCell pre > code").count()
    assert cells >= 6 and buttons.count() == cells
    titles = {buttons.nth(i).get_attribute("title") for i in range(cells)}
    assert titles == {material_word(language, "clipboard.copy")}
    assert tab.locator("clipboard-copy").count() == 0
    assert "Copied!" not in tab.content()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_copy_button_copies_its_cells_code_and_says_so_in_the_pages_language(
        open_site_page, language):
    tab, _ = open_site_page(language, "notebook/")
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"])
    code = tab.locator(".jp-CodeCell pre > code").nth(1)
    button = tab.locator('.jp-CodeCell .md-code__button[data-md-type="copy"]').nth(1)
    button.scroll_into_view_if_needed()
    button.hover()
    button.click()
    tab.locator(".md-dialog").get_by_text(material_word(language, "clipboard.copied")).wait_for()
    copied = tab.evaluate("navigator.clipboard.readText()")
    assert copied.strip() and copied.strip() == code.inner_text().strip()
