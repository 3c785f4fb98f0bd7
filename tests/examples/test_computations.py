"""The examples compute what the article says they compute, checked against
independent formulations (torch's softmax, a loop over heads, the pages' words)."""

from __future__ import annotations

import math
import re

import pytest
import torch

from examples import bank, heads, two_positions, value_swap
from tests.project import ROOT


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


def test_the_value_swap_recomputes_the_weights_through_the_same_head():
    calls = []
    real = value_swap.attend

    def counting(*args):
        calls.append(args[-1].clone())  # the W_V it was given
        return real(*args)

    value_swap.attend = counting
    try:
        value_swap.compute()
    finally:
        value_swap.attend = real
    assert len(calls) == 2 and not torch.equal(calls[0], calls[1])
    torch.testing.assert_close(calls[1], calls[0][:, value_swap.SWAP])


def test_a_layer_is_the_residual_plus_the_concatenated_heads_through_w_o():
    w = heads.weights(torch.Generator().manual_seed(heads.SEED))
    by_head = sum(two_positions.head(w["X"], w["W_Q"][i], w["W_K"][i], w["W_V"][i],
                                     causal=True)["H"]
                  @ w["W_O"][i * heads.D_HEAD:(i + 1) * heads.D_HEAD]
                  for i in range(heads.HEADS))
    torch.testing.assert_close(heads.layer(w["X"], w["W_Q"], w["W_K"], w["W_V"], w["W_O"]),
                               w["X"] + by_head, rtol=0, atol=1e-14)


PAGES = {"en": "attention.md", "uk": "attention.uk.md", "sv": "attention.sv.md"}
QUOTES = {"en": "“{}”", "uk": "«{}»", "sv": "”{}”"}


@pytest.mark.parametrize("language", PAGES)
def test_each_page_quotes_its_own_bank_sentences_and_their_clues(language):
    text = (ROOT / "docs" / PAGES[language]).read_text(encoding="utf-8")
    prose = re.sub(r"\s+", " ", text)
    for words in bank.SENTENCES[language]:
        tokens = [token for token, _ in words]
        assert " ".join(tokens) in prose, f"{language}: the sentence {tokens} is not on the page"
        clue = next(token for token, role in words if role.startswith("clue"))
        assert QUOTES[language].format(clue) in prose, f"{language}: {clue} is not named"


@pytest.mark.parametrize("language", PAGES)
def test_each_bank_sentence_has_one_ambiguous_word_last_and_one_clue(language):
    for words in bank.SENTENCES[language]:
        roles = [role for _, role in words]
        assert roles[-1] == "ambiguous" and roles.count("ambiguous") == 1
        assert sum(role.startswith("clue") for role in roles) == 1
