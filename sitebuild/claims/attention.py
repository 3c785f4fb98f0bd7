"""Claims of the attention article (and the home page's picture), checked against
examples.json. Each is registered with the edit of the values that would make
its sentence false."""

from __future__ import annotations

import math

from sitebuild.claims import claim, require, set_value
from sitebuild.values import lookup

# Exact arithmetic on small numbers still rounds in float64 (0.1 * 3 is not 0.3).
TOLERANCE = 1e-12


def _close(a, b) -> bool:
    return abs(a - b) < TOLERANCE


def _all_close(a, b) -> bool:
    return len(a) == len(b) and all(map(_close, a, b))


def _sentences(values):
    """(language, sentence number from 1, sentence) for every bank sentence."""
    for language, pair in lookup(values, "examples.bank.sentences").items():
        for number, sentence in enumerate(pair, start=1):
            yield language, number, sentence


# ---------------------------------------------------------------------------
# Worked example: two positions, position 2's query
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.two_positions.W_K", [[0.0], [1.0]]))
def worked_key_is_ln3(values) -> str:
    example = lookup(values, "examples.two_positions")
    lower = example["W_K"][1][0]
    return require(_close(lower, math.log(3)) and _close(example["ln3"], math.log(3))
                   and _close(example["k_1"], math.log(3)),
                   f"W_K's lower entry {lower!r}, k_1 = {example['k_1']!r}, "
                   f"ln 3 = {example['ln3']!r}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.exponentials", [math.e, 1.0]))
def worked_exponentials_are_whole(values) -> str:
    example = lookup(values, "examples.two_positions")
    numbers = [*example["exponentials"], example["exponential_sum"]]
    return require(all(_close(x, round(x)) for x in numbers),
                   f"exponentials {example['exponentials']}, sum {example['exponential_sum']}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.d_k", 2))
def worked_example_scale_is_one(values) -> str:
    example = lookup(values, "examples.two_positions")
    raw = [example["q_2"] * example["k_1"], example["q_2"] * example["k_2"]]
    return require(example["d_k"] == 1 and _all_close(raw, example["scores"]),
                   f"d_k = {example['d_k']}, raw dot products {raw}, "
                   f"scores {example['scores']}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.weights", [0.25, 0.75]))
def worked_output_leans_towards_position_1(values) -> str:
    example = lookup(values, "examples.two_positions")
    a_1, a_2 = example["weights"]
    mixed = [a_1 * v1 + a_2 * v2 for v1, v2 in zip(example["v_1"], example["v_2"], strict=True)]
    return require(
        a_1 > a_2 and _close(a_1 + a_2, 1.0) and _all_close(mixed, example["h_2"])
        and example["h_2"] != example["x_2"],
        f"attention weights {example['weights']}, head output {example['h_2']}, "
        f"input {example['x_2']}",
    )


@claim(refute=lambda v: set_value(v, "examples.two_positions.matrix.causal_weights",
                                  [[0.5, 0.5], [0.75, 0.25]]))
def causal_mask_changes_only_row_1(values) -> str:
    matrix = lookup(values, "examples.two_positions.matrix")
    masked, full = matrix["causal_weights"], matrix["weights"]
    return require(masked[0] == [1.0, 0.0] and _all_close(masked[1], full[1])
                   and not _all_close(masked[0], full[0]),
                   f"without the mask {full}, with it {masked}")


@claim(refute=lambda v: set_value(v, "examples.exercise.weights", [0.6, 0.4]))
def equal_scores_mix_evenly(values) -> str:
    exercise = lookup(values, "examples.exercise")
    example = lookup(values, "examples.two_positions")
    a_1, a_2 = exercise["weights"]
    average = [(v1 + v2) / 2 for v1, v2 in zip(exercise["v_1"], exercise["v_2"], strict=True)]
    same_values = (exercise["v_1"], exercise["v_2"]) == (example["v_1"], example["v_2"])
    return require(
        exercise["scores"][0] == exercise["scores"][1] and _close(a_1, a_2)
        and _all_close(average, exercise["h_2"]) and same_values,
        f"scores {exercise['scores']} give attention weights {exercise['weights']} and "
        f"head output {exercise['h_2']}; value vectors unchanged: {same_values}",
    )


# ---------------------------------------------------------------------------
# Scaling by √d_k
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.scaling.spread.9", 5.0))
def score_spread_grows_like_sqrt_dk(values) -> str:
    scaling = lookup(values, "examples.scaling")
    ratios = [s / math.sqrt(d) for s, d in zip(scaling["spread"], scaling["d_k"], strict=True)]
    return require(all(abs(r - 1) < 0.05 for r in ratios),
                   f"spread / √d_k: {[round(r, 3) for r in ratios]}")


