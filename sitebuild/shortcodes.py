"""Computed values in page Markdown: ``{{ KIND ARGUMENTS }}``.

    {{ num experiment.seeds.0.heldout_mse sci2 }}    one number (styles: sitebuild.numbers)
    {{ range experiment.summary.erase_query fix3 }}  "0.139–0.153" from {min, max} or a list
    {{ vec examples.two_positions.weights sig2 }}    "[0.75, 0.25]"
    {{ list experiment.snapshots.steps int }}        "0, 5, 10": an enumeration (t = …)
    {{ items experiment.config.seeds int }}          "0, 1 and 2" ("0, 1 і 2", "0, 1 och 2")
    {{ mat examples.two_positions.W_V sig3 }}        "[[2, 0], [0, 2]]"
    {{ rows three_keys }}                            table body rows (sitebuild.tables)
    {{ heatmap bank_1 }}                             an attention matrix (sitebuild.heatmaps)
    {{ tiles bank_1 }}                               a sentence's token tiles, as <li> items
    {{ claim heldout_at_float_precision }}           a checked sentence's evidence mark
    {{ lang code }}                                  the page language: a-{{ lang code }}.svg
    {{ figure query_response "ALT" }}               a figure's twins (sitebuild.figures)

Paths start with a computation's package name (``experiment``, ``examples``) and
walk its JSON by key or list index; a segment ``LANG`` stands for the page's
language (``examples.bank.sentences.LANG.0.h``), so that every translation of a
page holds the same shortcode. Anything unknown is an error that names the line and
offers the closest names: a typo never prints as an empty cell. Every shortcode of a
page is expanded, and all its errors are returned together, so that one round of
fixes suffices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sitebuild import claims, figures, heatmaps, tables
from sitebuild.evidence import EvidenceError, Marks
from sitebuild.numbers import FormatError
from sitebuild.suggest import closest
from sitebuild.values import UnknownValue, render

SHORTCODE = re.compile(r"\{\{\s*(?P<kind>[a-z]+)\s+(?P<args>[^{}]*?)\s*\}\}")
STRAY_BRACES = re.compile(r"\{\{\s+[a-z]+\b")  # what is left of a malformed shortcode
KINDS = ("num", "range", "vec", "list", "items", "mat", "rows", "heatmap", "tiles", "claim",
         "lang", "figure")


class ShortcodeError(ValueError):
    pass


@dataclass(frozen=True)
class PageError:
    """One fault in a page's Markdown, at LINE of its source file."""

    line: int
    message: str
    claim: str | None = None  # a refuted claim's name: the build reports it once


@dataclass
class Expansion:
    markdown: str
    errors: list[PageError] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)  # the claims the page marks


def _claim_mark(name: str, outcomes: dict, marks: Marks) -> str:
    if name not in claims.REGISTRY:
        raise ShortcodeError(claims.unknown_claim_message(name))
    found = outcomes.get(name) or claims.outcome(name, outcomes["__values__"])
    if not found.held:
        raise _Refuted(name, found.error)
    try:
        return marks.mark(name, found.evidence)
    except (EvidenceError, FormatError) as error:
        raise ShortcodeError(f"claim {name!r}: its evidence note: {error}") from error


class _Refuted(ShortcodeError):
    def __init__(self, name: str, why: str) -> None:
        super().__init__(f"claim {name!r} is not supported by this run: {why}")
        self.name = name


