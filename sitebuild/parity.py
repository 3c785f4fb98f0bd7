"""Translation drift: every language's page holds what the English page holds.

Each translation of a page has the same sections (H2 ids) in the same order and, in
each section, the same shortcodes (computed values, claims, figures), images,
listings, tables, display math, admonitions, code blocks and widgets. What one
language lacks or adds is an error that names the page, the language, the item and
the line where it is (the English line for what is missing), so that an English-only
section or number cannot be published. The build reports these errors with the
pages' own (sitebuild.hooks); tests/site/test_parity.py runs the same check.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

SECTION = re.compile(r"^## .*?\{#(?P<id>[\w-]+)\}\s*$", re.MULTILINE)
FEATURES = {
    # A shortcode without a figure's alt text, which is in the page's language.
    "shortcode": re.compile(r'\{\{\s*(?P<key>[a-z]+\s+[^{}"]*?)\s*(?:"[^"{}]*"\s*)?\}\}'),
    "table": re.compile(r"^\|[\s:|-]*-{3,}[\s:|-]*\|?\s*$", re.MULTILINE),
    "listing": re.compile(r'^\s*-{2}8<-{2} "[^"]+"', re.MULTILINE),
    "figure": re.compile(r"<figure\b"),
    "image": re.compile(r"!\[[^\]]*\]\((?P<key>[^)]+)\)"),  # the file, not the alt text
    "display math": re.compile(r"^\s*\$\$", re.MULTILINE),
    "admonition": re.compile(r"^\s*(?:!!!|\?\?\?\+?) ", re.MULTILINE),
    "code block": re.compile(r"^\s*```", re.MULTILINE),
    "widget": re.compile(r'<div class="(?P<name>[\w-]+)"'),
}
# A translation may show an image's twin with decimal commas where English shows
# the image itself: the same figure, printed in the page's number format.
COMMA_TWIN = re.compile(r"-comma(?=(?:-dark)?\.svg)")


@dataclass(frozen=True)
class Drift:
    """One thing a translation lacks or adds, at PATH:LINE."""

    path: str  # docs/attention.<code>.md
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def translation_path(english: Path, language: str) -> Path:
    return english.with_suffix(f".{language}.md")


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _sections(text: str) -> list[tuple[str, int, int]]:
    """(id, start, end) per H2 section; the part before the first H2 is section ''."""
    parts, start, current = [], 0, ""
    for match in SECTION.finditer(text):
        parts.append((current, start, match.start()))
        current, start = match["id"], match.start()
    parts.append((current, start, len(text)))
    return parts


def _items(text: str, start: int, end: int) -> dict[tuple[str, str], list[int]]:
    """(feature, item) -> the lines where it stands, within TEXT[START:END]."""
    found: dict[tuple[str, str], list[int]] = {}
    for feature, pattern in FEATURES.items():
        for match in pattern.finditer(text, start, end):
            item = " ".join((match.groupdict().get("key") or match.group(0)).split())
            if feature == "shortcode":
                item = f"{{{{ {item} }}}}"
            if feature == "image":
                item = COMMA_TWIN.sub("", item)
            found.setdefault((feature, item), []).append(_line(text, match.start()))
    return found


def _counts(items: dict[tuple[str, str], list[int]]) -> Counter:
    return Counter({key: len(lines) for key, lines in items.items()})


def _times(count: int) -> str:
    return f" ({count}×)" if count > 1 else ""


def _named(section: str) -> str:
    return f"section {{#{section}}}" if section else "the part before the first section"


def drift(english_text: str, other_text: str, english_path: str, other_path: str,
          language: str) -> list[Drift]:
    """What the LANGUAGE page OTHER_TEXT lacks or adds against ENGLISH_TEXT."""
    errors: list[Drift] = []
    english, other = _sections(english_text), _sections(other_text)
    english_ids, other_ids = [s[0] for s in english], [s[0] for s in other]
    for section, start, _ in english:
        if section not in other_ids:
            errors.append(Drift(other_path, 1, f"[{language}] lacks {_named(section)} of "
                                               f"{english_path}:{_line(english_text, start)}"))
    for section, start, _ in other:
        if section not in english_ids:
            errors.append(Drift(other_path, _line(other_text, start),
                                f"[{language}] has {_named(section)}, which {english_path} "
                                "lacks"))
    shared = [s for s in english_ids if s in other_ids]
    if shared != [s for s in other_ids if s in english_ids]:
        errors.append(Drift(other_path, 1, f"[{language}] orders its sections "
                                           f"{[s for s in other_ids if s]}, {english_path} "
                                           f"{[s for s in english_ids if s]}"))
    spans = {section: (start, end) for section, start, end in other}
    for section, start, end in english:
        if section not in spans:
            continue
        expected = _items(english_text, start, end)
        found = _items(other_text, *spans[section])
        want, have = _counts(expected), _counts(found)
        section_line = _line(other_text, spans[section][0])
        for (feature, item), count in (want - have).items():
            errors.append(Drift(other_path, section_line,
                                f"[{language}] {_named(section)} lacks the {feature} "
                                f"{item}{_times(count)} of {english_path}:"
                                f"{expected[(feature, item)][-count]}"))
        for (feature, item), count in (have - want).items():
            errors.append(Drift(other_path, found[(feature, item)][-count],
                                f"[{language}] {_named(section)} has the {feature} "
                                f"{item}{_times(count)}, which {english_path} lacks there"))
    return errors


def check_docs(docs: Path, languages: list[str], root: Path | None = None) -> list[Drift]:
    """Drift of every page of DOCS in every language of LANGUAGES but the first
    (English, the page without a language suffix); paths relative to ROOT."""
    root = root or docs.parent

    def shown(path: Path) -> str:
        try:
            return str(path.relative_to(root))
        except ValueError:
            return str(path)

    errors: list[Drift] = []
    for english in sorted(p for p in docs.glob("*.md") if p.suffixes == [".md"]):
        english_text = english.read_text(encoding="utf-8")
        for language in languages[1:]:
            other = translation_path(english, language)
            if not other.exists():
                errors.append(Drift(shown(other), 1, f"[{language}] the page is missing "
                                                     f"(English: {shown(english)})"))
                continue
            errors.extend(drift(english_text, other.read_text(encoding="utf-8"),
                                shown(english), shown(other), language))
    return errors
