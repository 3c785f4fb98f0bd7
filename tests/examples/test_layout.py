"""examples.json: the layout the pages and widgets read, and nothing they do not."""

from __future__ import annotations

import json

import pytest

from examples.bank import SENTENCES
from examples.scaling import D_K

TOP = {"format", "format_version", "versions", "two_positions", "exercise", "value_swap",
       "basis_change", "causal_mask", "bank", "scaling", "heads"}


@pytest.fixture(scope="module")
def data(examples_dir):
    return json.loads((examples_dir / "examples.json").read_text(encoding="utf-8"))


def test_the_file_names_its_format_and_versions(data):
    assert set(data) == TOP
    assert (data["format"], data["format_version"]) == ("attention-examples", 2)
    assert set(data["versions"]) == {"torch"}


def test_the_worked_example_follows_position_2(data):
    example = data["two_positions"]
    assert {"x_1", "x_2", "q_2", "k_1", "k_2", "v_1", "v_2", "h_2", "weights", "scores",
            "exponentials", "exponential_sum", "W_Q", "W_K", "W_V", "temperature", "d_k",
            "ln3", "matrix"} == set(example)
    assert set(example["matrix"]) == {"weights", "H", "causal_weights"}
    assert [len(row) for row in example["matrix"]["weights"]] == [2, 2]
    assert example["matrix"]["weights"][1] == example["weights"]
    assert example["matrix"]["H"][1] == example["h_2"]


def test_the_value_swap_records_both_runs_of_the_head(data):
    swap = data["value_swap"]
    assert set(swap) == {"X", "query_position", "weights", "values", "contributions", "output",
                         "W_V", "swapped_W_V", "swapped_weights", "swapped_output"}
    assert len(swap["weights"]) == len(swap["values"]) == len(swap["contributions"])


def test_every_language_has_two_bank_sentences_with_square_causal_matrices(data):
    sentences = data["bank"]["sentences"]
    assert set(sentences) == set(SENTENCES) == {"en", "uk", "sv"}
    for pair in sentences.values():
        assert len(pair) == 2
        for sentence in pair:
            n = len(sentence["tokens"])
            assert len(sentence["roles"]) == n and len(sentence["weights"]) == n
            assert all(len(row) == n for row in sentence["weights"])
            assert sentence["tokens"][sentence["ambiguous"]] == \
                sentence["tokens"][sentence["ambiguous"]].strip()
            assert len(sentence["h"]) == 2 and len(sentence["updated"]) == 4


def test_the_causal_mask_table_has_one_row_per_word_of_each_second_sentence(data):
    rows = len(data["causal_mask"]["weights"])
    assert {len(pair[1]["tokens"]) for pair in data["bank"]["sentences"].values()} == {rows}


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
