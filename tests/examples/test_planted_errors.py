"""Change an example's parameters so that a sentence of the article becomes false,
and the claim bound to that sentence fails, naming itself. (In a real build of a
copied project the build then stops and publishes nothing: tests/site/test_failures.py.)"""

from __future__ import annotations

import math

import pytest
import torch

import examples.__main__ as cli
from examples import bank, heads, scaling, two_positions
from sitebuild import claims


def head_1_with_keys_from_w_v(X, W_V_=None, temperature=1.0, causal=True):
    """A planted bug: the keys read W_V, so swapping W_V's columns moves the weights."""
    W_V = bank.tensor(bank.W_V) if W_V_ is None else W_V_
    return bank.head(X, bank.tensor(bank.W_Q), bank.tensor(bank.W_K) + W_V, W_V,
                     temperature, causal)


def head_1_without_mask(X, W_V_=None, temperature=1.0, causal=True):
    """A planted bug: the mask is forgotten, so a word sees the words after it."""
    W_V = bank.tensor(bank.W_V) if W_V_ is None else W_V_
    return bank.head(X, bank.tensor(bank.W_Q), bank.tensor(bank.W_K), W_V, temperature,
                     causal=False)


def reorder_heads_forgetting_w_o(w):
    """A planted bug: the heads are renumbered, W_O's row blocks are not."""
    return {**w, "W_Q": w["W_Q"][[1, 0]], "W_K": w["W_K"][[1, 0]], "W_V": w["W_V"][[1, 0]]}


def head_1_hot(X, W_V_=None, temperature=1.0, causal=True):
    """A planted bug: the scores are divided by twice √d_k, not by √d_k."""
    W_V = bank.tensor(bank.W_V) if W_V_ is None else W_V_
    return bank.head(X, bank.tensor(bank.W_Q), bank.tensor(bank.W_K), W_V, 2.0, causal)


def head_1_doubling_the_output(X, W_V_=None, temperature=1.0, causal=True):
    """A planted bug: the head output is twice the sum of its contributions."""
    stages = bank.head(X, bank.tensor(bank.W_Q), bank.tensor(bank.W_K),
                       bank.tensor(bank.W_V) if W_V_ is None else W_V_, temperature, causal)
    return {**stages, "H": 2 * stages["H"]}


def embed_with_positions(words, plane=None):
    """A planted change: each word's look plane carries where it stands."""
    X = bank.tensor([bank.EMBEDDINGS[role] for _, role in words])
    X[:, 0] += 0.1 * torch.arange(len(words), dtype=torch.float64)
    return X


def clue_last(pair):
    """PAIR with the clue of its second sentence moved to the end, after "bank"."""
    first, second = pair
    clue = next(word for word in second if word[1].startswith("clue"))
    return first, (*(word for word in second if word != clue), clue)


SENTENCES_CLUE_LAST = {language: clue_last(pair) for language, pair in bank.sentences().items()}
PLAIN_TOWARDS_CLUE = {**bank.EMBEDDINGS, "plain": (1.0, 0.0, 0.0, 0.0)}
PLAIN_HALF_ALIGNED = {**bank.EMBEDDINGS, "plain": (0.6, -0.8, 0.0, 0.0)}
W_O_SENSES_CROSSED = ((0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 0.0), *bank.W_O[2:])
W_O_HEAD_1_INTO_THE_LOOK = ((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), *bank.W_O[2:])
W_O_HEAD_2_INTO_SENSES = (*bank.W_O[:2], (0.0, 0.0, 1.0, 0.0), (0.0, 0.0, 0.0, 1.0))
CLUES_LOOKING_APART = {**bank.EMBEDDINGS, "clue_2": (0.8, 0.6, 0.0, 1.0)}
W_Q_REFLECTING = ((0.0, 3.0), (3.0, 0.0), (0.0, 0.0), (0.0, 0.0))  # a mirror, not a turn
W_V_READING_THE_LOOK_PLANE = ((0.5, 0.0), *bank.W_V[1:])

