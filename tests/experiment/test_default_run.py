"""The article's conclusions, checked on the full default run that the site build made
(shared fixture) with the same claim checks the build uses, and what the site publishes
of the run. (What a run leaves in its folder: tests/experiment/test_cli.py.)"""

from pathlib import Path

import jsonschema
import pytest
import torch
from matplotlib.colors import to_hex

from examples.figures import FIGURES as EXAMPLE_FIGURES
from examples.figures import THEMES
from experiment.config import Config
from experiment.figures import FIGURES, SCHEMES
from experiment.results import load_schema, source_hash
from sitebuild import claims
from sitebuild.claims.feature_recovery import VISIBLE_ENTRY

pytestmark = pytest.mark.slow

CONFIG = Config()


def holds(name: str, run: dict) -> str:
    """The build's check of claim NAME on this run; raises ClaimRefuted, naming it."""
    return claims.check(name, {"experiment": run, "examples": {}})


def test_results_validate_against_schema(default_run):
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(default_run)


def test_results_record_config_numerics_versions_and_source(default_run):
    assert default_run["config"] == CONFIG.as_dict()
    assert default_run["numerics"] == {"dtype": "float64", "threads": 1,
                                       "epsilon": torch.finfo(torch.float64).eps}
    defaults = torch.optim.Adam([torch.zeros(1)]).defaults
    assert default_run["optimizer"] == {"name": "Adam", "betas": list(defaults["betas"]),
                                        "eps": defaults["eps"]}
    assert default_run["versions"]["torch"] == torch.__version__
    assert default_run["source_hash"] == source_hash()
    assert list(default_run)[-1] == "timing"  # the only part that varies comes last
    assert list(default_run["timing"]["training_seconds"]) == ["main", "learned_keys",
                                                               "three_keys", "three_keys_sgd"]


def test_every_student_records_every_seed(default_run):
    for where in (default_run, *default_run["variants"].values()):
        assert [s["seed"] for s in where["seeds"]] == list(CONFIG.seeds)
    assert all(len(s["loss_trace"]) == CONFIG.steps for s in default_run["seeds"])
    assert default_run["trainable_parameters"] == 54
    assert default_run["variants"]["learned_keys"]["trainable_parameters"] == 54 + 12


# --- The main student: its conclusions, as the article states them ------------------


def test_heldout_prediction_error_reaches_float_precision(default_run):
    holds("heldout_at_float_precision", default_run)


def test_every_seed_recovers_the_intended_responses(default_run):
    holds("every_seed_recovers", default_run)
    holds("query_map_reads_query_features", default_run)
    holds("value_map_reads_payload_features", default_run)


def test_learned_coordinates_track_their_intended_features(default_run):
    for seed in default_run["seeds"]:
        assert seed["min_r2"] == min(seed["r2"]["query"] + seed["r2"]["value"])


def test_uniform_attention_is_far_worse_and_training_passes_it_early(default_run):
    holds("uniform_weight_is_one_quarter", default_run)
    holds("uniform_baseline_far_worse", default_run)
    holds("loss_falls_below_uniform_attention", default_run)
    holds("loss_falls_to_float_precision", default_run)


def test_erasing_a_used_feature_raises_the_error_as_it_would_the_teachers(default_run):
    for feature in ("query", "payload"):
        holds(f"erasing_{feature}_raises_error", default_run)
        holds(f"erasing_{feature}_matches_teacher", default_run)


def test_shifting_irrelevant_features_leaves_the_prediction_unchanged(default_run):
    holds("shift_leaves_prediction_unchanged", default_run)


# --- Learned keys: queries and keys are not unique ---------------------------------


def test_with_learned_keys_the_prediction_still_reaches_float_precision(default_run):
    holds("learned_keys_reach_float_precision", default_run)


def test_with_learned_keys_the_value_map_is_still_the_identity(default_run):
    holds("learned_keys_value_map_is_identity", default_run)


def test_with_learned_keys_each_seed_finds_another_invertible_query_block(default_run):
    holds("learned_keys_query_block_differs_per_seed", default_run)


def test_with_learned_keys_the_scores_are_still_the_teachers(default_run):
    holds("learned_keys_score_map_matches_teacher", default_run)


# --- Three keys: one query direction is free ----------------------------------------


def test_with_three_keys_the_prediction_is_still_exact(default_run):
    holds("three_keys_reach_float_precision", default_run)
    holds("four_keys_span_three_directions", default_run)


def test_with_three_keys_the_query_map_departs_along_the_invisible_direction(default_run):
    holds("three_keys_departs_along_invisible_direction", default_run)
    holds("invisible_direction_is_c_c_minus_c", default_run)
    holds("three_keys_departure_is_not_its_start", default_run)
    # "The query response is not E_q", in every seed, by more than a heat map's rounding.
    assert (default_run["variants"]["three_keys"]["summary"]["max_response_error"]["min"]
            > VISIBLE_ENTRY)


