"""Computed values in page Markdown: ``{{ KIND ARGUMENTS }}``.

    {{ num experiment.seeds.0.heldout_mse sci2 }}    one number (styles: sitebuild.numbers)
    {{ range experiment.summary.erase_query fix3 }}  "0.139–0.153" from {min, max} or a list
    {{ vec examples.two_positions.weights sig2 }}    "[0.75, 0.25]"
    {{ list experiment.snapshots.steps int }}        "0, 5, 10": an enumeration (t = …)
    {{ items experiment.config.seeds int }}          "0, 1 and 2" ("0, 1 і 2", "0, 1 och 2")
    {{ mat examples.two_positions.W_V sig3 }}        "[[2, 0], [0, 2]]"
    {{ rows heldout }}                               table body rows (sitebuild.tables)
    {{ heatmap bank_1 }}                             an attention matrix (sitebuild.heatmaps)
    {{ tiles bank_1 }}                               a sentence's token tiles, as <li> items
    {{ claim heldout_at_float_precision }}           a checked sentence (sitebuild.claims)
    {{ lang code }}                                  the page language: a-{{ lang code }}.svg
    {{ figure query_response "ALT" }}               a figure's twins (sitebuild.figures)

Paths start with a computation's package name (``experiment``, ``examples``) and
walk its JSON by key or list index; a segment ``LANG`` stands for the page's
language (``examples.bank.sentences.LANG.0.h``), so that every translation of a
page holds the same shortcode. Anything unknown raises ShortcodeError, which the build
reports with the page's name: a typo never prints as an empty cell.
"""

from __future__ import annotations

import re

from sitebuild import claims, figures, heatmaps, tables
from sitebuild.numbers import FormatError
from sitebuild.values import UnknownValue, render

SHORTCODE = re.compile(r"\{\{\s*(?P<kind>[a-z]+)\s+(?P<args>[^{}]*?)\s*\}\}")
STRAY_BRACES = re.compile(r"\{\{\s+[a-z]+\b")  # a shortcode that failed to parse


class ShortcodeError(ValueError):
    pass


def _render(kind: str, args: list[str], values: dict, language: str, claims_seen: list):
    def expect(count: int, usage: str):
        if len(args) != count:
            raise ShortcodeError(f"`{{{{ {kind} {' '.join(args)} }}}}`: usage {usage}")

    if kind in ("num", "range", "vec", "list", "items", "mat"):
        expect(2, f"{{{{ {kind} PATH STYLE }}}}")
        path = ".".join(language if part == "LANG" else part for part in args[0].split("."))
        return render(kind, values, path, args[1], language)
    if kind == "rows":
        expect(1, "{{ rows TABLE }}")
        try:
            return tables.render_rows(args[0], values, language)
        except (UnknownValue, KeyError, IndexError, TypeError) as error:
            # TypeError: the run's value has another shape than the table reads
            raise ShortcodeError(f"table {args[0]!r}: {error}") from error
    if kind in ("heatmap", "tiles"):
        expect(1, f"{{{{ {kind} NAME }}}}")
        draw = heatmaps.render_heatmap if kind == "heatmap" else heatmaps.tiles
        try:
            return draw(args[0], values, language)
        except (UnknownValue, KeyError, IndexError, TypeError, heatmaps.HeatmapError) as error:
            raise ShortcodeError(f"{kind} {args[0]!r}: {error}") from error
    if kind == "lang":
        expect(1, "{{ lang code }}")
        if args[0] != "code":
            raise ShortcodeError(f"`{{{{ lang {args[0]} }}}}`: usage {{{{ lang code }}}}")
        return language
    if kind == "figure":  # one line per figure: its twins (sitebuild.figures)
        try:
            return figures.render(" ".join(args), language, values)
        except figures.FigureError as error:
            raise ShortcodeError(str(error)) from error
    if kind == "claim":
        expect(1, "{{ claim NAME }}")
        try:
            claims.check(args[0], values)
        except claims.UnknownClaim as error:
            raise ShortcodeError(str(error)) from error
        except claims.ClaimRefuted as error:
            raise ShortcodeError(f"claim {args[0]!r} is not supported by this run: {error}") \
                from error
        except UnknownValue as error:
            raise ShortcodeError(f"claim {args[0]!r} reads a result this run does not have: "
                                 f"{error}") from error
        claims_seen.append(args[0])
        return f'<span class="claim" data-claim="{args[0]}" hidden></span>'
    raise ShortcodeError(f"unknown shortcode {kind!r} in `{{{{ {kind} {' '.join(args)} }}}}`")


LANGUAGE_CODE = re.compile(r"\{\{\s*lang\s+code\s*\}\}")


def expand_language(markdown: str, language: str) -> str:
    """MARKDOWN with only ``{{ lang code }}`` filled: what a page that failed keeps, so
    that its figures' paths still name files (a path with a shortcode in it would be a
    broken link, which a strict build reports and stops at)."""
    return LANGUAGE_CODE.sub(language, markdown)


def expand(markdown: str, values: dict, language: str) -> tuple[str, list[str]]:
    """MARKDOWN with every shortcode replaced, and the claims it checked."""
    claims_seen: list[str] = []

    def replace(match: re.Match) -> str:
        try:
            return _render(match["kind"], match["args"].split(), values, language, claims_seen)
        except (FormatError, UnknownValue) as error:
            raise ShortcodeError(f"`{match.group(0)}`: {error}") from error

    expanded = SHORTCODE.sub(replace, markdown)
    stray = STRAY_BRACES.search(expanded)
    if stray:
        line = expanded.count("\n", 0, stray.start()) + 1
        raise ShortcodeError(f"malformed shortcode near line {line}: "
                             f"{expanded.splitlines()[line - 1].strip()!r}")
    return expanded, claims_seen
