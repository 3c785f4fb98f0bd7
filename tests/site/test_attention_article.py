"""The attention article as a reader gets it: short enough to read in one sitting,
questions to answer before the answers, and every old link still landing."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.language_cases import ATTENTION_WORDS as LIMITS
from tests.project import LANGUAGES, page_file

pytestmark = pytest.mark.slow
OLD_IDS = ("bank-example", "five-steps", "formula", "worked-example", "calculator",
           "scaling", "causal-mask", "bank-computed", "value-swap", "not-unique", "heads",
           "pitfall", "self-check", "exercise")


def article(site: Path, language: str):
    html = BeautifulSoup(page_file(site, language, "attention/").read_text(encoding="utf-8"),
                         "html.parser")
    return html.select_one("article")


def visible_words(node) -> int:
    """Words of the article's text as a reader sees it before opening anything: tables
    and captions count; scripts, the TeX behind the MathML, permalinks and what a closed
    <details> hides (its summary counts) do not."""
    for hidden in node.select("script, style, annotation, .headerlink"):
        hidden.decompose()
    for details in node.select("details:not([open])"):
        for child in list(details.children):
            if getattr(child, "name", None) != "summary":
                child.extract()
    return len(node.get_text(" ").split())


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code in LIMITS])
def test_the_article_is_within_its_word_limit(site, language):
    words = visible_words(article(site, language))
    assert words <= LIMITS[language], f"{language}: {words} words, limit {LIMITS[language]}"
    assert words > LIMITS[language] // 3, f"{language}: {words} words: is the text missing?"


def test_the_word_count_ignores_what_a_reader_does_not_see():
    html = BeautifulSoup("<article><p>one two</p><script>x y z</script>"
                         "<details><summary>three</summary><p>four five</p></details>"
                         "<details open><summary>six</summary><p>seven</p></details>"
                         "<math><mi>x</mi><annotation>\\frac{a}{b}</annotation></math>"
                         "</article>", "html.parser")
    assert visible_words(html.select_one("article")) == 6  # one two three six seven x


@pytest.mark.parametrize("language", LANGUAGES)
def test_questions_come_before_their_answers(site, language):
    questions = article(site, language).select("details.question")
    assert len(questions) >= 5
    for question in questions:
        assert not question.has_attr("open"), "an answer shown before the reader answers"
        assert question.find("summary").get_text(strip=True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_old_link_still_lands(site, language):
    page = article(site, language)
    missing = [name for name in OLD_IDS if page.find(id=name) is None]
    assert not missing, f"{language}: no element with the ids {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_code_and_its_provenance_wait_in_one_closed_box_at_the_end(site, language):
    page = article(site, language)
    listings = page.select("div.highlight")
    boxes = {id(box) for box in (listing.find_parent("details") for listing in listings)}
    assert listings and len(boxes) == 1 and None not in [
        listing.find_parent("details") for listing in listings]
    box = listings[0].find_parent("details")
    assert not box.has_attr("open")
    assert box.find_previous(["h2"])["id"] == "how-computed"
