"""The three language versions of a page have the same structure, so no translation
can silently fall behind: same sections in the same order, and in each section the
same computed values, claims, tables, listings, figures, formulas and admonitions."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.project import ROOT, site_words

DOCS = ROOT / "docs"
TRANSLATIONS = ("uk", "sv")
SECTION = re.compile(r"^## .*?\{#(?P<id>[\w-]+)\}\s*$", re.MULTILINE)
FEATURES = {
    "shortcodes": re.compile(r"\{\{\s*[a-z]+\s+[^{}]*?\}\}"),
    "tables": re.compile(r"^\|[\s:|-]*-{3,}[\s:|-]*\|?\s*$", re.MULTILINE),
    "listings": re.compile(r'^\s*-{2}8<-{2} "[^"]+"', re.MULTILINE),
    "figures": re.compile(r"<figure\b"),
    "images": re.compile(r"!\[[^\]]*\]\((?P<key>[^)]+)\)"),  # the file, not the alt text
    "display math": re.compile(r"^\s*\$\$", re.MULTILINE),
    "admonitions": re.compile(r"^\s*(?:!!!|\?\?\?\+?) ", re.MULTILINE),
    "code blocks": re.compile(r"^\s*```", re.MULTILINE),
    "widgets": re.compile(r'<div class="(?P<name>[\w-]+)"'),
}


def english_pages() -> list[Path]:
    return sorted(p for p in DOCS.glob("*.md") if p.suffixes == [".md"])


def sections(text: str) -> list[tuple[str, str]]:
    """(id, text) per H2 section; the part before the first H2 is section ''."""
    parts, start, current = [], 0, ""
    for match in SECTION.finditer(text):
        parts.append((current, text[start:match.start()]))
        current, start = match["id"], match.end()
    parts.append((current, text[start:]))
    return parts


def fingerprint(section_text: str) -> dict[str, Counter]:
    return {name: Counter(m.groupdict().get("key") or m.group(0)
                          for m in pattern.finditer(section_text))
            for name, pattern in FEATURES.items()}


@pytest.mark.parametrize("page", english_pages(), ids=lambda p: p.stem)
def test_every_h2_has_an_explicit_id(page):
    for language_page in [page] + [page.with_suffix(f".{t}.md") for t in TRANSLATIONS]:
        text = language_page.read_text(encoding="utf-8")
        if "kernelspec" in text:  # a notebook: nbconvert has no attribute lists
            continue
        bare = [line for line in text.splitlines()
                if line.startswith("## ") and not SECTION.match(line)]
        assert not bare, f"{language_page.name}: {bare}"


@pytest.mark.parametrize("translation", TRANSLATIONS)
@pytest.mark.parametrize("page", english_pages(), ids=lambda p: p.stem)
def test_translation_has_the_same_structure(page, translation):
    translated = page.with_suffix(f".{translation}.md")
    assert translated.exists(), f"{translated.name} is missing"
    english = sections(page.read_text(encoding="utf-8"))
    other = sections(translated.read_text(encoding="utf-8"))
    assert [i for i, _ in other] == [i for i, _ in english], "sections differ"
    for (section_id, english_text), (_, other_text) in zip(english, other, strict=True):
        expected, found = fingerprint(english_text), fingerprint(other_text)
        for feature in FEATURES:
            assert found[feature] == expected[feature], (
                f"{translated.name}, section '{section_id or 'top'}': {feature} differ:\n"
                f"  missing: {dict(expected[feature] - found[feature])}\n"
                f"  extra:   {dict(found[feature] - expected[feature])}")


WIDGET_WORDS = re.compile(
    r'<script type="application/json" class="widget-words">(?P<json>.*?)</script>', re.DOTALL)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def widget_words(text: str) -> list[dict[str, set[str]]]:
    """Per widget on the page: each word's key and the {placeholders} it fills."""
    return [{key: set(PLACEHOLDER.findall(words)) for key, words in json.loads(m["json"]).items()}
            for m in WIDGET_WORDS.finditer(text)]


@pytest.mark.parametrize("translation", TRANSLATIONS)
@pytest.mark.parametrize("page", english_pages(), ids=lambda p: p.stem)
def test_widgets_have_the_same_words_in_every_language(page, translation):
    english = widget_words(page.read_text(encoding="utf-8"))
    other = widget_words(page.with_suffix(f".{translation}.md").read_text(encoding="utf-8"))
    assert other == english, f"{translation}: widget words or their placeholders differ"


def _shape(words) -> dict | set[str]:
    """Each word's key and the {placeholders} it fills, group by group."""
    if isinstance(words, dict):
        return {key: _shape(value) for key, value in words.items()}
    return set(PLACEHOLDER.findall(words))


@pytest.mark.parametrize("translation", TRANSLATIONS)
def test_the_site_scripts_have_the_same_words_in_every_language(translation):
    words = site_words()
    assert words["en"], "mkdocs.yml has no extra.site_words"
    assert words[translation], f"mkdocs.yml: the {translation} entry has no extra.site_words"
    assert _shape(words[translation]) == _shape(words["en"]), (
        f"{translation}: site words or their placeholders differ from English")


def test_no_page_exists_in_one_language_only():
    names = {p.name.split(".")[0] for p in DOCS.glob("*.md")}
    for name in names:
        for suffix in ("", *(f".{t}" for t in TRANSLATIONS)):
            assert (DOCS / f"{name}{suffix}.md").exists(), f"{name}{suffix}.md is missing"


PROSE_ONLY = [  # what is not prose: code, math, computed values, ids, link targets, tags
    re.compile(r"```.*?```", re.DOTALL),
    re.compile(r"\$\$.*?\$\$", re.DOTALL),
    re.compile(r"\$[^$\n]+\$"),
    re.compile(r"\{\{.*?\}\}"),
    re.compile(r"\{#[\w-]+\}"),
    re.compile(r"\]\([^)]*\)"),
    re.compile(r"`[^`\n]*`"),
    re.compile(r"<[^>\n]+>"),
    re.compile(r"^---\n.*?\n---\n", re.DOTALL),
]
# A typed result looks like a decimal (0.75, 1,3) or a number of two or more digits.
TYPED_NUMBER = re.compile(r"(?<![\w.,])(?:\d+[.,]\d+|\d{2,})(?![\w])")


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_no_number_is_typed_into_the_prose(page):
    text = page.read_text(encoding="utf-8")
    for pattern in PROSE_ONLY:
        text = pattern.sub(" ", text)
    typed = TYPED_NUMBER.findall(text)
    assert not typed, f"{page.name} types {typed}: use a shortcode ({{{{ num ... }}}})"
