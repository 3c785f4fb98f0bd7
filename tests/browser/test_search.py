"""The site's search, as a reader uses it: a word of the page's language finds the pages
that contain it, in every language, Cyrillic included (lunr's own trimmer drops every
letter that is not Latin, so a Ukrainian word used to find nothing)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

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
    found = search(page, word)
    assert_found(found, language, expected, word)
    assert not traffic.console_errors and not traffic.page_errors


def assert_found(found: list[str], language: str, expected: str, word: str) -> None:
    """FOUND has the page EXPECTED of LANGUAGE: /attention/ is the English page only,
    not /uk/attention/."""
    prefix = "" if language == "en" else f"{language}/"
    assert f"/{prefix}{expected}/" in {urlsplit(href).path for href in found}, (
        f"searching {word!r} on the {language} site did not find {prefix}{expected}/: {found}")


def russian_stop_words() -> set[str]:
    """The stop-word list of lunr's Russian module, as Material ships it."""
    from material import templates

    module = Path(templates.__file__).parent / "assets/javascripts/lunr/min/lunr.ru.min.js"
    found = re.search(r'generateStopWordFilter\("([^"]+)"', module.read_text(encoding="utf-8"))
    assert found, f"{module.name} no longer has its stop words where this test reads them"
    return set(found[1].split())


# Ukrainian words that lunr's Russian stop-word filter would drop from the index
# (mkdocs.yml loads lunr.ru for its Cyrillic trimmer; its pipeline is empty).
STOP_WORDS = [("два", "attention"), ("тут", "feature-recovery"), ("через", "attention")]


@pytest.mark.parametrize(("word", "expected"), STOP_WORDS, ids=[word for word, _ in STOP_WORDS])
def test_a_ukrainian_word_on_the_russian_stop_list_finds_its_page(open_site_page, word,
                                                                   expected):
    assert word in russian_stop_words()
    words = re.findall(r"\w+", source("uk", expected).lower())
    assert word in words
    # Material searches by prefix: a longer word starting so would be found anyway.
    assert not [other for other in words if other.startswith(word) and other != word]
    page, _ = open_site_page("uk", "")
    assert_found(search(page, word), "uk", expected, word)


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
    assert_found(search(page, typed), "uk", "attention", typed)
