"""The article's conclusions, checked on one full default run (shared fixture)."""

from pathlib import Path

import jsonschema
import pytest

from experiment.config import Config
from experiment.figures import FIGURES
from experiment.results import load_schema, source_hash

pytestmark = pytest.mark.slow

CONFIG = Config()


def test_results_validate_against_schema(default_run):
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(default_run)


def test_results_record_config_versions_and_source(default_run):
    assert default_run["config"] == CONFIG.as_dict()
    assert default_run["versions"]["torch"].startswith("2.")
    assert default_run["source_hash"] == source_hash()
    assert [s["seed"] for s in default_run["seeds"]] == [0, 1, 2]
    assert all(len(s["loss_trace"]) == CONFIG.steps for s in default_run["seeds"])
    assert len(default_run["timing"]["train_seconds"]) == 3
    assert list(default_run)[-1] == "timing"  # the only part that varies comes last


def test_key_differences_span_three_directions_in_results(default_run):
    assert default_run["key_difference_rank"] == {"four_keys": 3, "three_keys": 2}


def test_heldout_prediction_error_reaches_float_precision(default_run):
    for seed in default_run["seeds"]:
        assert seed["heldout_mse"] < 1e-20, seed["seed"]


def test_uniform_attention_is_far_worse(default_run):
    for seed in default_run["seeds"]:
        assert seed["uniform_attention_mse"] > 0.2
        assert seed["uniform_attention_mse"] > 1e10 * seed["heldout_mse"]


def test_learned_coordinates_track_their_intended_features(default_run):
    for seed in default_run["seeds"]:
        assert seed["min_r2"] > 0.999999
        assert seed["min_r2"] == min(seed["r2"]["query"] + seed["r2"]["value"])


def test_query_map_reads_query_features_and_value_map_reads_payloads(default_run):
    for seed in default_run["seeds"]:
        for name, rows in (("query_response", range(0, 3)), ("value_response", range(3, 6))):
            for i, row in enumerate(seed[name]):
                for j, value in enumerate(row):
                    intended = 1.0 if i in rows and i - rows.start == j else 0.0
                    assert abs(value - intended) < 1e-6, (seed["seed"], name, i, j)


def test_erasing_a_used_feature_raises_the_error(default_run):
    for seed in default_run["seeds"]:
        for name in ("erase_query", "erase_payload"):
            assert all(mse > 0.05 for mse in seed["interventions"][name]), (seed["seed"], name)


def test_shifting_irrelevant_features_leaves_the_prediction_unchanged(default_run):
    for seed in default_run["seeds"]:
        assert seed["interventions"]["shift_irrelevant"] < 1e-20


def test_summary_spans_the_seeds(default_run):
    seeds, summary = default_run["seeds"], default_run["summary"]
    assert summary["heldout_mse"] == {"min": min(s["heldout_mse"] for s in seeds),
                                      "max": max(s["heldout_mse"] for s in seeds)}
    erased = [v for s in seeds for v in s["interventions"]["erase_payload"]]
    assert summary["erase_payload"] == {"min": min(erased), "max": max(erased)}


def test_every_figure_is_written_as_svg_and_png(default_run_dir: Path):
    for name in FIGURES:
        svg = (default_run_dir / f"{name}.svg").read_text()
        png = (default_run_dir / f"{name}.png").read_bytes()
        assert svg.lstrip().startswith("<?xml") and "<dc:date>" not in svg
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
    leftovers = [p.name for p in default_run_dir.iterdir() if p.name.startswith(".")]
    assert leftovers == []


def test_figures_hold_no_words(default_run_dir: Path):
    # Text is drawn as paths; the only labels are symbols, so no <text> elements at all.
    for name in FIGURES:
        assert "<text" not in (default_run_dir / f"{name}.svg").read_text()
