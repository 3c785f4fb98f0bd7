"""Train and measure every variant, assemble results.json, and write it.

The layout is versioned ("format_version") and described by the JSON Schema in
results.schema.json next to this file. Two runs of the same code give
byte-identical files except for the "timing" object, which comes last.
"""

import json
import platform
from collections.abc import Callable
from pathlib import Path

import torch

from atomicfile import atomic_write
from experiment import data, measure, train
from experiment.config import Config
from experiment.model import trainable_parameters
from experiment.variants import (
    VARIANTS,
    Variant,
    has_invisible_direction,
    particulars,
    student_for,
)
from provenance.source import project_imports
from provenance.source import source_hash as _source_hash

FORMAT = "feature-recovery-results"
FORMAT_VERSION = 3  # raised on any incompatible change of results.json's layout
PACKAGE_DIR = Path(__file__).resolve().parent
SCHEMA_PATH = PACKAGE_DIR / "results.schema.json"
# One thread keeps floating-point reductions in one order: bit-identical reruns.
THREADS = 1


def source_hash() -> str:
    """The experiment's source hash, by the rule the site build caches runs with: its
    own source and that of every project package it imports."""
    root, name = PACKAGE_DIR.parent, PACKAGE_DIR.name
    return _source_hash(root, name, *project_imports(root, name))


def run(config: Config, on_measured: Callable[[str, dict], None] | None = None) -> dict:
    """Train and measure every variant for every seed of `config`; return the content of
    results.json without "files". `on_measured(variant, results so far)` is called as
    soon as a variant's numbers are in."""
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    try:
        R = data.mixing_matrix(config.mixing_seed)  # (9, 9), shared by every seed and variant
        results, seconds = header(config, R), {}
        for name in VARIANTS:
            trained = train_variant(config, name, R)
            seconds[name] = sum(run.seconds for run in trained)
            measure_variant(name, trained, config, R, results, on_measured)
    finally:
        torch.set_num_threads(previous_threads)
    results["timing"] = {"training_seconds": seconds}
    return results


def measure_variant(name: str, trained: list[train.Trained], config: Config,
                    R: torch.Tensor, results: dict,
                    on_measured: Callable[[str, dict], None] | None) -> None:
    """Measure variant NAME (one trained student per seed) into `results`, then tell
    `on_measured`."""
    variant = VARIANTS[name]
    heldout = [heldout_examples(seed, config, variant, R) for seed in config.seeds]
    per_seed = measured_seeds(config, variant, trained, R, heldout)
    if name == "main":
        results |= main_entries(per_seed, trained, config, R)
        latents = torch.stack([examples.latents for examples in heldout])
        results["data"] = measure.data_statistics(latents, R)
        results["teacher_example"] = {"seed": config.seeds[0],
                                      **measure.teacher_example(heldout[0], variant.keys)}
    else:
        results.setdefault("variants", {})[name] = variant_entry(variant, per_seed,
                                                                 trained[0], config)
    if on_measured is not None:
        on_measured(name, results)


def header(config: Config, R: torch.Tensor) -> dict:
    """What the run was: its settings, numerics, versions, source, keys and R."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "config": config.as_dict(),
        "numerics": {"dtype": str(R.dtype).removeprefix("torch."), "threads": THREADS,
                     "epsilon": torch.finfo(R.dtype).eps},
        "versions": {"python": platform.python_version(), "torch": torch.__version__},
        "source_hash": source_hash(),
        "fixed_keys": data.fixed_keys.tolist(),
        "key_difference_rank": {
            "four_keys": measure.key_difference_rank(data.fixed_keys),
            "three_keys": measure.key_difference_rank(VARIANTS["three_keys"].keys),
        },
        "mixing_matrix": R.tolist(),
    }


def train_variant(config: Config, name: str, R: torch.Tensor) -> list[train.Trained]:
    """Train variant NAME, one seed after another. Each seed's student draws its initial
    maps from the seed's training stream, then its batches: every variant with the
    same keys sees the same ones."""
    variant = VARIANTS[name]
    # Step 0 always: where every student started (variants.particulars reads it).
    steps = {0, *(config.recorded_snapshot_steps() if name == "main" else ()),
             *(config.recorded_trace_steps() if has_invisible_direction(variant) else ())}
    trained = []
    for seed in config.seeds:
        rng = data.generator(seed, "training")
        student = student_for(variant, config, seed, rng)
        trained.append(train.train(student, rng, config, R, variant.keys,
                                   tuple(sorted(steps)), variant.optimizer))
    return trained


def heldout_examples(seed: int, config: Config, variant: Variant,
                     R: torch.Tensor) -> data.Batch:
    """SEED's held-out examples, with one record per key of VARIANT."""
    return data.draw_examples(data.generator(seed, "heldout"), config.heldout_size, R,
                              config.query_scale, variant.keys)


def measured_seeds(config: Config, variant: Variant, trained: list[train.Trained],
                   R: torch.Tensor, heldout: list[data.Batch]) -> list[dict]:
    """One entry per seed: the seed, its learned maps, and every measurement on its own
    held-out examples, including what only this variant measures."""
    entries = []
    for seed, run, examples in zip(config.seeds, trained, heldout, strict=True):
        student = run.student
        entries.append({
            "seed": seed, "W_Q": student.W_Q.detach().tolist(),
            "W_V": student.W_V.detach().tolist(),
            **measure.measure(student, examples, R, config.shift, variant.keys),
            **particulars(variant, student, R, run.snapshots, config.recorded_trace_steps()),
        })
    return entries


