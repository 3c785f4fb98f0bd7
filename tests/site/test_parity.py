"""Every language version of a page has the same structure, so no translation
can silently fall behind: same sections in the same order, and in each section the
same computed values, claims, tables, listings, figures, formulas and admonitions; the
same ids (### and HTML ones too); and the same inline diagrams, labelled in the page's
language."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import locales
from sitebuild import parity
from tests.project import DEFAULT, LANGUAGES, ROOT, TRANSLATIONS, site_words

DOCS = ROOT / "docs"
SECTION = parity.SECTION


def english_pages() -> list[Path]:
    return sorted(p for p in DOCS.glob("*.md") if p.suffixes == [".md"])


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
    """Each section has English's features (the build's own check, sitebuild.parity);
    its figures are English's by name (the build picks each page's twins)."""
    translated = page.with_suffix(f".{translation}.md")
    assert translated.exists(), f"{translated.name} is missing"
    drift = parity.drift(page.read_text(encoding="utf-8"), translated.read_text(encoding="utf-8"),
                         f"docs/{page.name}", f"docs/{translated.name}", translation)
    assert not drift, "\n".join(map(str, drift))


ENGLISH = """Intro {{ num a.b fix2 }}.

## One {#one}

A claim. {{ claim x }}

## Two {#two}

![A figure](run/f.svg)
"""


def test_drift_names_the_missing_section_and_the_missing_item():
    other = ENGLISH.replace(" {{ claim x }}", "").replace("## Two {#two}", "## Zwei {#zwei}")
    found = "\n".join(map(str, parity.drift(ENGLISH, other, "docs/p.md", "docs/p.xx.md", "xx")))
    assert "[xx] lacks section {#two} of docs/p.md:7" in found
    assert "[xx] has section {#zwei}" in found
    assert "section {#one} lacks the shortcode {{ claim x }} of docs/p.md:5" in found


def test_a_figure_is_matched_by_name_not_by_its_alt_text():
    english = ENGLISH + '\n{{ figure loss_curves "The loss falls" }}\n'
    other = ENGLISH + '\n{{ figure loss_curves "Втрата спадає" }}\n'
    assert not parity.drift(english, other, "docs/p.md", "docs/p.xx.md", "xx")
    assert parity.drift(english, ENGLISH, "docs/p.md", "docs/p.xx.md", "xx")


def test_a_translation_may_show_a_figures_decimal_comma_twin():
    other = ENGLISH.replace("run/f.svg", "run/f-comma.svg")
    assert not parity.drift(ENGLISH, other, "docs/p.md", "docs/p.xx.md", "xx")


# An explicit id: `{#id}` (a heading's), `{: #id}` or `{ #id .class }` (an attribute
# list), or an HTML `id="..."` (a diagram's title, patterns and markers).
EXPLICIT_ID = re.compile(r'\{:?[ \t]*#(?P<id>[\w-]+)[^{}\n]*\}|\bid="(?P<html>[^"]+)"')


def explicit_ids(text: str) -> list[str]:
    return [m["id"] or m["html"] for m in EXPLICIT_ID.finditer(text)]


@pytest.mark.parametrize("translation", TRANSLATIONS)
@pytest.mark.parametrize("page", english_pages(), ids=lambda p: p.stem)
def test_every_id_that_others_link_to_exists_in_every_language(page, translation):
    """Section ids are fixed because others link to them: ### ids (#learned-keys) and
    ids outside headings included, in the same order."""
    english = explicit_ids(page.read_text(encoding="utf-8"))
    other = explicit_ids(page.with_suffix(f".{translation}.md").read_text(encoding="utf-8"))
    assert other == english, (
        f"{translation}: explicit ids differ from English:\n"
        f"  missing: {sorted(set(english) - set(other))}\n"
        f"  extra:   {sorted(set(other) - set(english))}")


SVG = "{http://www.w3.org/2000/svg}"
INLINE_SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)
# Labels in words, translated on every page; the names and shapes (X, n × d_k, q)
# are the notation, the same in every language.
WORD_LABELS = {"hd-word", "sd-heading", "sd-role"}
NOTATION_LABELS = {"hd-name", "hd-shape", "sd-letter"}


def diagrams(text: str) -> list[ET.Element]:
    """The page's inline SVG diagrams, parsed."""
    return [ET.fromstring(m.group(0).replace("<svg", f"<svg xmlns='{SVG[1:-1]}'", 1))
            for m in INLINE_SVG.finditer(text)]


