"""The feature-recovery article's length, counted as a reader meets it: the words of the
built page's <article> element, tables, captions, listings and figure labels included,
scripts and styles excluded (the measure by which the second edition had 6,013 words in
English, 5,673 in Ukrainian and 5,743 in Swedish), without what a closed box hides: a reader sees only its title until they open it (the evidence notes of
"How this page was checked", the answers to the questions)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.language_cases import FEATURE_RECOVERY_WORDS as LIMITS
from tests.project import page_file

pytestmark = pytest.mark.slow


def article_words(html: str) -> int:
    """Visible words of the <article> element's text: without <script> and <style>, and
    of a closed <details> only its <summary>."""
    article = BeautifulSoup(html, "html.parser").find("article")
    for hidden in article.find_all(["script", "style"]):
        hidden.decompose()
    for box in article.find_all("details"):
        if box.has_attr("open"):
            continue
        for child in list(box.children):
            if getattr(child, "name", None) != "summary":
                child.extract()
    return len(article.get_text(" ").split())


def test_the_count_sees_tables_and_captions_and_not_scripts():
    html = ("<article><p>one two</p><table><tr><td>three</td></tr></table>"
            "<figure><figcaption>four five</figcaption></figure>"
            "<script>not counted at all</script><style>p {}</style></article>"
            "<nav>outside the article</nav>")
    assert article_words(html) == 5


def test_the_count_sees_a_closed_box_s_title_and_an_open_box_whole():
    html = ("<article><details><summary>one two</summary><p>hidden words</p></details>"
            "<details open><summary>three</summary><p>four five</p></details></article>")
    assert article_words(html) == 5


@pytest.mark.parametrize("language", list(LIMITS))
def test_the_feature_recovery_article_keeps_to_its_length(site, language):
    html = page_file(site, language, "feature-recovery/").read_text(encoding="utf-8")
    words = article_words(html)
    assert 0.5 * LIMITS[language] < words <= LIMITS[language], (
        f"{language}: {words} words, limit {LIMITS[language]}")
