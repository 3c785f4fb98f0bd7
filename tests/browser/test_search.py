"""The site's search, as a reader uses it: a word of the page's language finds the pages
that contain it, in every language, Cyrillic included (lunr's own trimmer drops every
letter that is not Latin, so a Ukrainian word used to find nothing)."""

from __future__ import annotations

import pytest

from tests.project import ROOT

pytestmark = pytest.mark.browser

# (language, word typed, a page that contains it); every word is checked below to be
# in that page's source, so the test cannot pass on a word no page has.
SEARCHES = [
    ("en", "softmax", "attention"),
    ("en", "interventions", "feature-recovery"),
    ("uk", "тетраедр", "feature-recovery"),
    ("uk", "ключі", "attention"),
    ("uk", "зерна", "feature-recovery"),
    ("sv", "nycklar", "attention"),
    ("sv", "särdrag", "feature-recovery"),
]


def source(language: str, page: str) -> str:
    suffix = "" if language == "en" else f".{language}"
    return (ROOT / "docs" / f"{page}{suffix}.md").read_text(encoding="utf-8")


def search(page, word: str) -> list[str]:
    """Type WORD into the search field; the locations of the results Material shows."""
    page.keyboard.press("/")  # Material's shortcut: opens search, at any width
    page.locator(".md-search__input").fill(word)
    # Material searches on key events: a key that changes nothing, as after typing.
    page.keyboard.press("End")
    page.locator(".md-search-result__item").first.wait_for(timeout=30_000)
    return page.locator(".md-search-result__link").evaluate_all(
        "links => links.map(link => link.getAttribute('href'))")


@pytest.mark.parametrize(("language", "word", "expected"), SEARCHES,
                         ids=[f"{language}-{word}" for language, word, _ in SEARCHES])
def test_a_word_of_the_page_language_finds_the_page_that_has_it(open_site_page, language,
                                                                  word, expected):
    assert word.lower() in source(language, expected).lower()
    page, traffic = open_site_page(language, "")
    prefix = "" if language == "en" else f"{language}/"
    found = search(page, word)
    assert any(f"/{prefix}{expected}/" in href for href in found), (
        f"searching {word!r} on the {language} site did not find {prefix}{expected}/: {found}")
    assert not traffic.console_errors and not traffic.page_errors


def test_the_search_dialog_is_named_in_the_page_language(open_site_page):
    page, _ = open_site_page("uk", "")
    name = page.locator(".md-search[role='dialog']").get_attribute("aria-label")
    assert name == page.locator(".md-search__input").get_attribute("aria-label") and name


@pytest.mark.parametrize("typed", ["обов'язково", "обовʼязково"], ids=["ascii", "modifier"])
def test_a_word_typed_with_another_apostrophe_finds_the_page(open_site_page, typed):
    """The Ukrainian pages write the apostrophe ’ (GLOSSARY.md); a reader's keyboard
    types ' or ʼ. The search separator splits words at every apostrophe."""
    text = source("uk", "attention")
    assert "обов’язково" in text and typed not in text
    page, _ = open_site_page("uk", "")
    found = search(page, typed)
    assert any("/uk/attention/" in href for href in found), (
        f"searching {typed!r} did not find uk/attention/: {found}")