def labels(svg: ET.Element) -> list[tuple[set[str], str]]:
    """Each <text> label's classes and its text, in drawing order."""
    return [(set(e.get("class", "").split()), "".join(e.itertext()).strip())
            for e in svg.iter(f"{SVG}text")]


def drawing(svg: ET.Element) -> list[tuple[str, list]]:
    """Everything but the words: each shape's tag and attributes."""
    return [(e.tag, sorted(e.attrib.items())) for e in svg.iter()
            if e.tag not in {f"{SVG}text", f"{SVG}tspan", f"{SVG}title"}]


def title(svg: ET.Element) -> str:
    found = svg.find(f"{SVG}title")
    return "" if found is None else "".join(found.itertext()).strip()


@pytest.mark.parametrize("translation", TRANSLATIONS)
@pytest.mark.parametrize("page", english_pages(), ids=lambda p: p.stem)
def test_diagrams_are_the_same_drawing_with_labels_in_the_pages_language(page, translation):
    english = diagrams(page.read_text(encoding="utf-8"))
    translated = page.with_suffix(f".{translation}.md")
    other = diagrams(translated.read_text(encoding="utf-8"))
    assert len(other) == len(english), f"{translated.name}: the number of diagrams differs"
    for number, (en_svg, svg) in enumerate(zip(english, other, strict=True), start=1):
        where = f"{translated.name}, diagram {number}"
        assert svg.get("role") == "img" and svg.get("aria-labelledby"), f"{where}: no role/label"
        assert title(svg), f"{where}: no <title>, so a screen reader hears nothing"
        assert svg.find(f"{SVG}title").get("id") == svg.get("aria-labelledby"), (
            f"{where}: aria-labelledby does not name the <title>")
        assert title(svg) != title(en_svg), f"{where}: the <title> is the English one"
        assert drawing(svg) == drawing(en_svg), f"{where}: the drawing differs from English"
        en_labels, found = labels(en_svg), labels(svg)
        assert len(found) == len(en_labels), (
            f"{where}: {len(found)} <text> labels, English has {len(en_labels)}")
        for (en_classes, en_text), (classes, text) in zip(en_labels, found, strict=True):
            assert classes == en_classes, f"{where}: label {text!r} is not {en_text!r}'s kind"
            assert text, f"{where}: an empty label where English has {en_text!r}"
            if classes & WORD_LABELS:
                assert text != en_text, f"{where}: label {text!r} is not translated"
            if classes & NOTATION_LABELS:
                assert text == en_text, f"{where}: notation {text!r} differs from {en_text!r}"


WIDGET_WORDS = re.compile(r'<div class="(?P<widget>[\w-]+)" data-words="(?P<words>\w+)"')
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_widget_names_words_that_its_languages_record_has(language):
    pages = english_pages() if language == DEFAULT else sorted(DOCS.glob(f"*.{language}.md"))
    named = [(page.name, m["words"]) for page in pages
             for m in WIDGET_WORDS.finditer(page.read_text(encoding="utf-8"))]
    assert named, "no widget names its words: has the page changed?"
    words = locales.record(language).words
    assert [(page, key) for page, key in named if key not in words] == []


def _shape(words) -> dict | set[str]:
    """Each word's key and the {placeholders} it fills, group by group."""
    if isinstance(words, dict):
        return {key: _shape(value) for key, value in words.items()}
    return set(PLACEHOLDER.findall(words))


@pytest.mark.parametrize("translation", TRANSLATIONS)
def test_the_site_scripts_have_the_same_words_in_every_language(translation):
    words = site_words()
    assert words[DEFAULT], f"locales/{DEFAULT}.toml has no [words]"
    assert _shape(words[translation]) == _shape(words[DEFAULT]), (
        f"locales/{translation}.toml: words or their placeholders differ from {DEFAULT}'s")


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
