"""Table bodies rendered from the run: ``{{ rows NAME }}`` below a header row.

The header row stays in the page, in the page's language; these functions give
the body rows, one list of cells per row, each cell a marked-up value
(sitebuild.values.render) formatted for that language.
"""

from __future__ import annotations

from collections.abc import Callable

from sitebuild.suggest import closest
from sitebuild.values import lookup, render


def _per_seed(values, language: str, model: str,
              columns: list[tuple[str, str, str]]) -> list[list[str]]:
    """One row per seed of MODEL ("experiment", or "experiment.variants.NAME"), one cell
    per (kind, key, style) of COLUMNS, read from that seed's results."""
    return [[render(kind, values, f"{model}.seeds.{i}.{key}", style, language)
             for kind, key, style in columns]
            for i in range(len(lookup(values, f"{model}.seeds")))]


def teacher_example(values, language: str) -> list[list[str]]:
    """The task's worked example, one row per record slot: the slot, its fixed key, the
    request's score against it, its attention weight, the record's payload features."""
    path = "experiment.teacher_example"
    return [
        [str(j + 1),  # the slot's number, as the page counts slots: not a result
         render("vec", values, f"experiment.fixed_keys.{j}", "int", language),
         render("num", values, f"{path}.scores.{j}", "fix2", language),
         render("num", values, f"{path}.weights.{j}", "fix2", language),
         render("vec", values, f"{path}.payloads.{j}", "fix2", language)]
        for j in range(len(lookup(values, f"{path}.weights")))
    ]


# Tables print what a reader compares: a value at the float's rounding reads "≈ 0"
# (zero2); its exact figure is in the evidence note of the claim that checks it.

def learned_keys(values, language: str) -> list[list[str]]:
    """Per seed of the learned-keys student: seed, determinant of the query block of
    R @ W_Q, score-map error."""
    return _per_seed(values, language, "experiment.variants.learned_keys", [
        ("num", "seed", "int"), ("num", "query_block_determinant", "fix2"),
        ("num", "score_map_error", "zero2")])


def three_keys(values, language: str) -> list[list[str]]:
    """Per seed of the three-keys student: seed, largest |R @ W_Q − intended|, change of
    prediction after the shift."""
    return _per_seed(values, language, "experiment.variants.three_keys", [
        ("num", "seed", "int"), ("num", "response_error.query", "fix2"),
        ("num", "interventions.shift_irrelevant", "zero2")])


def sgd_control(values, language: str) -> list[list[str]]:
    """Per seed: seed, and how far Adam and plain SGD moved the three-keys student along
    the invisible direction."""
    adam, sgd = "experiment.variants.three_keys", "experiment.variants.three_keys_sgd"
    return [
        [render("num", values, f"{adam}.seeds.{i}.seed", "int", language),
         render("num", values, f"{adam}.seeds.{i}.invisible_drift", "fix2", language),
         render("num", values, f"{sgd}.seeds.{i}.invisible_drift", "zero2", language)]
        for i in range(len(lookup(values, f"{adam}.seeds")))
    ]


def bank_row(values, language: str) -> list[list[str]]:
    """Sentence 2 of the page's language, one row per word as "bank"'s query sees it:
    the word, its key, its score, its attention weight, its value, a_j v_j; what the
    head computes to two decimals, as the calculator prints it, the model's vectors
    as the article does."""
    path = f"examples.bank.sentences.{language}.1"
    tokens = lookup(values, f"{path}.tokens")
    return [
        [
            tokens[j],  # the page's own word, not a result
            render("vec", values, f"{path}.K.{j}", "sig2", language),
            render("num", values, f"{path}.scores.{j}", "fix2", language),
            render("num", values, f"{path}.weights.{len(tokens) - 1}.{j}", "fix2", language),
            render("vec", values, f"{path}.V.{j}", "sig2", language),
            render("vec", values, f"{path}.contributions.{j}", "fix2", language),
        ]
        for j in range(len(tokens))
    ]


def _sense_words(values, language: str, role: str) -> str:
    """The words of ROLE in the page's two bank sentences, each once, in order."""
    words = [t for s in lookup(values, f"examples.bank.sentences.{language}")
             for t, r in zip(s["tokens"], s["roles"], strict=True) if r == role]
    return ", ".join(dict.fromkeys(words))  # the page's own words, not results


def bank_embeddings(values, language: str) -> list[list[str]]:
    """One row per kind of word in the bank model (plain, ambiguous, the two clues): the
    page's words of that kind, then its embedding, the look plane (u, w) and the sense
    plane (sense 1, sense 2) one coordinate per cell."""
    embeddings = lookup(values, "examples.bank.model.embeddings")
    return [
        [_sense_words(values, language, role),
         *(render("num", values, f"examples.bank.model.embeddings.{role}.{c}", "sig2",
                  language) for c in range(len(embeddings[role])))]
        for role in embeddings
    ]


def bank_queries(values, language: str) -> list[list[str]]:
    """Sentence 2 of the page's language, one row per word: the word, its key (the look
    coordinates, which W_K copies) and its query q_j = x_j W_Q."""
    path = f"examples.bank.sentences.{language}.1"
    return [
        [token,  # the page's own word, not a result
         render("vec", values, f"{path}.K.{j}", "sig2", language),
         render("vec", values, f"{path}.Q.{j}", "sig2", language)]
        for j, token in enumerate(lookup(values, f"{path}.tokens"))
    ]


TABLES: dict[str, Callable[[dict, str], list[list[str]]]] = {
    "teacher_example": teacher_example,
    "learned_keys": learned_keys,
    "three_keys": three_keys,
    "bank_row": bank_row,
    "bank_embeddings": bank_embeddings,
    "bank_queries": bank_queries,
    "sgd_control": sgd_control,
}


def render_rows(name: str, values, language: str) -> str:
    if name not in TABLES:
        hint = closest(name, TABLES)
        raise KeyError(f"unknown table {name!r}" + (f"; did you mean {hint}?" if hint else "")
                       + f" known: {', '.join(sorted(TABLES))}")
    return "\n".join("| " + " | ".join(cells) + " |" for cells in TABLES[name](values, language))
