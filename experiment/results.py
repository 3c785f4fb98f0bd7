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

from experiment import data, measure, train
from experiment.config import Config
from experiment.model import trainable_parameters
from experiment.variants import VARIANTS, Variant, particulars, student_for
from provenance.files import atomic_write
from provenance.source import source_hash as _source_hash

FORMAT = "feature-recovery-results"
FORMAT_VERSION = 2
PACKAGE_DIR = Path(__file__).resolve().parent
SCHEMA_PATH = PACKAGE_DIR / "results.schema.json"
# One thread keeps floating-point reductions in one order: bit-identical reruns.
THREADS = 1


def source_hash() -> str:
    """The experiment's source hash, by the rule the site build caches runs with."""
    return _source_hash(PACKAGE_DIR.parent, PACKAGE_DIR.name)


def run(config: Config, on_measured: Callable[[str, dict], None] | None = None) -> dict:
    """Train and measure every variant for every seed of `config`; return the content of
    results.json without "files". `on_measured(variant, results so far)` is called as
    soon as a variant's numbers are in, so that its figures can be drawn meanwhile."""
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    try:
        R = data.mixing_matrix(config.mixing_seed)  # (9, 9), shared by every seed and variant
        results, seconds = header(config, R), {}
        for group in TRAINED_TOGETHER:
            for name, trained in zip(group, train_variants(config, group, R), strict=True):
                seconds[name] = trained.seconds
                measure_variant(name, trained, config, R, results, on_measured)
    finally:
        torch.set_num_threads(previous_threads)
    results["timing"] = {"training_seconds": seconds}
    return results


# Variants trained in one loop on one draw of their (identical) batches: the SGD control
# sees the three-keys student's batches by construction, and pays nothing to draw them.
TRAINED_TOGETHER = (("main",), ("learned_keys",), ("three_keys", "three_keys_sgd"))


def measure_variant(name: str, trained: train.Trained, config: Config, R: torch.Tensor,
                    results: dict, on_measured: Callable[[str, dict], None] | None) -> None:
    """Measure variant NAME into `results`, then tell `on_measured`."""
    variant = VARIANTS[name]
    heldout = heldout_examples(config, variant, R)
    per_seed = measured_seeds(config, variant, trained, R, heldout)
    if name == "main":
        results |= main_entries(per_seed, trained, config, R)
        results["data"] = measure.data_statistics(heldout.latents, R)
    else:
        results.setdefault("variants", {})[name] = variant_entry(variant, per_seed, trained)
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


def train_variants(config: Config, names: tuple[str, ...],
                   R: torch.Tensor) -> list[train.Trained]:
    """Train the variants NAMES, which share their keys, on one stream of batches. Each
    student draws its initial maps from a fresh copy of every seed's training stream,
    the same draws for all of them; the batches continue the first one's stream."""
    variants = [VARIANTS[name] for name in names]
    students, rngs = [], None
    for variant in variants:
        own = [data.generator(seed, "training") for seed in config.seeds]
        students.append(student_for(variant, config, own))
        rngs = rngs or own
    # Step 0 always: where every student started (variants.particulars reads it).
    steps = {0, *(config.recorded_snapshot_steps() if "main" in names else ())}
    keys = variants[0].keys
    if any(not torch.equal(variant.keys, keys) for variant in variants):
        raise ValueError(f"variants {names} have different keys: they see different batches")
    return train.train_on_one_stream(students, [variant.optimizer for variant in variants],
                                     rngs, config, R, keys, tuple(sorted(steps)))


def heldout_examples(config: Config, variant: Variant, R: torch.Tensor) -> data.Batch:
    """Every seed's held-out examples, with one record per key of VARIANT."""
    return data.draw_examples([data.generator(seed, "heldout") for seed in config.seeds],
                              config.heldout_size, R, config.query_scale, variant.keys)


def measured_seeds(config: Config, variant: Variant, trained: train.Trained,
                   R: torch.Tensor, heldout: data.Batch) -> list[dict]:
    """One entry per seed: the seed, its learned maps, and every measurement on its own
    held-out examples, including what only this variant measures."""
    student = trained.student
    measured = measure.measure(student, heldout, R, config.shift, variant.keys)
    return [
        {"seed": seed, "W_Q": W_Q.tolist(), "W_V": W_V.tolist(), **seed_measured, **seed_extra}
        for seed, W_Q, W_V, seed_measured, seed_extra in zip(
            config.seeds, student.W_Q.detach(), student.W_V.detach(), measured,
            particulars(variant, student, R, trained.snapshots[0][0]), strict=True)
    ]


def main_entries(per_seed: list[dict], trained: train.Trained, config: Config,
                 R: torch.Tensor) -> dict:
    """The main student's part of results.json, at its top level: with the optimiser,
    the loss traces and the snapshots, which only the main student records."""
    for seed, losses in zip(per_seed, trained.loss_trace, strict=True):
        seed["loss_trace"] = losses.tolist()
        seed["uniform_attention_step"] = first_step_below(losses, seed["uniform_attention_mse"])
    crossings = [seed["uniform_attention_step"] for seed in per_seed]
    return {
        "optimizer": {"name": type(trained.optimizer).__name__,
                      "betas": list(trained.optimizer.betas), "eps": trained.optimizer.eps},
        "trainable_parameters": trainable_parameters(trained.student),
        "seeds": per_seed,
        "summary": summary(per_seed) | {"uniform_attention_step": (
            None if None in crossings else {"min": min(crossings), "max": max(crossings)})},
        "snapshots": snapshots(trained, config, R),
    }


def variant_entry(variant: Variant, per_seed: list[dict], trained: train.Trained) -> dict:
    """A variant's part of results.json, under variants.<name>; a variant trained with
    another optimiser than the main student's records it."""
    entry = {"trainable_parameters": trainable_parameters(trained.student)}
    if variant.optimizer != "adam":
        entry["optimizer"] = {"name": type(trained.optimizer).__name__,
                              "lr": trained.optimizer.lr,
                              "momentum": trained.optimizer.momentum}
    directions = measure.invisible_directions(variant.keys)
    if len(directions):
        entry["invisible_direction"] = directions[0].tolist()
        # E_q's own coefficient along it, per latent row: the part of the departure that
        # no prediction sees, so that no optimiser is pulled to learn it.
        entry["intended_invisible_component"] = (measure.INTENDED_QUERY
                                                 @ directions[0]).tolist()
        entry["invisible_drift"] = summary_span([s["invisible_drift"] for s in per_seed])
    return entry | {"seeds": per_seed, "summary": summary(per_seed)}


def first_step_below(losses: torch.Tensor, level: float) -> int | None:
    """The first step from which every training loss is below `level`: one after the
    last step at or above it (batch noise can cross a level more than once)."""
    above = (losses >= level).nonzero()
    first = int(above[-1]) + 1 if len(above) else 0
    return first if first < len(losses) else None


def snapshots(trained: train.Trained, config: Config, R: torch.Tensor) -> dict:
    """The first seed's learned responses after each recorded number of steps."""
    steps = sorted(trained.snapshots)
    # R @ every seed's maps, then the first seed's: the very product measure.responses takes.
    query = [(R @ trained.snapshots[step][0])[0] for step in steps]  # (9, 3) each
    value = [(R @ trained.snapshots[step][1])[0] for step in steps]
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
