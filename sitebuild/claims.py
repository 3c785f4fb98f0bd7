"""Sentences whose truth depends on the run, and the checks that stand behind them.

A page marks such a sentence with ``{{ claim NAME }}``. At build the check runs
against this build's results; if the run no longer supports the sentence, the
build fails and names the claim and the page, so the text has to change, never
the number.

Each check gets the values namespace (``run`` = results.json of the experiment,
``toy`` = examples.json of the attention article) and returns the evidence as a
sentence, or raises ClaimRefuted.
"""

from __future__ import annotations

from collections.abc import Callable

# "Floating-point precision" for a mean squared error of numbers of order one in
# float64: machine epsilon is 2.2e-16, so squared errors sit near 1e-31; 1e-20
# leaves ten orders of margin and still rules out any merely "small" error.
FLOAT_PRECISION_MSE = 1e-20
# "Far worse" and "raises the error": at least a million times the held-out MSE
# and large in absolute terms, so that no rounding could produce the gap.
FAR_WORSE_FACTOR = 1e6
SUBSTANTIAL_MSE = 0.01
R2_THRESHOLD = 0.999999
# A learned response within this distance of the intended one reads "exactly".
RESPONSE_TOLERANCE = 1e-6


class ClaimRefuted(AssertionError):
    pass


def _require(condition: bool, evidence: str) -> str:
    if not condition:
        raise ClaimRefuted(evidence)
    return evidence


def _summary(values, name):
    return values["run"]["summary"][name]


def heldout_at_float_precision(values) -> str:
    worst = _summary(values, "heldout_mse")["max"]
    return _require(worst < FLOAT_PRECISION_MSE,
                    f"largest held-out MSE {worst:.3g} (needs < {FLOAT_PRECISION_MSE:g})")


def uniform_baseline_far_worse(values) -> str:
    best_uniform = _summary(values, "uniform_attention_mse")["min"]
    worst_model = _summary(values, "heldout_mse")["max"]
    return _require(
        best_uniform > SUBSTANTIAL_MSE and best_uniform > FAR_WORSE_FACTOR * worst_model,
        f"smallest uniform-attention MSE {best_uniform:.3g} against the model's "
        f"largest {worst_model:.3g}",
    )


def _raises_error(intervention: str) -> Callable:
    def check(values) -> str:
        smallest = _summary(values, intervention)["min"]
        worst_model = _summary(values, "heldout_mse")["max"]
        return _require(
            smallest > SUBSTANTIAL_MSE and smallest > FAR_WORSE_FACTOR * worst_model,
            f"smallest MSE after {intervention} {smallest:.3g} against the model's "
            f"largest {worst_model:.3g}",
        )

    return check


def shift_leaves_prediction_unchanged(values) -> str:
    largest = _summary(values, "shift_irrelevant")["max"]
    return _require(largest < FLOAT_PRECISION_MSE,
                    f"largest change of prediction {largest:.3g} "
                    f"(needs < {FLOAT_PRECISION_MSE:g})")


def r2_above_threshold(values) -> str:
    smallest = _summary(values, "min_r2")["min"]
    return _require(smallest > R2_THRESHOLD,
                    f"smallest R² {smallest!r} (needs > {R2_THRESHOLD})")


def _reads_its_own_features(response_key: str, first_row: int) -> Callable:
    """The seed-0 response is the identity on three latent rows and zero elsewhere."""

    def check(values) -> str:
        response = values["run"]["seeds"][0][response_key]  # (9, 3), latent basis
        worst = 0.0
        for row, coefficients in enumerate(response):
            for column, coefficient in enumerate(coefficients):
                intended = 1.0 if row == first_row + column else 0.0
                worst = max(worst, abs(coefficient - intended))
        return _require(worst < RESPONSE_TOLERANCE,
                        f"{response_key} of seed 0 is {worst:.3g} from the intended map "
                        f"(needs < {RESPONSE_TOLERANCE:g})")

    return check


def every_seed_recovers(values) -> str:
    seeds = values["run"]["seeds"]
    bad = [s["seed"] for s in seeds
           if not (s["heldout_mse"] < FLOAT_PRECISION_MSE and s["min_r2"] > R2_THRESHOLD)]
    return _require(not bad and len(seeds) > 1,
                    f"{len(seeds)} seeds; not recovered: {bad or 'none'}")


def four_keys_span_three_directions(values) -> str:
    ranks = values["run"]["key_difference_rank"]
    return _require(ranks["four_keys"] == 3 and ranks["three_keys"] == 2,
                    f"rank of key differences: four keys {ranks['four_keys']}, "
                    f"three keys {ranks['three_keys']}")


def loss_falls_to_float_precision(values) -> str:
    finals = [s["loss_trace"][-1] for s in values["run"]["seeds"]]
    firsts = [s["loss_trace"][0] for s in values["run"]["seeds"]]
    return _require(max(finals) < FLOAT_PRECISION_MSE and min(firsts) > SUBSTANTIAL_MSE,
                    f"first training losses {firsts}, last {finals}")


def _toy(values, *path):
    node = values["toy"]
    for key in path:
        node = node[key]
    return node


def value_swap_keeps_weights(values) -> str:
    swap = _toy(values, "value_swap")
    same = swap["weights"] == swap["swapped_weights"]
    swapped = swap["output"][:2][::-1] == swap["swapped_output"][:2]
    return _require(same and swapped and swap["output"][2] == swap["swapped_output"][2],
                    f"weights {swap['weights']} → {swap['swapped_weights']}, "
                    f"output {swap['output']} → {swap['swapped_output']}")