PLANTED = [  # module, {attribute: planted value}, the claim that must fail
    (two_positions, {"W_K": ((0.0,), (1.0,))}, "worked_key_is_ln3"),
    (two_positions, {"W_K": ((0.0,), (math.log(2.5),))}, "worked_exponentials_are_whole"),
    (two_positions, {"X": ((1.0, 0.0), (1.0, 0.0))}, "worked_output_leans_towards_position_1"),
    (two_positions, {"W_Q": ((1.0, 0.0), (0.0, 0.0)), "W_K": ((0.0, 0.0), (math.log(3), 0.0))},
     "worked_example_scale_is_one"),
    (two_positions, {"EXERCISE_SCORES": (1.0, 0.0)}, "equal_scores_mix_evenly"),
    (bank, {"EMBEDDINGS": PLAIN_HALF_ALIGNED}, "clue_key_aligns_with_the_query"),
    (bank, {"EMBEDDINGS": CLUES_LOOKING_APART}, "clues_look_alike_but_differ_in_sense"),
    (bank, {"W_Q": W_Q_REFLECTING}, "keys_copy_and_queries_turn_the_look_plane"),
    (bank, {"W_V": W_V_READING_THE_LOOK_PLANE}, "projections_read_one_plane_each"),
    (bank, {"W_Q": ((0.0, 0.0),) * 4}, "bank_clue_gets_largest_weight"),
    (bank, {"EMBEDDINGS": PLAIN_TOWARDS_CLUE}, "plain_words_get_little"),
    (bank, {"SHIFT": 0.0}, "constant_shift_changes_nothing"),
    (bank, {"head_1": head_1_without_mask}, "causal_mask_zeroes_future"),
    (bank, {"head_1": head_1_without_mask}, "mask_equals_prefixes"),
    (bank, {"embed": embed_with_positions}, "word_order_is_invisible"),
    (bank, {"embed": embed_with_positions}, "bank_projections_are_embeddings_times_weights"),
    (bank, {"head_1": head_1_hot}, "bank_scores_are_scaled_dot_products"),
    (bank, {"head_1": head_1_without_mask}, "bank_weights_are_softmax_of_scores"),
    (bank, {"head_1": head_1_doubling_the_output}, "bank_head_output_is_weighted_sum"),
    (bank, {"sentences": lambda: SENTENCES_CLUE_LAST},
     "clues_precede_the_ambiguous_word"),
    (bank, {"W_V": ((0.0, 0.0), (0.0, 0.0), (0.5, 0.5), (0.5, 0.5))}, "bank_outputs_differ"),
    (bank, {"W_O": W_O_SENSES_CROSSED}, "bank_moves_towards_its_sense"),
    (bank, {"head_1": head_1_with_keys_from_w_v}, "value_swap_keeps_weights"),
    (bank, {"SWAP": [0, 1]}, "value_swap_sends_bank_to_the_other_sense"),
    (bank, {"W_Q2": bank.W_Q}, "second_head_looks_at_words_like_itself"),
    # head 1's W_Q without its quarter turn: each query along its own key, as in head 2
    (bank, {"W_Q": bank.W_Q2}, "first_head_rows_follow_the_quarter_turn"),
    (bank, {"W_O": W_O_HEAD_2_INTO_SENSES}, "second_head_leaves_the_sense"),
    (bank, {"W_O": W_O_HEAD_1_INTO_THE_LOOK}, "w_o_writes_head_1_into_the_sense_plane"),
    # the clues' looks apart: the two clues no longer get the same score
    (bank, {"EMBEDDINGS": CLUES_LOOKING_APART}, "longer_move_has_fewer_plain_words"),
    (heads, {"M": ((1.0, 0.0), (0.0, 1.0))}, "basis_change_keeps_scores"),
    # M halves the query's first coordinate: the query shrinks, the clue's key grows
    (heads, {"M": ((0.5, 0.0), (0.0, 1.0))}, "basis_change_trades_query_length_for_key_length"),
    (heads, {"N": ((1.0, 0.0), (0.0, 1.0))}, "value_side_change_keeps_output"),
    (heads, {"M": ((1.0, 0.0), (0.0, 1.0))}, "only_products_are_pinned"),
    (heads, {"reorder_heads": reorder_heads_forgetting_w_o}, "head_order_is_free"),
    (heads, {"SWAP": ((1.0, 0.0), (0.0, 1.0))}, "w_o_undoes_the_swap"),
    (bank, {"W_V": ((0.0, 0.0), (0.0, 0.0), (1.0, 0.0), (0.0, 1.0))},
     "bank_value_is_twice_its_start"),  # a copy puts the value on its start
    (scaling, {"D_K": (1, 2, 4)}, "unscaled_softmax_saturates"),
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
    by_arithmetic = {"causal_rows_sum_to_one", "weight_ratio_is_exp_of_gap",
                     "score_spread_grows_like_sqrt_dk", "scaled_softmax_stays_spread"}
    attention = {n for n, c in claims.REGISTRY.items() if c.article == "attention"}
    assert attention - by_arithmetic == planted
