"""examples.json: the layout the pages and widgets read, and nothing they do not."""

from __future__ import annotations

import json

import pytest

from examples.bank import sentences as bank_sentences
from examples.scaling import D_K
from tests.project import LANGUAGES

TOP = {"format", "format_version", "versions", "two_positions", "exercise", "bank", "scaling",
       "heads"}


@pytest.fixture(scope="module")
def data(examples_dir):
    return json.loads((examples_dir / "examples.json").read_text(encoding="utf-8"))


def test_the_file_names_its_format_and_versions(data):
    assert set(data) == TOP
    assert (data["format"], data["format_version"]) == ("attention-examples", 3)
    assert set(data["versions"]) == {"torch"}


def test_the_worked_example_follows_position_2(data):
    example = data["two_positions"]
    assert {"x_1", "x_2", "q_2", "k_1", "k_2", "v_1", "v_2", "h_2", "weights", "scores",
            "exponentials", "exponential_sum", "W_Q", "W_K", "W_V", "temperature", "d_k",
            "ln3"} == set(example)
    assert len(example["weights"]) == 2 and len(example["h_2"]) == 2


def test_every_language_has_two_bank_sentences_with_square_causal_matrices(data):
    sentences = data["bank"]["sentences"]
    assert set(sentences) == set(bank_sentences()) == set(LANGUAGES)
    for pair in sentences.values():
        assert len(pair) == 2
        for sentence in pair:
            n = len(sentence["tokens"])
            assert len(sentence["roles"]) == n and len(sentence["weights"]) == n
            assert all(len(row) == n for row in sentence["weights"])
            assert sentence["tokens"][sentence["ambiguous"]] == \
                sentence["tokens"][sentence["ambiguous"]].strip()
            assert len(sentence["h"]) == 2 and len(sentence["updated"]) == 4
            assert len(sentence["K"]) == n and all(len(k) == 2 for k in sentence["K"])
            assert len(sentence["query"]) == 2 and len(sentence["scores"]) == n
            assert set(sentence["swapped"]) == {"weights", "clue_weight", "h", "sense_after"}


def test_both_heads_read_every_bank_sentence(data):
    for language, pair in data["heads"]["sentences"].items():
        for sentence, bank in zip(pair, data["bank"]["sentences"][language], strict=True):
            n = len(bank["tokens"])
            assert [len(row) for row in sentence["weights_2"]] == [n] * n
            assert len(sentence["updated"]) == 4


def test_scaling_lists_one_value_per_key_dimension(data):
    scaling = data["scaling"]
    assert scaling["d_k"] == list(D_K)
    for key in ("spread", "largest_unscaled", "largest_scaled"):
        assert len(scaling[key]) == len(D_K), key
    assert scaling["largest"] == {key: scaling[key][-1] for key in scaling["largest"]}


def test_heads_records_what_moved_and_what_did_not(data):
    heads = data["heads"]
    assert set(heads["weight_change"]) == {"W_Q", "W_K", "W_V", "W_O"}
    assert set(heads["product_change"]) == {"W_Q_W_K", "W_V_W_O"}
    assert heads["largest_product_change"] == max(heads["product_change"].values())