def basis_change_keeps_scores(values) -> str:
    change = _toy(values, "basis_change")
    difference = change["max_score_difference"]
    return _require(difference < 1e-12 and change["query_difference"] > 0.1,
                    f"queries moved by {change['query_difference']:.3g}, "
                    f"scores by {difference:.3g}")


def causal_mask_zeroes_future(values) -> str:
    weights = _toy(values, "causal_mask", "weights")
    future = [w for i, row in enumerate(weights) for j, w in enumerate(row) if j > i]
    return _require(all(w == 0.0 for w in future),
                    f"largest weight on a future position: {max(future, default=0.0)}")


# Exact arithmetic on small toy numbers still rounds in float64 (0.1 * 3 is not 0.3).
TOY_TOLERANCE = 1e-12


def _close(a, b) -> bool:
    return abs(a - b) < TOY_TOLERANCE


def worked_example_scale_is_one(values) -> str:
    example = _toy(values, "two_positions")
    raw = [example["q_B"] * example["k_A"], example["q_B"] * example["k_B"]]
    return _require(example["d_k"] == 1 and all(map(_close, raw, example["scores"])),
                    f"d_k = {example['d_k']}, raw dot products {raw}, "
                    f"scores {example['scores']}")


def worked_output_leans_towards_a(values) -> str:
    example = _toy(values, "two_positions")
    a_A, a_B = example["shares"]
    mixed = [a_A * va + a_B * vb for va, vb in zip(example["v_A"], example["v_B"], strict=True)]
    return _require(
        a_A > a_B and _close(a_A + a_B, 1.0) and all(map(_close, mixed, example["z_B"]))
        and example["z_B"] != example["x_B"],
        f"attention weights {example['shares']}, head output {example['z_B']}, "
        f"input {example['x_B']}",
    )


def causal_mask_keeps_past(values) -> str:
    weights = _toy(values, "causal_mask", "weights")
    past = [w for i, row in enumerate(weights) for j, w in enumerate(row) if j <= i]
    return _require(all(w > 0.0 for w in past),
                    f"smallest weight on the position itself or an earlier one: {min(past)}")


def causal_weights_even_over_visible(values) -> str:
    weights = _toy(values, "causal_mask", "weights")
    uneven = [i for i, row in enumerate(weights)
              if not all(_close(w, 1.0 / (i + 1)) for w in row[: i + 1])]
    return _require(not uneven, f"query positions (from 0) with uneven weights: {uneven}")


def causal_rows_sum_to_one(values) -> str:
    sums = _toy(values, "causal_mask", "row_sums")
    return _require(all(_close(total, 1.0) for total in sums), f"row sums {sums}")


def basis_change_is_invertible(values) -> str:
    determinant = _toy(values, "basis_change", "det_M")
    return _require(abs(determinant) > TOY_TOLERANCE, f"det M = {determinant!r}")


def equal_scores_mix_evenly(values) -> str:
    exercise, example = _toy(values, "exercise"), _toy(values, "two_positions")
    a_A, a_B = exercise["shares"]
    average = [(va + vb) / 2 for va, vb in zip(exercise["v_A"], exercise["v_B"], strict=True)]
    same_values = (exercise["v_A"], exercise["v_B"]) == (example["v_A"], example["v_B"])
    return _require(
        _close(a_A, a_B) and all(map(_close, average, exercise["z_B"])) and same_values,
        f"scores {exercise['scores']} give attention weights {exercise['shares']} and "
        f"head output {exercise['z_B']}; value vectors unchanged: {same_values}",
    )


CLAIMS: dict[str, Callable] = {
    "heldout_at_float_precision": heldout_at_float_precision,
    "uniform_baseline_far_worse": uniform_baseline_far_worse,
    "erasing_query_raises_error": _raises_error("erase_query"),
    "erasing_payload_raises_error": _raises_error("erase_payload"),
    "shift_leaves_prediction_unchanged": shift_leaves_prediction_unchanged,
    "r2_above_threshold": r2_above_threshold,
    "query_map_reads_query_features": _reads_its_own_features("query_response", 0),
    "value_map_reads_payload_features": _reads_its_own_features("value_response", 3),
    "every_seed_recovers": every_seed_recovers,
    "four_keys_span_three_directions": four_keys_span_three_directions,
    "loss_falls_to_float_precision": loss_falls_to_float_precision,
    "value_swap_keeps_weights": value_swap_keeps_weights,
    "basis_change_keeps_scores": basis_change_keeps_scores,
    "causal_mask_zeroes_future": causal_mask_zeroes_future,
    "worked_example_scale_is_one": worked_example_scale_is_one,
    "worked_output_leans_towards_a": worked_output_leans_towards_a,
    "causal_mask_keeps_past": causal_mask_keeps_past,
    "causal_weights_even_over_visible": causal_weights_even_over_visible,
    "causal_rows_sum_to_one": causal_rows_sum_to_one,
    "basis_change_is_invertible": basis_change_is_invertible,
    "equal_scores_mix_evenly": equal_scores_mix_evenly,
}


def check(name: str, values) -> str:
    """The evidence for claim NAME; KeyError if unknown, ClaimRefuted if the run refutes it."""
    if name not in CLAIMS:
        raise KeyError(f"unknown claim {name!r}; known: {', '.join(sorted(CLAIMS))}")
    return CLAIMS[name](values)