def test_with_three_keys_shifting_the_irrelevant_inputs_still_changes_nothing(default_run):
    holds("three_keys_shift_leaves_prediction_unchanged", default_run)


def test_with_three_keys_the_q_rows_depart_by_the_identitys_own_component(default_run):
    holds("three_keys_q_rows_depart_by_the_identitys_component", default_run)
    three = default_run["variants"]["three_keys"]
    u = three["invisible_direction"]
    assert three["intended_invisible_component"] == [*u, *[0.0] * 6]  # E_q u: u on q rows


def test_plain_sgd_leaves_the_invisible_component_where_it_started(default_run):
    holds("sgd_keeps_the_invisible_component_where_it_started", default_run)
    holds("sgd_control_fits_the_teacher", default_run)
    adam, sgd = (default_run["variants"][name] for name in ("three_keys", "three_keys_sgd"))
    assert sgd["optimizer"] == {"name": "SGD", "lr": CONFIG.sgd_learning_rate, "momentum": 0}
    # the same seeds, the same initial maps: the two start at the same departure
    for a, s in zip(adam["seeds"], sgd["seeds"], strict=True):
        assert a["seed"] == s["seed"]
        assert a["initial_invisible_departure"] == s["initial_invisible_departure"]
        assert s["invisible_drift"] == max(abs(x - y) for x, y in zip(
            s["invisible_departure"], s["initial_invisible_departure"], strict=True))


# --- The data as generated ------------------------------------------------------------


def test_what_the_page_says_of_the_data_holds_of_the_data_generated(default_run):
    holds("latent_groups_have_their_spread", default_run)
    holds("latent_means_are_zero", default_run)
    holds("mixing_matrix_is_orthogonal", default_run)
    data = default_run["data"]
    # every seed's held-out examples, five inputs each
    assert data["inputs"] == len(CONFIG.seeds) * CONFIG.heldout_size * 5


# --- Layout -----------------------------------------------------------------------


def test_summaries_span_the_seeds(default_run):
    for where in (default_run, *default_run["variants"].values()):
        seeds, summary = where["seeds"], where["summary"]
        assert summary["heldout_mse"] == {"min": min(s["heldout_mse"] for s in seeds),
                                          "max": max(s["heldout_mse"] for s in seeds)}
        erased = [v for s in seeds for v in s["interventions"]["erase_payload_vs_teacher"]]
        assert summary["erase_payload_vs_teacher"] == {"min": min(erased), "max": max(erased)}
        errors = [s["response_error"]["query"] for s in seeds]
        assert summary["response_error"]["query"] == {"min": min(errors), "max": max(errors)}


def test_snapshots_run_from_the_initial_maps_to_the_trained_ones(default_run):
    snapshots, first = default_run["snapshots"], default_run["seeds"][0]
    assert snapshots["seed"] == first["seed"]
    assert snapshots["steps"] == [*CONFIG.snapshot_steps, CONFIG.steps]
    assert snapshots["query_response"][-1] == first["query_response"]
    assert snapshots["value_response"][-1] == first["value_response"]
    assert snapshots["max_response_error"][-1] == first["max_response_error"]
    holds("maps_take_shape_early", default_run)  # far from intended at first, then close
    holds("maps_form_together", default_run)


def test_the_site_publishes_exactly_the_files_results_json_lists(default_run,
                                                                  default_run_dir: Path):
    expected = {f"{name}{scheme.suffix}.{fmt}" for name in FIGURES for scheme in SCHEMES
                for fmt in ("svg", "png")} | {"results.json"}
    assert set(default_run["files"]) == expected
    holds("run_writes_the_seven_named_figures", default_run)  # the page names them
    examples = {f"{name}{suffix}.{fmt}" for name in EXAMPLE_FIGURES for suffix in THEMES
                for fmt in ("svg", "png")} | {"examples.json"}
    published = {p.name for p in default_run_dir.iterdir() if p.is_file()}  # and notebook/
    assert published == expected | examples


def test_every_figure_is_written_as_svg_and_png_in_both_schemes(default_run_dir: Path):
    for name in FIGURES:
        for scheme in SCHEMES:
            svg = (default_run_dir / f"{name}{scheme.suffix}.svg").read_text()
            png = (default_run_dir / f"{name}{scheme.suffix}.png").read_bytes()
            assert svg.lstrip().startswith("<?xml") and "<dc:date>" not in svg
            assert png.startswith(b"\x89PNG\r\n\x1a\n")
            assert f"fill: {to_hex(scheme.background)}" in svg  # drawn for its page
