"""The examples compute what the article says they compute, checked against
independent formulations (torch's softmax, a loop over heads, the pages' words)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
import torch

import locales
from examples import bank, heads, two_positions
from tests.project import DEFAULT, LANGUAGES, ROOT, TRANSLATIONS


def test_the_head_is_softmax_of_scaled_scores_times_v():
    X = torch.tensor([[0.3, -1.2], [1.5, 0.4]], dtype=torch.float64)
    W_Q, W_K, W_V = (torch.tensor(w, dtype=torch.float64)
                     for w in ([[1.0], [0.5]], [[-0.3], [2.0]], [[1.0, 2.0], [3.0, -1.0]]))
    stages = two_positions.head(X, W_Q, W_K, W_V, temperature=0.7)
    expected = torch.softmax((X @ W_Q) @ (X @ W_K).T / 0.7, dim=-1) @ (X @ W_V)
    torch.testing.assert_close(stages["H"], expected, rtol=0, atol=1e-15)
    torch.testing.assert_close(stages["weights"].sum(-1), torch.ones(2, dtype=torch.float64))


def test_the_causal_mask_zeroes_the_future_and_keeps_each_row_a_distribution():
    stages = two_positions.worked_example(causal=True)
    assert stages["masked"][0, 1] == -math.inf
    assert stages["weights"][0].tolist() == [1.0, 0.0]
    assert stages["weights"][1].tolist() == two_positions.worked_example()["weights"][1].tolist()


def test_the_exercise_uses_the_worked_examples_value_vectors():
    V = two_positions.worked_example()["V"]
    exercise = two_positions.exercise()
    assert [exercise["v_1"], exercise["v_2"]] == V.tolist()


def test_the_bank_head_is_softmax_of_scaled_masked_scores_times_v():
    X = bank.embed(bank.sentences()[DEFAULT][1])
    stages = bank.head_1(X, temperature=0.6)
    scores = (X @ bank.tensor(bank.W_Q)) @ (X @ bank.tensor(bank.W_K)).T / (2 ** 0.5 * 0.6)
    future = torch.ones(len(X), len(X)).triu(1).bool()
    expected = torch.softmax(scores.masked_fill(future, -math.inf), dim=-1)
    torch.testing.assert_close(stages["weights"], expected, rtol=0, atol=1e-15)
    torch.testing.assert_close(stages["H"], expected @ (X @ bank.tensor(bank.W_V)),
                               rtol=0, atol=1e-15)


def test_the_value_swap_recomputes_the_weights_through_the_same_head(monkeypatch):
    given = []
    real = bank.head

    def recording(X, W_Q, W_K, W_V, *args):
        given.append(W_V.clone())
        return real(X, W_Q, W_K, W_V, *args)

    monkeypatch.setattr(bank, "head", recording)
    bank.sentence(bank.sentences()[DEFAULT][0])
    swapped = [W for W in given if torch.equal(W, bank.tensor(bank.W_V)[:, bank.SWAP])]
    assert swapped and any(torch.equal(W, bank.tensor(bank.W_V)) for W in given)


def test_dragging_the_look_plane_moves_only_keys_and_queries():
    words = bank.sentences()[TRANSLATIONS[0]][1]
    plane = [[0.3 * i, -0.2 * i] for i in range(len(words))]
    moved = bank.calculator(words, plane)
    torch.testing.assert_close(moved["K"], bank.tensor(plane), rtol=0, atol=0)
    torch.testing.assert_close(moved["V"], bank.embed(words) @ bank.tensor(bank.W_V),
                               rtol=0, atol=0)


def test_a_layer_is_the_residual_plus_the_concatenated_heads_through_w_o():
    w = heads.weights()
    X = bank.embed(bank.sentences()[TRANSLATIONS[-1]][1])
    by_head = sum(bank.head(X, w["W_Q"][i], w["W_K"][i], w["W_V"][i])["H"]
                  @ w["W_O"][i * heads.D_V:(i + 1) * heads.D_V]
                  for i in range(len(w["W_Q"])))
    torch.testing.assert_close(heads.layer(X, w["W_Q"], w["W_K"], w["W_V"], w["W_O"]),
                               X + by_head, rtol=0, atol=1e-14)


def attention_page(language: str) -> Path:
    return ROOT / "docs" / ("attention.md" if language == DEFAULT else f"attention.{language}.md")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_page_quotes_its_own_bank_sentences_and_their_clues(language):
    """In the record's quotes, which its figures use too."""
    text = attention_page(language).read_text(encoding="utf-8")
    prose = re.sub(r"\s+", " ", text)
    for words in bank.sentences()[language]:
        tokens = [token for token, _ in words]
        assert " ".join(tokens) in prose, f"{language}: the sentence {tokens} is not on the page"
        clue = next(token for token, role in words if role.startswith("clue"))
        quoted = locales.record(language).quote.format(clue)
        assert quoted in prose, f"{language}: {clue} is not named"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_bank_sentence_has_one_ambiguous_word_last_and_one_clue(language):
    for words in bank.sentences()[language]:
        roles = [role for _, role in words]
        assert roles[-1] == "ambiguous" and roles.count("ambiguous") == 1
        assert sum(role.startswith("clue") for role in roles) == 1
