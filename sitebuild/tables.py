"""Table bodies rendered from the run: ``{{ rows NAME }}`` below a header row.

The header row stays in the page, in the page's language; these functions give
the body rows, one list of cells per row, each cell a marked-up value
(sitebuild.values.render) formatted for that language.
"""

from __future__ import annotations

from collections.abc import Callable

from sitebuild.values import render


def _seed(i: int, key: str) -> str:
    return f"experiment.seeds.{i}.{key}"


def heldout(values, language: str) -> list[list[str]]:
    """Per seed: seed, held-out MSE, uniform-attention MSE, 1 − smallest R² (as SSE/SST),
    largest |response − intended| over both maps."""
    return [
        [
            render("num", values, _seed(i, "seed"), "int", language),
            render("num", values, _seed(i, "heldout_mse"), "sci2", language),
            render("num", values, _seed(i, "uniform_attention_mse"), "fix3", language),
            render("num", values, _seed(i, "max_unexplained"), "sci1", language),
            render("num", values, _seed(i, "max_response_error"), "sci1", language),
        ]
        for i in range(len(values["experiment"]["seeds"]))
    ]


def interventions(values, language: str) -> list[list[str]]:
    """Per seed: seed, erase-query MSEs, erase-payload MSEs, shift change."""
    return [
        [
            render("num", values, _seed(i, "seed"), "int", language),
            render("vec", values, _seed(i, "interventions.erase_query"), "fix3", language),
            render("vec", values, _seed(i, "interventions.erase_payload"), "fix3", language),
            # sci2: with one significant digit a printed value can be a third off (1.5 → 2).
            render("num", values, _seed(i, "interventions.shift_irrelevant"), "sci2",
                   language),
        ]
        for i in range(len(values["experiment"]["seeds"]))
    ]


def _variant_seed(variant: str, i: int, key: str) -> str:
    return f"experiment.variants.{variant}.seeds.{i}.{key}"


def learned_keys(values, language: str) -> list[list[str]]:
    """Per seed of the learned-keys student: seed, held-out MSE, determinant of the
    query block of R @ W_Q, largest |R @ W_V − intended|, score-map error."""
    def cell(i: int, key: str, style: str) -> str:
        return render("num", values, _variant_seed("learned_keys", i, key), style, language)

    return [
        [cell(i, "seed", "int"), cell(i, "heldout_mse", "sci1"),
         cell(i, "query_block_determinant", "fix2"), cell(i, "response_error.value", "sci1"),
         cell(i, "score_map_error", "sci1")]
        for i in range(len(values["experiment"]["variants"]["learned_keys"]["seeds"]))
    ]


def three_keys(values, language: str) -> list[list[str]]:
    """Per seed of the three-keys student: seed, held-out MSE, largest |R @ W_Q −
    intended|, largest departure outside the invisible direction, change of prediction
    after the shift."""
    def cell(i: int, key: str, style: str) -> str:
        return render("num", values, _variant_seed("three_keys", i, key), style, language)

    return [
        [cell(i, "seed", "int"), cell(i, "heldout_mse", "sci1"),
         cell(i, "response_error.query", "fix2"), cell(i, "visible_departure", "sci1"),
         cell(i, "interventions.shift_irrelevant", "sci1")]
        for i in range(len(values["experiment"]["variants"]["three_keys"]["seeds"]))
    ]


def value_contributions(values, language: str) -> list[list[str]]:
    """Per position: number, attention weight, value vector, weighted contribution."""
    return [
        [
            str(i + 1),  # the position's number, not a result
            render("num", values, f"examples.value_swap.weights.{i}", "sig3", language),
            render("vec", values, f"examples.value_swap.values.{i}", "sig3", language),
            render("vec", values, f"examples.value_swap.contributions.{i}", "sig3", language),
        ]
        for i in range(len(values["examples"]["value_swap"]["weights"]))
    ]


def causal_mask(values, language: str) -> list[list[str]]:
    """Per query position: its number, then its attention weight on every key position."""
    weights = values["examples"]["causal_mask"]["weights"]  # (query position, key position)
    return [
        [str(i + 1)]  # the position's number, not a result
        + [render("num", values, f"examples.causal_mask.weights.{i}.{j}", "sig2", language)
           for j in range(len(row))]
        for i, row in enumerate(weights)
    ]


TABLES: dict[str, Callable[[dict, str], list[list[str]]]] = {
    "heldout": heldout,
    "interventions": interventions,
    "learned_keys": learned_keys,
    "three_keys": three_keys,
    "value_contributions": value_contributions,
    "causal_mask": causal_mask,
}


def render_rows(name: str, values, language: str) -> str:
    if name not in TABLES:
        raise KeyError(f"unknown table {name!r}; known: {', '.join(sorted(TABLES))}")
    return "\n".join("| " + " | ".join(cells) + " |" for cells in TABLES[name](values, language))