@claim(refute=lambda v: set_value(v, "examples.scaling.largest.largest_unscaled", 0.5))
def unscaled_softmax_saturates(values) -> str:
    scaling = lookup(values, "examples.scaling")
    largest = scaling["largest_unscaled"]
    rising = all(a < b for a, b in zip(largest, largest[1:], strict=False))
    last = scaling["largest"]["largest_unscaled"]
    return require(rising and last == largest[-1] and last > 0.9,
                   f"mean largest weight without scaling: {[round(x, 3) for x in largest]}; "
                   f"at the largest d_k {last!r}")


@claim(refute=lambda v: set_value(v, "examples.scaling.largest_scaled.9", 0.9))
def scaled_softmax_stays_spread(values) -> str:
    scaling = lookup(values, "examples.scaling")
    largest = scaling["largest_scaled"]
    return require(max(largest) < 0.5 and max(largest) - min(largest) < 0.1
                   and min(largest) > scaling["uniform_weight"],
                   f"mean largest weight with scaling: {[round(x, 3) for x in largest]}")


# ---------------------------------------------------------------------------
# The causal mask
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.causal_mask.weights.0.1", 0.5))
def causal_mask_zeroes_future(values) -> str:
    weights = lookup(values, "examples.causal_mask.weights")
    future = [w for i, row in enumerate(weights) for j, w in enumerate(row) if j > i]
    return require(all(w == 0.0 for w in future),
                   f"largest weight on a future position: {max(future, default=0.0)}")


@claim(refute=lambda v: set_value(v, "examples.causal_mask.weights.5.2", 0.0))
def causal_mask_keeps_past(values) -> str:
    weights = lookup(values, "examples.causal_mask.weights")
    past = [w for i, row in enumerate(weights) for j, w in enumerate(row) if j <= i]
    return require(all(w > 0.0 for w in past),
                   f"smallest weight on the position itself or an earlier one: {min(past)}")


@claim(refute=lambda v: set_value(v, "examples.causal_mask.weights.2", [0.5, 0.3, 0.2, 0, 0, 0]))
def causal_weights_even_over_visible(values) -> str:
    weights = lookup(values, "examples.causal_mask.weights")
    uneven = [i for i, row in enumerate(weights)
              if not all(_close(w, 1.0 / (i + 1)) for w in row[: i + 1])]
    return require(not uneven, f"query positions (from 0) with uneven weights: {uneven}")


@claim(refute=lambda v: set_value(v, "examples.causal_mask.row_sums.3", 0.9))
def causal_rows_sum_to_one(values) -> str:
    sums = lookup(values, "examples.causal_mask.row_sums")
    return require(all(_close(total, 1.0) for total in sums), f"row sums {sums}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.sv.0.clue", 5))
def clues_precede_the_ambiguous_word(values) -> str:
    late = [(language, number) for language, number, s in _sentences(values)
            if s["clue"] is None or s["clue"] >= s["ambiguous"]
            or s["weights"][s["ambiguous"]][s["clue"]] <= 0.0]
    return require(not late, f"sentences whose clue is not visible to the ambiguous word: "
                             f"{late}")


# ---------------------------------------------------------------------------
# The bank sentences, computed
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.bank.sentences.en.1.weights.5",
                                  [0.3, 0.1, 0.2, 0.1, 0.1, 0.2]))
def bank_clue_gets_largest_weight(values) -> str:
    weights, failures = {}, []
    for language, number, s in _sentences(values):
        row = s["weights"][s["ambiguous"]]
        others = [w for j, w in enumerate(row) if j != s["clue"]]
        clue = row[s["clue"]] if s["clue"] is not None else 0.0
        # "Most of its attention": more than half, and more than any other word gets.
        if clue <= max(others) or clue <= 0.5 or not _close(clue, s["clue_weight"]):
            failures.append(f"{language}, sentence {number}: weights {row}, clue {s['clue']}")
        else:
            weights[f"{language} {number}"] = round(row[s["clue"]], 3)
    return require(not failures, "; ".join(failures) or f"the clue's attention weight: {weights}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.uk.1.h",
                                  [0.8546845764260097, 0.020759346224855764]))
def bank_outputs_differ(values) -> str:
    apart, failures = {}, []
    for language, pair in lookup(values, "examples.bank.sentences").items():
        first, second = (s["h"] for s in pair)
        apart[language] = max(abs(a - b) for a, b in zip(first, second, strict=True))
        # Each output leans towards its own sentence's sense: coordinate 1, then 2.
        if apart[language] < 0.1 or not (first[0] > first[1] and second[1] > second[0]):
            failures.append(f"{language}: head outputs {first} and {second}")
    return require(not failures, "; ".join(failures)
                   or f"largest difference between the two head outputs: {apart}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.sv.0.updated", [1, 0, 0, 0]))
