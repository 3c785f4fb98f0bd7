"""Claims of the attention article, checked against examples.json."""

from __future__ import annotations

from sitebuild.claims import claim, require, set_value, value

# Exact arithmetic on small numbers still rounds in float64 (0.1 * 3 is not 0.3).
TOLERANCE = 1e-12


def _close(a, b) -> bool:
    return abs(a - b) < TOLERANCE


@claim(refute=lambda v: set_value(v, "examples.value_swap.swapped_weights",
                                  [0.4, 0.3, 0.2, 0.1]))
def value_swap_keeps_weights(values) -> str:
    swap = value(values, "examples.value_swap")
    same = swap["weights"] == swap["swapped_weights"]
    swapped = swap["output"][:2][::-1] == swap["swapped_output"][:2]
    return require(same and swapped and swap["output"][2] == swap["swapped_output"][2],
                   f"weights {swap['weights']} → {swap['swapped_weights']}, "
                   f"output {swap['output']} → {swap['swapped_output']}")


@claim(refute=lambda v: set_value(v, "examples.basis_change.max_score_difference", 0.5))
def basis_change_keeps_scores(values) -> str:
    change = value(values, "examples.basis_change")
    difference = change["max_score_difference"]
    return require(difference < TOLERANCE and change["query_difference"] > 0.1,
                   f"queries moved by {change['query_difference']:.3g}, "
                   f"scores by {difference:.3g}")


@claim(refute=lambda v: set_value(v, "examples.causal_mask.weights.0.1", 0.5))
def causal_mask_zeroes_future(values) -> str:
    weights = value(values, "examples.causal_mask.weights")
    future = [w for i, row in enumerate(weights) for j, w in enumerate(row) if j > i]
    return require(all(w == 0.0 for w in future),
                   f"largest weight on a future position: {max(future, default=0.0)}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.d_k", 2))
def worked_example_scale_is_one(values) -> str:
    example = value(values, "examples.two_positions")
    raw = [example["q_B"] * example["k_A"], example["q_B"] * example["k_B"]]
    return require(example["d_k"] == 1 and all(map(_close, raw, example["scores"])),
                   f"d_k = {example['d_k']}, raw dot products {raw}, "
                   f"scores {example['scores']}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.weights", [0.25, 0.75]))
def worked_output_leans_towards_a(values) -> str:
    example = value(values, "examples.two_positions")
    a_A, a_B = example["weights"]
    mixed = [a_A * va + a_B * vb for va, vb in zip(example["v_A"], example["v_B"], strict=True)]
    return require(
        a_A > a_B and _close(a_A + a_B, 1.0) and all(map(_close, mixed, example["z_B"]))
        and example["z_B"] != example["x_B"],
        f"attention weights {example['weights']}, head output {example['z_B']}, "
        f"input {example['x_B']}",
    )


@claim(refute=lambda v: set_value(v, "examples.causal_mask.weights.5.2", 0.0))
def causal_mask_keeps_past(values) -> str:
    weights = value(values, "examples.causal_mask.weights")
    past = [w for i, row in enumerate(weights) for j, w in enumerate(row) if j <= i]
    return require(all(w > 0.0 for w in past),
                   f"smallest weight on the position itself or an earlier one: {min(past)}")


@claim(refute=lambda v: set_value(v, "examples.causal_mask.weights.2", [0.5, 0.3, 0.2, 0, 0, 0]))
def causal_weights_even_over_visible(values) -> str:
    weights = value(values, "examples.causal_mask.weights")
    uneven = [i for i, row in enumerate(weights)
              if not all(_close(w, 1.0 / (i + 1)) for w in row[: i + 1])]
    return require(not uneven, f"query positions (from 0) with uneven weights: {uneven}")


@claim(refute=lambda v: set_value(v, "examples.causal_mask.row_sums.3", 0.9))
def causal_rows_sum_to_one(values) -> str:
    sums = value(values, "examples.causal_mask.row_sums")
    return require(all(_close(total, 1.0) for total in sums), f"row sums {sums}")


@claim(refute=lambda v: set_value(v, "examples.basis_change.det_M", 0.0))
def basis_change_is_invertible(values) -> str:
    determinant = value(values, "examples.basis_change.det_M")
    return require(abs(determinant) > TOLERANCE, f"det M = {determinant!r}")


@claim(refute=lambda v: set_value(v, "examples.exercise.weights", [0.6, 0.4]))
def equal_scores_mix_evenly(values) -> str:
    exercise = value(values, "examples.exercise")
    example = value(values, "examples.two_positions")
    a_A, a_B = exercise["weights"]
    average = [(va + vb) / 2 for va, vb in zip(exercise["v_A"], exercise["v_B"], strict=True)]
    same_values = (exercise["v_A"], exercise["v_B"]) == (example["v_A"], example["v_B"])
    return require(
        _close(a_A, a_B) and all(map(_close, average, exercise["z_B"])) and same_values,
        f"scores {exercise['scores']} give attention weights {exercise['weights']} and "
        f"head output {exercise['z_B']}; value vectors unchanged: {same_values}",
    )
