"""Change an example's parameters so that a sentence of the article becomes false,
and the claim bound to that sentence fails, naming itself. (In a real build of a
copied project the build then stops and publishes nothing: tests/site/test_failures.py.)"""

from __future__ import annotations

import math

import pytest
import torch

import examples.__main__ as cli
from examples import bank, causal_mask, heads, scaling, two_positions, value_swap
from sitebuild import claims, heatmaps


def attend_with_keys_from_w_v(x, X, W_Q, W_K, W_V):
    """A planted bug: the keys read W_V, so swapping W_V's columns moves the weights."""
    q = x @ W_Q
    K = X @ (W_K + W_V[:, :1])
    weights = torch.softmax(q @ K.T, dim=-1)
    V = X @ W_V
    return weights, V, weights @ V


EN_SENTENCE_2_CLUE_LAST = (bank.SENTENCES["en"][0], (
    ("I", "plain"), ("put", "plain"), ("the", "plain"), ("bank", "ambiguous"),
    ("money", "clue_2")))

PLANTED = [  # module, {attribute: planted value}, the claim that must fail
    (two_positions, {"W_K": ((0.0,), (1.0,))}, "worked_key_is_ln3"),
    (two_positions, {"W_K": ((0.0,), (math.log(2.5),))}, "worked_exponentials_are_whole"),
    (two_positions, {"X": ((1.0, 0.0), (1.0, 0.0))}, "worked_output_leans_towards_position_1"),
    (two_positions, {"W_Q": ((1.0, 0.0), (0.0, 0.0)), "W_K": ((0.0, 0.0), (math.log(3), 0.0))},
     "worked_example_scale_is_one"),
    (two_positions, {"EXERCISE_SCORES": (1.0, 0.0)}, "equal_scores_mix_evenly"),
    (value_swap, {"SWAP": [0, 2, 1]}, "value_swap_swaps_first_two_coordinates"),
    (value_swap, {"X": torch.eye(4, dtype=torch.float64)[[1, 0, 2, 3]]},
     "value_swap_representations_are_one_hot"),
    (value_swap, {"attend": attend_with_keys_from_w_v}, "value_swap_keeps_weights"),
    (bank, {"W_Q": ((0.0,), (0.0,), (0.0,), (0.0,))}, "bank_clue_gets_largest_weight"),
    (bank, {"W_V": ((0.5, 0.5), (0.0, 0.0), (0.5, 0.5), (0.5, 0.5))}, "bank_outputs_differ"),
    (bank, {"W_Q": ((3.0,), (1.0,), (0.0,), (0.0,))}, "bank_other_words_spread_evenly"),
    (bank, {"W_O": ((0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 0.0))}, "bank_update_adds_the_sense"),
    (bank, {"SENTENCES": {**bank.SENTENCES, "en": EN_SENTENCE_2_CLUE_LAST}},
     "clues_precede_the_ambiguous_word"),
    (scaling, {"D_K": (1, 2, 4)}, "unscaled_softmax_saturates"),
    (heads, {"N": ((1.0, 0.0), (0.0, 1.0))}, "value_side_change_keeps_output"),
    (heads, {"M": ((1.0, 0.0), (0.0, 1.0))}, "only_products_are_pinned"),
    (heads, {"SWAP": ((1.0, 0.0), (0.0, 1.0))}, "w_o_undoes_the_swap"),
]


def values_with(monkeypatch, module, planted: dict) -> dict:
    for attribute, value in planted.items():
        monkeypatch.setattr(module, attribute, value)
    return {"examples": cli.compute_all(), "experiment": {}}


def case_id(module, planted, name) -> str:
    return f"{module.__name__.split('.')[-1]}.{'+'.join(planted)}->{name}"


@pytest.mark.parametrize(("module", "planted", "name"), PLANTED,
                         ids=[case_id(*case) for case in PLANTED])
def test_a_planted_parameter_fails_the_claim_of_its_sentence(monkeypatch, module, planted, name):
    with pytest.raises(claims.ClaimRefuted, match=rf"^{name}: "):
        claims.check(name, values_with(monkeypatch, module, planted))


def test_every_attention_claim_but_the_pure_arithmetic_ones_has_a_planted_error():
    planted = {name for *_, name in PLANTED}
    # These hold by arithmetic whatever the parameters (a mask of -inf, a softmax that
    # sums to one, the M of the listing, the law of large numbers): their refutations
    # in tests/sitebuild/test_claims.py edit the values instead.
    by_arithmetic = {"causal_mask_changes_only_row_1", "causal_mask_zeroes_future",
                     "causal_mask_keeps_past", "causal_weights_even_over_visible",
                     "causal_rows_sum_to_one",
                     "basis_change_is_invertible", "basis_change_keeps_scores",
                     "score_spread_grows_like_sqrt_dk", "scaled_softmax_stays_spread"}
    attention = {n for n, c in claims.REGISTRY.items() if c.article == "attention"}
    assert attention - by_arithmetic == planted


def test_a_causal_mask_that_no_longer_fits_the_sentence_stops_its_table(monkeypatch):
    values = values_with(monkeypatch, causal_mask, {"POSITIONS": 5})
    with pytest.raises(heatmaps.HeatmapError, match="5 positions"):
        heatmaps.render_heatmap("causal_mask", values, "sv")

