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


# Material's count of results, as its own script writes it (its one form for every
# count above one), and as a reader of the language must read it.
COUNTS = {
    "en": {1: "1 matching document", 2: "2 matching documents", 5: "5 matching documents"},
    "uk": {1: "Знайдено 1 збіг", 2: "Знайдено 2 збіги", 4: "Знайдено 4 збіги",
           5: "Знайдено 5 збігів", 11: "Знайдено 11 збігів", 12: "Знайдено 12 збігів",
           21: "Знайдено 21 збіг", 22: "Знайдено 22 збіги", 25: "Знайдено 25 збігів"},
    "sv": {1: "1 sökresultat", 2: "2 sökresultat", 5: "5 sökresultat"},
}
MORE = {
    "en": {1: "1 more on this page", 2: "2 more on this page", 5: "5 more on this page"},
    "uk": {1: "Ще 1 збіг на цій сторінці", 3: "Ще 3 збіги на цій сторінці",
           5: "Ще 5 збігів на цій сторінці", 14: "Ще 14 збігів на цій сторінці"},
    "sv": {1: "1 till på denna sida", 2: "2 till på denna sida", 5: "5 till på denna sida"},
}

# Material writes a count as its search does: textContent from its translations.
AS_MATERIAL_WRITES = """async ([selector, key, count]) => {
  const words = JSON.parse(document.getElementById("__config").textContent).translations;
  const node = document.querySelector(selector);
  node.textContent = count === 1 ? words[`${key}.one`] : words[`${key}.other`].replace("#", count);
  await new Promise((resolve) => setTimeout(resolve, 50));  // after the observers
  return node.textContent;
}"""


@pytest.mark.parametrize("language", ["en", "uk", "sv"])
def test_the_number_of_results_is_written_in_the_grammar_of_the_page_language(
        open_site_page, language):
    page, traffic = open_site_page(language, "")
    search(page, "softmax" if language == "en" else "матриц" if language == "uk" else "matris")
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


def plural(language: str, count: int) -> str:
    """CLDR's category of a whole COUNT: Ukrainian's one, few and many; one and other."""
    if language != "uk":
        return "one" if count == 1 else "other"
    if count % 10 == 1 and count % 100 != 11:
        return "one"
    return "few" if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14 else "many"


UK_NOUN = {"one": "збіг", "few": "збіги", "many": "збігів"}


@pytest.mark.parametrize("word", ["увага", "модель", "матриц", "ключі"])
def test_a_ukrainian_search_counts_its_results_and_matches_grammatically(open_site_page,
                                                                         word):
    """Real searches: whatever they find, each count has its form (1 збіг, 2-4 збіги,
    5 збігів), the results' and each page's further matches."""
    page, _ = open_site_page("uk", "")
    search(page, word)
    page.wait_for_timeout(200)  # the observer's rewrite
    texts = [page.locator(".md-search-result__meta").text_content(),
             *page.locator(".md-search-result__more > summary > div").all_text_contents()]
    for text in texts:
        count = int(re.search(r"\d+", text)[0])
        noun = UK_NOUN[plural("uk", count)]
        assert re.fullmatch(rf"(Знайдено|Ще) {count} {noun}( на цій сторінці)?", text), text