def _render(kind: str, args: list[str], values: dict, language: str, outcomes: dict,
            marks: Marks) -> str:
    def expect(count: int, usage: str):
        if len(args) != count:
            raise ShortcodeError(f"usage {usage}")

    if kind in ("num", "range", "vec", "list", "items", "mat"):
        expect(2, f"{{{{ {kind} PATH STYLE }}}}")
        path = ".".join(language if part == "LANG" else part for part in args[0].split("."))
        return render(kind, values, path, args[1], language)
    if kind == "rows":
        expect(1, "{{ rows TABLE }}")
        try:
            return tables.render_rows(args[0], values, language)
        except (KeyError, IndexError, TypeError) as error:
            # TypeError: the run's value has another shape than the table reads
            raise ShortcodeError(f"table {args[0]!r}: {_said(error)}") from error
    if kind in ("heatmap", "tiles"):
        expect(1, f"{{{{ {kind} NAME }}}}")
        draw = heatmaps.render_heatmap if kind == "heatmap" else heatmaps.tiles
        try:
            return draw(args[0], values, language)
        except (KeyError, IndexError, TypeError) as error:
            raise ShortcodeError(f"{kind} {args[0]!r}: {_said(error)}") from error
    if kind == "lang":
        expect(1, "{{ lang code }}")
        if args[0] != "code":
            raise ShortcodeError("usage {{ lang code }}")
        return language
    if kind == "figure":  # one line per figure: its twins (sitebuild.figures)
        try:
            return figures.render(" ".join(args), language, values)
        except figures.FigureError as error:
            raise ShortcodeError(str(error)) from error
    if kind == "claim":
        expect(1, "{{ claim NAME }}")
        return _claim_mark(args[0], outcomes, marks)
    hint = closest(kind, KINDS)
    raise ShortcodeError(f"unknown shortcode {kind!r}" + (f"; did you mean {hint}?" if hint
                                                          else f"; known: {', '.join(KINDS)}"))


def _said(error: Exception) -> str:
    """ERROR's message (a KeyError's str() quotes it)."""
    return str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)


LANGUAGE_CODE = re.compile(r"\{\{\s*lang\s+code\s*\}\}")


def expand_language(markdown: str, language: str) -> str:
    """MARKDOWN with only ``{{ lang code }}`` filled: what a page that failed keeps, so
    that its figures' paths still name files (a path with a shortcode in it would be a
    broken link, which a strict build reports and stops at)."""
    return LANGUAGE_CODE.sub(language, markdown)


def expand(markdown: str, values: dict, language: str, outcomes: dict | None = None,
           first_line: int = 1) -> Expansion:
    """MARKDOWN with every shortcode replaced, the evidence notes of its claims at its
    end, and every fault found on the way. FIRST_LINE is the source file's line of
    MARKDOWN's first line (after the page's front matter), for the errors' lines.
    OUTCOMES: the build's checked claims by name (sitebuild.claims.outcome); a claim
    missing from it is checked here."""
    outcomes = {**(outcomes or {}), "__values__": values}
    result = Expansion(markdown)
    marks = Marks(language)

    def line_of(offset: int) -> int:
        return first_line + markdown.count("\n", 0, offset)

    def replace(match: re.Match) -> str:
        try:
            return _render(match["kind"], match["args"].split(), values, language, outcomes,
                           marks)
        except _Refuted as refuted:
            result.errors.append(PageError(line_of(match.start()), str(refuted), refuted.name))
        except (ShortcodeError, FormatError, UnknownValue, EvidenceError) as error:
            result.errors.append(PageError(line_of(match.start()), f"`{match.group(0)}`: {error}"))
        return match.group(0)

    pieces, last = [], 0
    for match in SHORTCODE.finditer(markdown):
        pieces.append(_strays(markdown, last, match.start(), result, line_of))
        pieces.append(replace(match))
        if match["kind"] == "claim":
            result.claims.append(match["args"].strip())
        last = match.end()
    pieces.append(_strays(markdown, last, len(markdown), result, line_of))
    result.markdown = glue_marks("".join(pieces)) + marks.box()
    result.errors.sort(key=lambda e: e.line)
    return result


# The spaces and line break between a sentence and its evidence mark, within a paragraph.
BEFORE_MARK = re.compile(r'(?<=\S)[ \t]*\n?[ \t]*(?=<sup class="evidence")')


def glue_marks(markdown: str) -> str:
    """MARKDOWN with each evidence mark right after the word before it: a space there
    would let a line break put the mark alone at the start of the next line."""
    return BEFORE_MARK.sub("", markdown)


def _strays(markdown: str, start: int, end: int, result: Expansion, line_of) -> str:
    """MARKDOWN[START:END], where no shortcode parsed, after noting any braces left of
    a malformed one."""
    for stray in STRAY_BRACES.finditer(markdown, start, end):
        line = line_of(stray.start())
        text = markdown.splitlines()[line - line_of(0)].strip()
        result.errors.append(PageError(line, f"malformed shortcode: {text!r} (a shortcode is "
                                             "{{ KIND ARGUMENTS }}, on one line)"))
    return markdown[start:end]
