"""The full default run that the site build made (shared fixture): what the claims do
not check themselves (tests/sitebuild/test_claims.py checks each claim on this run),
and what the site publishes of the run. (What a run leaves in its folder:
tests/experiment/test_cli.py.)"""

import json
from pathlib import Path

import jsonschema
import pytest
import torch
from matplotlib.colors import to_hex

import locales
from examples.figures import file_names as example_file_names
from experiment import data
from experiment.config import Config
from experiment.figures import FIGURES, SCHEMES, file_names
from experiment.results import load_schema, source_hash
from sitebuild.claims.feature_recovery import VISIBLE_ENTRY

pytestmark = pytest.mark.slow

CONFIG = Config()


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


# --- What the claims do not check ---------------------------------------------------


def test_each_seeds_min_r2_is_its_least_r2(default_run):
    for seed in default_run["seeds"]:
        assert seed["min_r2"] == min(seed["r2"]["query"] + seed["r2"]["value"])


def test_with_three_keys_the_query_response_is_visibly_not_the_intended_one(default_run):
    # "The query response is not E_q", in every seed, by more than a heat map's rounding.
    assert (default_run["variants"]["three_keys"]["summary"]["max_response_error"]["min"]
            > VISIBLE_ENTRY)


def test_with_three_keys_the_intended_component_is_the_identitys_own(default_run):
    three = default_run["variants"]["three_keys"]
    u = three["invisible_direction"]
    assert three["intended_invisible_component"] == [*u, *[0.0] * 6]  # E_q u: u on q rows


def test_plain_sgd_starts_where_adam_starts_and_records_its_drift(default_run):
    adam, sgd = (default_run["variants"][name] for name in ("three_keys", "three_keys_sgd"))
    assert sgd["optimizer"] == {"name": "SGD", "lr": CONFIG.sgd_learning_rate, "momentum": 0}
    # the same seeds, the same initial maps: the two start at the same departure
    for a, s in zip(adam["seeds"], sgd["seeds"], strict=True):
        assert a["seed"] == s["seed"]
        assert a["initial_invisible_departure"] == s["initial_invisible_departure"]
        assert s["invisible_drift"] == max(abs(x - y) for x, y in zip(
            s["invisible_departure"], s["initial_invisible_departure"], strict=True))


THREE_KEYS_STUDENTS = ("three_keys", "three_keys_sgd")


def _f64(values) -> torch.Tensor:
    return torch.as_tensor(values, dtype=torch.float64)


def _close(a, b, tolerance: float = 1e-14) -> bool:
    return bool(torch.allclose(_f64(a), _f64(b), rtol=0, atol=tolerance))


@pytest.mark.parametrize("name", THREE_KEYS_STUDENTS)
def test_the_split_query_response_adds_up_to_it_seen_part_plus_part_along_u(default_run,
                                                                            name):
    u = _f64(default_run["variants"][name]["invisible_direction"])  # (3,)
    for seed in default_run["variants"][name]["seeds"]:
        seen = _f64(seed["visible_query_response"])  # (9, 3)
        along = _f64(seed["invisible_query_response"])  # (9, 3)
        assert seen.shape == along.shape == (9, 3)
        assert _close(seen + along, seed["query_response"])
        assert _close(seen @ u, [0.0] * 9)  # the loss's part has nothing along u
        # rank one, every row a multiple of u
        assert _close(along - torch.outer(along @ u, u), [[0.0] * 3] * 9)


@pytest.mark.parametrize("name", THREE_KEYS_STUDENTS)
def test_the_trace_along_u_runs_from_the_initial_map_to_the_trained_one(default_run, name):
    variant = default_run["variants"][name]
    assert variant["trace_steps"] == [*CONFIG.trace_steps, CONFIG.steps]
    intended = variant["intended_invisible_component"]
    for seed in variant["seeds"]:
        trace = seed["invisible_component_trace"]
        assert [len(row) for row in trace] == [9] * len(variant["trace_steps"])
        # the student's own component: the departure plus E_q's
        own = [[d + c for d, c in zip(departure, intended, strict=True)]
               for departure in (seed["initial_invisible_departure"],
                                 seed["invisible_departure"])]
        assert _close(trace[0], own[0]) and _close(trace[-1], own[1])


def test_the_traces_of_adam_and_sgd_start_together(default_run):
    adam, sgd = (default_run["variants"][name]["seeds"] for name in THREE_KEYS_STUDENTS)
    for a, s in zip(adam, sgd, strict=True):
        assert a["invisible_component_trace"][0] == s["invisible_component_trace"][0]


def test_the_worked_example_is_the_first_heldout_example_through_the_teacher(default_run):
    example = default_run["teacher_example"]
    assert example["seed"] == CONFIG.seeds[0]
    R = data.mixing_matrix(CONFIG.mixing_seed)
    first = data.draw_examples(data.generator(CONFIG.seeds[0], "heldout"), 1, R,
                               CONFIG.query_scale)  # the first of the held-out stream
    latents = first.latents[0]  # (1 + J, 9)
    assert example["latents"] == latents.tolist()
    assert example["query"] == latents[0, data.QUERY].tolist()
    assert example["payloads"] == latents[1:, data.PAYLOAD].tolist()
    assert _close(example["target"], data.teacher(latents))
    assert _close(example["weights"], torch.softmax(_f64(example["scores"]), dim=-1))


def test_the_data_measured_are_every_seeds_heldout_inputs(default_run):
    # every seed's held-out examples, five inputs each
    assert default_run["data"]["inputs"] == len(CONFIG.seeds) * CONFIG.heldout_size * 5


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


def test_the_site_publishes_exactly_the_files_results_json_lists(default_run,
                                                                  default_run_dir: Path):
    expected = {file for name in FIGURES for file in file_names(name)} | {"results.json"}
    assert set(default_run["files"]) == expected
    examples = set(example_file_names()) | {"examples.json"}
    notebook = json.loads((default_run_dir / "companion.ipynb").read_text())
    notebook_files = {"companion.ipynb"} | {
        output["metadata"]["filenames"]["image/png"] for cell in notebook["cells"]
        for output in cell.get("outputs", []) if "filenames" in output.get("metadata", {})}
    assert len(notebook_files) == 1 + 3 * 2 * len(locales.codes()), \
        "the notebook's three figures, each in every language, and their dark twins"
    published = {p.name for p in default_run_dir.iterdir() if p.is_file()}
    # and the build's own catalogue of its claims (sitebuild.catalogue)
    assert published == expected | examples | notebook_files | {"claims.json"}


def test_every_figure_is_written_as_svg_and_png_in_both_schemes(default_run_dir: Path):
    for name in FIGURES:
        for scheme in SCHEMES:
            svg = (default_run_dir / f"{name}{scheme.suffix}.svg").read_text()
            png = (default_run_dir / f"{name}{scheme.suffix}.png").read_bytes()
            assert svg.lstrip().startswith("<?xml") and "<dc:date>" not in svg
            assert png.startswith(b"\x89PNG\r\n\x1a\n")
            assert f"fill: {to_hex(scheme.background)}" in svg  # drawn for its page
