"""Every checked sentence on the built site shows its evidence: a numbered mark after
it, linking to a note that states what was measured, in the page's language, with
the notes in one closed box at the end of the page; run/claims.json lists them all."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

from sitebuild import claims
from sitebuild.catalogue import CLAIM
from tests.project import LANGUAGES, PAGES, ROOT, page_file

pytestmark = pytest.mark.slow
DIGIT = re.compile(r"\d")


def source(language: str, page: str):
    suffix = "" if language == LANGUAGES[0] else f".{language}"  # the default: page.md
    name = (page.strip("/") or "index") + suffix + ".md"
    return ROOT / "docs" / name


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", [p for p in PAGES if p != "notebook/"])
def test_every_claim_shows_a_numbered_mark_linked_to_its_note(site, language, page):
    names = CLAIM.findall(source(language, page).read_text(encoding="utf-8"))
    html = BeautifulSoup(page_file(site, language, page).read_text(encoding="utf-8"),
                         "html.parser")
    marks = html.select("sup.evidence")
    assert sorted({m["data-claim"] for m in marks}) == sorted(set(names))
    assert len(marks) == len(names)
    box = html.select_one("details.evidence-notes")
    assert (box is None) == (not names)
    if box is None:
        return
    assert not box.has_attr("open"), "the notes wait in a closed box"
    notes = box.select("ol > li")
    assert len(notes) == len(set(names))
    for mark in marks:
        link = mark.select_one("a.footnote-ref")
        note = html.find(id=link["href"].removeprefix("#"))
        assert note is not None and note.find_parent("details") is box
        assert DIGIT.search(link.get_text()), "the mark carries its number"
        assert DIGIT.search(note.get_text()), f"{mark['data-claim']}: a note without a number"
        assert link.has_attr("aria-label")
    numbers = [int(m.get_text()) for m in marks]
    assert sorted(set(numbers)) == list(range(1, len(set(names)) + 1))


def test_the_notes_are_in_the_pages_language(site):
    texts = {language: page_file(site, language, "attention/").read_text(encoding="utf-8")
             for language in LANGUAGES}
    titles = {language: BeautifulSoup(text, "html.parser")
              .select_one("details.evidence-notes summary").get_text(strip=True)
              for language, text in texts.items()}
    assert len(set(titles.values())) == len(LANGUAGES)


def test_the_catalogue_lists_every_claim_with_its_description_and_pages(site):
    catalogue = json.loads((site / "run" / "claims.json").read_text(encoding="utf-8"))
    assert sorted(entry["name"] for entry in catalogue) == sorted(claims.REGISTRY)
    used = {name for page in (ROOT / "docs").glob("*.md")
            for name in CLAIM.findall(page.read_text(encoding="utf-8"))}
    for entry in catalogue:
        assert entry["description"] and entry["held"] and entry["evidence"], entry["name"]
        assert re.fullmatch(r"sitebuild/claims/\w+\.py:\d+", entry["defined_at"])
        assert entry["read"], f"{entry['name']} read no result"
        if entry["name"] in used:
            assert all(re.fullmatch(r"docs/[\w.-]+\.md:\d+", u) for u in entry["used_at"])
            assert entry["used_at"], entry["name"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_note_draws_a_subscript_as_the_formulas_do(site, language):
    """"W_Q" in a quantity's words shows as W with a subscript Q, never an underscore."""
    html = BeautifulSoup(page_file(site, language, "attention/").read_text(encoding="utf-8"),
                         "html.parser")
    notes = html.select("details.evidence-notes ol > li")
    assert not [n.get_text() for n in notes if "_" in n.get_text()]
    assert any(sub.get_text() == "Q" and sub.find_previous_sibling("i").get_text() == "W"
               for note in notes for sub in note.select("sub"))
