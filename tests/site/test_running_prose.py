"""The running prose teaches; the evidence marks beside it carry the checks. Outside the
marks, their notes, tables, figures, listings and closed boxes, a page says what is
true in plain words: few numbers in scientific notation, few ε, and (in English) none
of the verification phrases a test report would use."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from tests.project import DEFAULT, LANGUAGES, page_file

pytestmark = pytest.mark.slow

# A number in scientific notation as the pages print it (4.4 × 10⁻¹⁶), or a bare power.
SCIENTIFIC = re.compile(r"×\s*10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+|(?<![\d.,])10[⁻][⁰¹²³⁴⁵⁶⁷⁸⁹]+")
EPSILON = "ε"
# Per page, per language: at most this many numbers in scientific notation, and ε.
LIMITS = {"attention/": {"scientific": 1, "epsilon": 0},
          "feature-recovery/": {"scientific": 4, "epsilon": 6}}
REPORT_PHRASES = ("to rounding", "largest difference")


def running_prose(html: str) -> str:
    """The article's text without what is not running prose: evidence marks and their
    notes, tables, figures, code, math and every <details> box (the questions' answers,
    the notes, "How this page was checked")."""
    article = BeautifulSoup(html, "html.parser").find("article")
    for hidden in article.select("script, style, table, figure, pre, code, math, details, "
                                 "sup.evidence, .footnote, .headerlink"):
        hidden.decompose()
    return article.get_text(" ")


def test_the_prose_filter_keeps_sentences_and_drops_what_carries_evidence():
    html = ("<article><p>The fit is exact.<sup class='evidence'>1 × 10⁻³¹</sup></p>"
            "<table><tr><td>2 × 10⁻¹⁶</td></tr></table><details><p>ε</p></details>"
            "<div class='footnote'>3 × 10⁻¹²</div><p>about 10⁻¹⁶ and 5 × 10⁻³</p></article>")
    prose = running_prose(html)
    assert "The fit is exact." in prose
    assert len(SCIENTIFIC.findall(prose)) == 2 and EPSILON not in prose


@pytest.mark.parametrize("page", list(LIMITS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_running_prose_holds_few_numbers_in_scientific_notation_and_few_eps(
        site, language, page):
    prose = running_prose(page_file(site, language, page).read_text(encoding="utf-8"))
    assert len(prose.split()) > 500, "no running prose found: the filter would pass anything"
    scientific = SCIENTIFIC.findall(prose)
    assert len(scientific) <= LIMITS[page]["scientific"], scientific
    assert prose.count(EPSILON) <= LIMITS[page]["epsilon"]


@pytest.mark.parametrize("page", list(LIMITS))
def test_the_english_prose_carries_no_verification_phrases(site, page):
    prose = running_prose(page_file(site, DEFAULT, page).read_text(encoding="utf-8")).lower()
    assert [phrase for phrase in REPORT_PHRASES if phrase in prose] == []
