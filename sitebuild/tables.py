"""Table bodies rendered from the run: ``{{ rows NAME }}`` below a header row.

The header row stays in the page, in the page's language; these functions give
the body rows, one list of cells per row, as numbers formatted for that language.
"""

from __future__ import annotations

from collections.abc import Callable

from sitebuild.numbers import format_value


def _separator(language: str) -> str:
    """A comma between numbers, or a semicolon where the comma is the decimal sign."""
    return "; " if format_value(0.5, "plain", language) == "0,5" else ", "


def format_list(values, style: str, language: str) -> str:
    """'0, 1, 2': numbers in running text."""
    texts = [format_value(v, style, language) for v in values]
    decimals = any(format_value(0.5, "plain", language)[1] in t for t in texts)
    return (_separator(language) if decimals else ", ").join(texts)


def format_vector(values, style: str, language: str) -> str:
    """'[0.75, 0.25]', or '[0,75; 0,25]' where the decimal sign is a comma."""
    return "[" + _separator(language).join(format_value(v, style, language) for v in values) + "]"


def format_matrix(rows, style: str, language: str) -> str:
    return "[" + _separator(language).join(format_vector(r, style, language) for r in rows) + "]"


def heldout(values, language: str) -> list[list[str]]:
    """Per seed: seed, held-out MSE, uniform-attention MSE, 1 − smallest R²."""
    return [
        [
            format_value(seed["seed"], "int", language),
            format_value(seed["heldout_mse"], "sci2", language),
            format_value(seed["uniform_attention_mse"], "fix3", language),
            format_value(1.0 - seed["min_r2"], "sci1", language),
        ]
        for seed in values["run"]["seeds"]
    ]


def interventions(values, language: str) -> list[list[str]]:
    """Per seed: seed, erase-query MSEs, erase-payload MSEs, shift change."""
    rows = []
    for seed in values["run"]["seeds"]:
        measured = seed["interventions"]
        rows.append([
            format_value(seed["seed"], "int", language),
            format_vector(measured["erase_query"], "fix3", language),
            format_vector(measured["erase_payload"], "fix3", language),
            format_value(measured["shift_irrelevant"], "sci1", language),
        ])
    return rows


def value_contributions(values, language: str) -> list[list[str]]:
    """Per record: number, attention weight, value vector, weighted contribution."""
    swap = values["toy"]["value_swap"]
    return [
        [
            format_value(index + 1, "int", language),
            format_value(weight, "sig3", language),
            format_vector(value, "sig3", language),
            format_vector(contribution, "sig3", language),
        ]
        for index, (weight, value, contribution) in enumerate(
            zip(swap["weights"], swap["values"], swap["contributions"], strict=True)
        )
    ]


TABLES: dict[str, Callable[[dict, str], list[list[str]]]] = {
    "heldout": heldout,
    "interventions": interventions,
    "value_contributions": value_contributions,
}


def render_rows(name: str, values, language: str) -> str:
    if name not in TABLES:
        raise KeyError(f"unknown table {name!r}; known: {', '.join(sorted(TABLES))}")
    return "\n".join("| " + " | ".join(cells) + " |" for cells in TABLES[name](values, language))