def bank_update_adds_the_sense(values) -> str:
    embedding = lookup(values, "examples.bank.model.embeddings.ambiguous")
    wrong = [(language, number, s["updated"]) for language, number, s in _sentences(values)
             if not _all_close(s["updated"], [*embedding[:2], *s["h"]])
             or not _all_close(embedding[2:], [0.0, 0.0])]
    return require(not wrong, f"representations after the residual add that are not the "
                              f"ambiguous word's embedding plus h in the sense coordinates: "
                              f"{wrong}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.en.0.weights.2",
                                  [0.5, 0.25, 0.25, 0.0, 0.0]))
def bank_other_words_spread_evenly(values) -> str:
    uneven = []
    for language, number, s in _sentences(values):
        for i, row in enumerate(s["weights"]):
            even = all(_close(w, 1 / (i + 1)) for w in row[: i + 1])
            future = all(w == 0.0 for w in row[i + 1:])
            if not future or (i != s["ambiguous"] and not even):
                uneven.append((language, number, i))
    return require(not uneven, f"rows (language, sentence, row from 0) that look ahead or, "
                               f"for a plain word or a clue, unevenly: {uneven}")


# ---------------------------------------------------------------------------
# What the value contributes
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.value_swap.X.0", [1.0, 1.0, 0.0, 0.0]))
def value_swap_representations_are_one_hot(values) -> str:
    X = lookup(values, "examples.value_swap.X")
    one_hot = all(row == [float(i == j) for j in range(len(row))] for i, row in enumerate(X))
    return require(one_hot, f"representations {X}: row j of W_K is position j's key "
                                  f"only if they are the rows of the identity")


@claim(refute=lambda v: set_value(v, "examples.value_swap.swapped_weights",
                                  [0.4, 0.3, 0.2, 0.1]))
def value_swap_keeps_weights(values) -> str:
    swap = lookup(values, "examples.value_swap")
    return require(_all_close(swap["weights"], swap["swapped_weights"]),
                   f"attention weights {swap['weights']} → {swap['swapped_weights']}")


@claim(refute=lambda v: set_value(v, "examples.value_swap.swapped_output", [0.5, 0.8, 1.3]))
def value_swap_swaps_first_two_coordinates(values) -> str:
    swap = lookup(values, "examples.value_swap")
    columns = [[row[1], row[0], *row[2:]] for row in swap["W_V"]]
    output, swapped = swap["output"], swap["swapped_output"]
    return require(
        columns == swap["swapped_W_V"] and _all_close([output[1], output[0], *output[2:]], swapped)
        and not _all_close(output, swapped),
        f"W_V {swap['W_V']} → {swap['swapped_W_V']}; head output {output} → {swapped}",
    )


# ---------------------------------------------------------------------------
# Queries and keys are not unique; several heads, W_O
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.basis_change.det_M", 0.0))
def basis_change_is_invertible(values) -> str:
    determinant = lookup(values, "examples.basis_change.det_M")
    return require(abs(determinant) > TOLERANCE, f"det M = {determinant!r}")


@claim(refute=lambda v: set_value(v, "examples.basis_change.max_score_difference", 0.5))
def basis_change_keeps_scores(values) -> str:
    change = lookup(values, "examples.basis_change")
    difference = change["max_score_difference"]
    return require(difference < TOLERANCE and change["query_difference"] > 0.1,
                   f"queries moved by {change['query_difference']:.3g}, "
                   f"scores by {difference:.3g}")


@claim(refute=lambda v: set_value(v, "examples.heads.output_change", 0.3))
def value_side_change_keeps_output(values) -> str:
    heads = lookup(values, "examples.heads")
    moved = heads["weight_change"]
    return require(heads["output_change"] < TOLERANCE and min(moved.values()) > 0.1
                   and abs(heads["det_N"]) > TOLERANCE and abs(heads["det_M"]) > TOLERANCE,
                   f"weights moved by up to {moved}, the layer's output by "
                   f"{heads['output_change']:.3g}")


@claim(refute=lambda v: set_value(v, "examples.heads.product_change.W_V_W_O", 0.2))
def only_products_are_pinned(values) -> str:
    heads = lookup(values, "examples.heads")
    products = heads["product_change"]
    return require(max(products.values()) < TOLERANCE
                   and heads["largest_product_change"] == max(products.values()) and
                   min(heads["weight_change"].values()) > 0.1,
                   f"products moved by {products}, the factors by {heads['weight_change']}")


@claim(refute=lambda v: set_value(v, "examples.heads.swap_undone_change", 0.4))
def w_o_undoes_the_swap(values) -> str:
    heads = lookup(values, "examples.heads")
    return require(heads["swap_alone_change"] > 0.01 and heads["swap_undone_change"] < TOLERANCE,
                   f"the swap alone moves the output by {heads['swap_alone_change']:.3g}; "
                   f"with W_O adjusted by {heads['swap_undone_change']:.3g}")
