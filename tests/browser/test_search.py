"""The site's search, as a reader uses it: a word of the page's language finds the pages
that contain it, in every language, Cyrillic included (lunr's own trimmer drops every
letter that is not Latin: the site's search language keeps them), and a word that
arrives in the field without a key of its own (pasted, dictated, composed)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.language_cases import (
    APOSTROPHE,
    COUNT_PATTERN,
    COUNTED,
    COUNTS,
    CYRILLIC,
    MORE,
    PLURAL_NOUN,
    PLURAL_SEARCHES,
    SEARCHES,
    STOP_WORDS,
    plural,
)
from tests.project import LANGUAGES, ROOT, page_suffix, url_prefix

pytestmark = pytest.mark.browser


def source(language: str, page: str) -> str:
    suffix = page_suffix(language)
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
    not a translation's."""
    prefix = url_prefix(language)
    assert f"/{prefix}{expected}/" in {urlsplit(href).path for href in found}, (
        f"searching {word!r} on the {language} site did not find {prefix}{expected}/: {found}")


def russian_stop_words() -> set[str]:
    """The stop-word list of lunr's Russian module, as Material ships it."""
    from material import templates

    module = Path(templates.__file__).parent / "assets/javascripts/lunr/min/lunr.ru.min.js"
    found = re.search(r'generateStopWordFilter\("([^"]+)"', module.read_text(encoding="utf-8"))
    assert found, f"{module.name} no longer has its stop words where this test reads them"
    return set(found[1].split())


@pytest.mark.parametrize(("word", "expected"), STOP_WORDS, ids=[word for word, _ in STOP_WORDS])
def test_a_cyrillic_word_on_the_russian_stop_list_finds_its_page(open_site_page, word,
                                                                  expected):
    assert word in russian_stop_words()
    words = re.findall(r"\w+", source(CYRILLIC, expected).lower())
    assert word in words
    # Material searches by prefix: a longer word starting so would be found anyway.
    assert not [other for other in words if other.startswith(word) and other != word]
    page, _ = open_site_page(CYRILLIC, "")
    assert_found(search(page, word), CYRILLIC, expected, word)


def test_the_search_dialog_is_named_in_the_page_language(open_site_page):
    page, _ = open_site_page(CYRILLIC, "")
    name = page.locator(".md-search[role='dialog']").get_attribute("aria-label")
    assert name == page.locator(".md-search__input").get_attribute("aria-label") and name


def test_a_word_pasted_into_the_field_without_a_key_finds_the_page(open_site_page):
    language, word, expected = next(case for case in SEARCHES if case[0] == CYRILLIC)
    page, traffic = open_site_page(language, "")
    page.keyboard.press("/")
    page.keyboard.insert_text(word)  # an input event and no key: as a paste or a dictation
    page.locator(".md-search-result__item").first.wait_for(timeout=30_000)
    links = page.locator(".md-search-result__link").evaluate_all(
        "links => links.map(link => link.getAttribute('href'))")
    assert any(expected in link for link in links), links
    assert not traffic.console_errors and not traffic.page_errors


@pytest.mark.parametrize("typed", APOSTROPHE[1], ids=["ascii", "modifier"])
def test_a_word_typed_with_another_apostrophe_finds_the_page(open_site_page, typed):
    """The Ukrainian pages write the apostrophe ’ (GLOSSARY.md); a reader's keyboard
    types ' or ʼ. The search separator splits words at every apostrophe."""
    text = source(CYRILLIC, "attention")
    assert APOSTROPHE[0] in text and typed not in text
    page, _ = open_site_page(CYRILLIC, "")
    assert_found(search(page, typed), CYRILLIC, "attention", typed)


# Material writes a count as its search does: textContent from its translations.
AS_MATERIAL_WRITES = """async ([selector, key, count]) => {
  const words = JSON.parse(document.getElementById("__config").textContent).translations;
  const node = document.querySelector(selector);
  node.textContent = count === 1 ? words[`${key}.one`] : words[`${key}.other`].replace("#", count);
  await new Promise((resolve) => setTimeout(resolve, 50));  // after the observers
  return node.textContent;
}"""


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code in COUNTS])
def test_the_number_of_results_is_written_in_the_grammar_of_the_page_language(
        open_site_page, language):
    page, traffic = open_site_page(language, "")
    search(page, COUNTED[language])
    # The site has four pages per language: a count of five or more is written by hand.
    for count, expected in COUNTS[language].items():
        assert page.evaluate(AS_MATERIAL_WRITES, [".md-search-result__meta", "search.result",
                                                  count]) == expected
    page.evaluate("""() => { const more = document.createElement("details");
      more.className = "md-search-result__more";
      more.innerHTML = "<summary><div></div></summary>";
      document.querySelector(".md-search-result__list").append(more); }""")
    for count, expected in MORE[language].items():
        assert page.evaluate(AS_MATERIAL_WRITES, [".md-search-result__more > summary > div",
                                                  "search.result.more", count]) == expected
    assert not traffic.console_errors and not traffic.page_errors


@pytest.mark.parametrize("word", PLURAL_SEARCHES)
def test_a_cyrillic_search_counts_its_results_and_matches_grammatically(open_site_page,
                                                                        word):
    """Real searches: whatever they find, each count has its form (1 збіг, 2-4 збіги,
    5 збігів), the results' and each page's further matches."""
    page, _ = open_site_page(CYRILLIC, "")
    search(page, word)
    page.wait_for_timeout(200)  # the observer's rewrite
    texts = [page.locator(".md-search-result__meta").text_content(),
             *page.locator(".md-search-result__more > summary > div").all_text_contents()]
    for text in texts:
        count = int(re.search(r"\d+", text)[0])
        noun = PLURAL_NOUN[plural(CYRILLIC, count)]
        assert re.fullmatch(COUNT_PATTERN.format(count=count, noun=noun), text), text