def main_entries(per_seed: list[dict], trained: list[train.Trained], config: Config,
                 R: torch.Tensor) -> dict:
    """The main student's part of results.json, at its top level: with the optimiser,
    the loss traces and the snapshots, which only the main student records."""
    for seed, run in zip(per_seed, trained, strict=True):
        losses = run.loss_trace
        seed["loss_trace"] = losses.tolist()
        seed["uniform_attention_step"] = first_step_below(losses, seed["uniform_attention_mse"])
    crossings = [seed["uniform_attention_step"] for seed in per_seed]
    optimizer = trained[0].optimizer
    return {
        "optimizer": {"name": type(optimizer).__name__,
                      "betas": list(optimizer.defaults["betas"]),
                      "eps": optimizer.defaults["eps"]},
        "trainable_parameters": trainable_parameters(trained[0].student),
        "seeds": per_seed,
        "summary": summary(per_seed) | {"uniform_attention_step": (
            None if None in crossings else {"min": min(crossings), "max": max(crossings)})},
        "snapshots": snapshots(trained[0], config, R),
    }


def variant_entry(variant: Variant, per_seed: list[dict], trained: train.Trained,
                  config: Config) -> dict:
    """A variant's part of results.json, under variants.<name>; a variant trained with
    another optimiser than the main student's records it; `trained` is one seed's."""
    entry = {"trainable_parameters": trainable_parameters(trained.student)}
    if variant.optimizer != "adam":
        settings = trained.optimizer.defaults
        entry["optimizer"] = {"name": type(trained.optimizer).__name__,
                              "lr": settings["lr"], "momentum": settings["momentum"]}
    directions = measure.invisible_directions(variant.keys)
    if len(directions):
        entry["invisible_direction"] = directions[0].tolist()
        # E_q's own coefficient along it, per latent row: the part of the departure that
        # no prediction sees, so that no optimiser is pulled to learn it.
        entry["intended_invisible_component"] = (measure.INTENDED_QUERY
                                                 @ directions[0]).tolist()
        entry["invisible_drift"] = summary_span([s["invisible_drift"] for s in per_seed])
        # The steps of every seed's invisible_component_trace.
        entry["trace_steps"] = config.recorded_trace_steps()
    return entry | {"seeds": per_seed, "summary": summary(per_seed)}


def first_step_below(losses: torch.Tensor, level: float) -> int | None:
    """The first step from which every training loss is below `level`: one after the
    last step at or above it (batch noise can cross a level more than once)."""
    above = (losses >= level).nonzero()
    first = int(above[-1]) + 1 if len(above) else 0
    return first if first < len(losses) else None


def snapshots(trained: train.Trained, config: Config, R: torch.Tensor) -> dict:
    """The learned responses of the first seed (`trained`) after each recorded number
    of steps."""
    steps = sorted(trained.snapshots)
    # The very product measure.responses takes.
    query = [R @ trained.snapshots[step]["W_Q"] for step in steps]  # (9, 3) each
    value = [R @ trained.snapshots[step]["W_V"] for step in steps]
    query_error = [float((q - measure.INTENDED_QUERY).abs().max()) for q in query]
    value_error = [float((v - measure.INTENDED_VALUE).abs().max()) for v in value]
    return {
        "seed": config.seeds[0],
        "steps": steps,
        "query_response": [response.tolist() for response in query],
        "value_response": [response.tolist() for response in value],
        "max_response_error": [max(q, v) for q, v in zip(query_error, value_error,
                                                          strict=True)],
        "query_response_error": query_error,
        "value_response_error": value_error,
    }


def summary_span(values: list[float]) -> dict:
    return {"min": min(values), "max": max(values)}


def summary(per_seed: list[dict]) -> dict:
    """Smallest and largest value over seeds (and over features, for the erasures)."""
    span = summary_span

    def over_seeds(*path: str) -> dict:
        values = []
        for seed in per_seed:
            value = seed
            for key in path:
                value = value[key]
            values += value if isinstance(value, list) else [value]
        return span(values)

    return {
        "heldout_mse": over_seeds("heldout_mse"),
        "uniform_attention_mse": over_seeds("uniform_attention_mse"),
        "min_r2": over_seeds("min_r2"),
        "max_unexplained": over_seeds("max_unexplained"),
        "max_response_error": over_seeds("max_response_error"),
        "response_error": {"query": over_seeds("response_error", "query"),
                           "value": over_seeds("response_error", "value")},
        "score_map_error": over_seeds("score_map_error"),
        **{name: over_seeds("interventions", name)
           for name in ("erase_query", "erase_payload", "shift_irrelevant",
                        "erase_query_vs_teacher", "erase_payload_vs_teacher")},
    }


def complete(results: dict, files: list[str], total_seconds: float) -> dict:
    """`results` with the list of files this run wrote, and the timing last."""
    timing = results.pop("timing") | {"total_seconds": total_seconds}
    return results | {"files": sorted(files), "timing": timing}


def to_json(results: dict) -> bytes:
    """Stable text: keys in assembly order, floats as Python's shortest repr."""
    return (json.dumps(results, indent=2, allow_nan=False) + "\n").encode()


def load_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


def write_results(results: dict, path: Path) -> None:
    atomic_write(path, to_json(results))
