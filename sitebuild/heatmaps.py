"""Attention matrices as HTML heat maps, and token tiles, from examples.json:
``{{ heatmap NAME }}`` and ``{{ tiles NAME }}``.

A heat map is a table: one row per query, one column per key, each cell the
attention weight, printed as a marked-up value (sitebuild.values.render) and
shaded by the class ``heat-0`` … ``heat-10`` (widgets.css gives each level a
background and a text colour with enough contrast, in both colour schemes).
Rows and columns are headed by the page language's tokens, so the words on a
page are its own sentence while the numbers come from one computation.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable

from sitebuild.suggest import closest
from sitebuild.values import lookup, render

LEVELS = 10  # heat-0 … heat-10


def level(weight: float) -> int:
    """The shade of WEIGHT, halves rounded up (as the calculator's Math.round)."""
    return min(LEVELS, max(0, math.floor(weight * LEVELS + 0.5)))


def _cell(values, path: str, language: str, masked: bool = False) -> str:
    text = render("num", values, path, "fix2", language)  # first: it rejects a non-number
    classes = f"heat heat-{level(lookup(values, path))}" + (" is-masked" if masked else "")
    return f'<td class="{classes}">{text}</td>'


def _table(values, path: str, rows: list[int], labels: list[str], language: str,
           followed: int | None = None, kind: str = "", causal: bool = False) -> str:
    """The rows ROWS (from 0) of the matrix at PATH, with LABELS for queries and keys;
    CAUSAL marks the cells right of the diagonal as masked."""
    header = "".join(f'<th scope="col">{html.escape(label)}</th>' for label in labels)
    body = []
    for i in rows:
        cells = "".join(_cell(values, f"{path}.{i}.{j}", language, causal and j > i)
                        for j in range(len(labels)))
        marked = ' class="is-followed"' if i == followed else ""
        body.append(f'<tr{marked}><th scope="row">{html.escape(labels[i])}</th>{cells}</tr>')
    classes = "heatmap" + (f" heatmap--{kind}" if kind else "")
    return (f'<table class="{classes}"><thead><tr><td></td>{header}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def _bank(number: int, language: str, values) -> tuple[str, dict]:
    path = f"examples.bank.sentences.{language}.{number - 1}"
    return path, lookup(values, path)


def bank(number: int, row_only: bool = False) -> Callable[[dict, str], str]:
    """Sentence NUMBER (1 or 2) of the page's language: the whole causal attention
    matrix, or only the ambiguous word's row."""

    def render_bank(values, language: str) -> str:
        path, sentence = _bank(number, language, values)
        ambiguous = sentence["ambiguous"]
        rows = [ambiguous] if row_only else list(range(len(sentence["tokens"])))
        return _table(values, f"{path}.weights", rows, sentence["tokens"], language,
                      followed=ambiguous, kind="row" if row_only else "", causal=True)

    return render_bank


HEATMAPS: dict[str, Callable[[dict, str], str]] = {
    "bank_1": bank(1),
    "bank_2": bank(2),
    "bank_1_row": bank(1, row_only=True),
    "bank_2_row": bank(2, row_only=True),
}


def tiles(name: str, values, language: str) -> str:
    """``<li>`` token tiles of a bank sentence in the page's language: bank_1, bank_2."""
    if name not in ("bank_1", "bank_2"):
        raise KeyError(f"unknown tiles {name!r}; known: bank_1, bank_2")
    _, sentence = _bank(int(name[-1]), language, values)
    return "".join(f"<li>{html.escape(token)}</li>" for token in sentence["tokens"])


def render_heatmap(name: str, values, language: str) -> str:
    if name not in HEATMAPS:
        hint = closest(name, HEATMAPS)
        raise KeyError(f"unknown heat map {name!r}" + (f"; did you mean {hint}?" if hint else "")
                       + f" known: {', '.join(sorted(HEATMAPS))}")
    return HEATMAPS[name](values, language)
