"""Material's interface words on the article pages, in the page's language: the copy
button of a code listing and the message after a copy. (The result count of the
search: test_search.py.)"""

from __future__ import annotations

import pytest

from tests.language_cases import COPY
from tests.project import LANGUAGES

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code in COPY])
def test_the_copy_button_of_a_listing_speaks_the_page_language(open_site_page, language):
    page, traffic = open_site_page(language, "feature-recovery/", fresh=True,
                                   permissions=["clipboard-read", "clipboard-write"])
    button = page.locator('.md-typeset .md-code__button[data-md-type="copy"]').first
    assert button.get_attribute("title") == COPY[language][0]
    button.click()
    assert page.locator(".md-dialog__inner").text_content().strip() == COPY[language][1]
    assert not traffic.console_errors and not traffic.page_errors
