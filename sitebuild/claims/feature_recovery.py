"""Claims of the feature-recovery article, checked against results.json."""

from __future__ import annotations

from sitebuild.claims import claim, register, require, set_value, value

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


def _summary(values, name):
    return value(values, f"experiment.summary.{name}")


def _worst_model(values) -> float:
    return _summary(values, "heldout_mse")["max"]


@claim(refute=lambda v: set_value(v, "experiment.summary.heldout_mse.max", 1e-6))
def heldout_at_float_precision(values) -> str:
    worst = _worst_model(values)
    return require(worst < FLOAT_PRECISION_MSE,
                   f"largest held-out MSE {worst:.3g} (needs < {FLOAT_PRECISION_MSE:g})")


@claim(refute=lambda v: set_value(v, "experiment.summary.uniform_attention_mse.min", 1e-3))
def uniform_baseline_far_worse(values) -> str:
    best_uniform = _summary(values, "uniform_attention_mse")["min"]
    worst_model = _worst_model(values)
    return require(
        best_uniform > SUBSTANTIAL_MSE and best_uniform > FAR_WORSE_FACTOR * worst_model,
        f"smallest uniform-attention MSE {best_uniform:.3g} against the model's "
        f"largest {worst_model:.3g}",
    )


def _raises_error(intervention: str):
    def check(values) -> str:
        smallest = _summary(values, intervention)["min"]
        worst_model = _worst_model(values)
        return require(
            smallest > SUBSTANTIAL_MSE and smallest > FAR_WORSE_FACTOR * worst_model,
            f"smallest MSE after {intervention} {smallest:.3g} against the model's "
            f"largest {worst_model:.3g}",
        )

    return check


for _name in ("erase_query", "erase_payload"):
    register(f"erasing_{_name.removeprefix('erase_')}_raises_error", _raises_error(_name),
             lambda v, n=_name: set_value(v, f"experiment.summary.{n}.min", 1e-25))


@claim(refute=lambda v: set_value(v, "experiment.summary.shift_irrelevant.max", 1e-4))
def shift_leaves_prediction_unchanged(values) -> str:
    largest = _summary(values, "shift_irrelevant")["max"]
    return require(largest < FLOAT_PRECISION_MSE,
                   f"largest change of prediction {largest:.3g} "
                   f"(needs < {FLOAT_PRECISION_MSE:g})")


@claim(refute=lambda v: set_value(v, "experiment.summary.min_r2.min", 0.999))
def r2_above_threshold(values) -> str:
    smallest = _summary(values, "min_r2")["min"]
    return require(smallest > R2_THRESHOLD, f"smallest R² {smallest!r} (needs > {R2_THRESHOLD})")


def _reads_its_own_features(response_key: str, first_row: int):
    """The seed-0 response is the identity on three latent rows and zero elsewhere."""

    def check(values) -> str:
        response = value(values, f"experiment.seeds.0.{response_key}")  # (9, 3), latent basis
        worst = 0.0
        for row, coefficients in enumerate(response):
            for column, coefficient in enumerate(coefficients):
                intended = 1.0 if row == first_row + column else 0.0
                worst = max(worst, abs(coefficient - intended))
        return require(worst < RESPONSE_TOLERANCE,
                       f"{response_key} of seed 0 is {worst:.3g} from the intended map "
                       f"(needs < {RESPONSE_TOLERANCE:g})")

    return check


register("query_map_reads_query_features", _reads_its_own_features("query_response", 0),
         # a payload feature leaks into the first query coordinate
         lambda v: set_value(v, "experiment.seeds.0.query_response.3.0", 0.2))
register("value_map_reads_payload_features", _reads_its_own_features("value_response", 3),
         lambda v: set_value(v, "experiment.seeds.0.value_response.0.0", 0.2))


@claim(refute=lambda v: set_value(v, "experiment.seeds.1.heldout_mse", 1e-3))
def every_seed_recovers(values) -> str:
    seeds = value(values, "experiment.seeds")
    bad = [s["seed"] for s in seeds
           if not (s["heldout_mse"] < FLOAT_PRECISION_MSE and s["min_r2"] > R2_THRESHOLD)]
    return require(not bad and len(seeds) > 1,
                   f"{len(seeds)} seeds; not recovered: {bad or 'none'}")


@claim(refute=lambda v: set_value(v, "experiment.key_difference_rank.four_keys", 2))
def four_keys_span_three_directions(values) -> str:
    ranks = value(values, "experiment.key_difference_rank")
    return require(ranks["four_keys"] == 3 and ranks["three_keys"] == 2,
                   f"rank of key differences: four keys {ranks['four_keys']}, "
                   f"three keys {ranks['three_keys']}")


@claim(refute=lambda v: set_value(v, "experiment.seeds.2.loss_trace.-1", 1e-5))
def loss_falls_to_float_precision(values) -> str:
    seeds = value(values, "experiment.seeds")
    finals = [s["loss_trace"][-1] for s in seeds]
    firsts = [s["loss_trace"][0] for s in seeds]
    return require(max(finals) < FLOAT_PRECISION_MSE and min(firsts) > SUBSTANTIAL_MSE,
                   f"first training losses {firsts}, last {finals}")
