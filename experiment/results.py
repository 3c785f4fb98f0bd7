"""Run every seed, assemble results.json, and write files atomically.

The layout is versioned ("format_version") and described by the JSON Schema in
results.schema.json next to this file. Two runs of the same code give
byte-identical files except for the "timing" object.
"""

import json
import platform
import time
from pathlib import Path

import torch

from experiment import data, measure, train
from experiment.config import Config
from provenance.files import atomic_write
from provenance.source import source_hash as _source_hash

FORMAT = "feature-recovery-results"
FORMAT_VERSION = 1
PACKAGE_DIR = Path(__file__).resolve().parent
SCHEMA_PATH = PACKAGE_DIR / "results.schema.json"


def source_hash() -> str:
    """The experiment's source hash, by the rule the site build caches runs with."""
    return _source_hash(PACKAGE_DIR.parent, PACKAGE_DIR.name)


def run(config: Config) -> dict:
    """Train and measure every seed of `config`; return the results.json content."""
    started = time.perf_counter()
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(config.threads)
    try:
        R = data.mixing_matrix(config.mixing_seed)  # (9, 9), shared by every seed
        per_seed, train_seconds = [], []
        for seed in config.seeds:
            trained = train.train_seed(config, seed, R)
            trainable = sum(p.numel() for p in trained.student.parameters() if p.requires_grad)
            train.check_finite(trained)
            train_seconds.append(trained.seconds)
            per_seed.append(seed_results(config, trained, R))
    finally:
        torch.set_num_threads(previous_threads)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "config": config.as_dict(),
        "versions": {"python": platform.python_version(), "torch": torch.__version__},
        "source_hash": source_hash(),
        "fixed_keys": data.fixed_keys.tolist(),
        "key_difference_rank": {
            "four_keys": measure.key_difference_rank(data.fixed_keys),
            "three_keys": measure.key_difference_rank(data.fixed_keys[:3]),
        },
        "mixing_matrix": R.tolist(),
        "trainable_parameters": trainable,
        "seeds": per_seed,
        "summary": summary(per_seed),
        "timing": {
            "total_seconds": time.perf_counter() - started,
            "train_seconds": train_seconds,
        },
    }


def seed_results(config: Config, trained: train.TrainedSeed, R: torch.Tensor) -> dict:
    heldout_rng = data.generator(trained.seed, "heldout")
    heldout = data.draw_examples(heldout_rng, config.heldout_size, R, config.query_scale)
    measured = measure.measure_seed(trained.student, heldout, R, config.shift)
    return {
        "seed": trained.seed,
        "wq": trained.student.Wq.detach().tolist(),
        "wv": trained.student.Wv.detach().tolist(),
        "query_response": measured["query_response"],
        "value_response": measured["value_response"],
        "loss_trace": trained.loss_trace.tolist(),
        "heldout_mse": measured["heldout_mse"],
        "uniform_attention_mse": measured["uniform_attention_mse"],
        "r2": measured["r2"],
        "min_r2": measured["min_r2"],
        "max_unexplained": measured["max_unexplained"],
        "interventions": measured["interventions"],
    }


def summary(per_seed: list[dict]) -> dict:
    """Smallest and largest value over seeds (and over features, for the erasures)."""
    def span(values):
        return {"min": min(values), "max": max(values)}

    def pooled(name):
        return [value for s in per_seed for value in s["interventions"][name]]

    return {
        "heldout_mse": span([s["heldout_mse"] for s in per_seed]),
        "uniform_attention_mse": span([s["uniform_attention_mse"] for s in per_seed]),
        "min_r2": span([s["min_r2"] for s in per_seed]),
        "erase_query": span(pooled("erase_query")),
        "erase_payload": span(pooled("erase_payload")),
        "shift_irrelevant": span([s["interventions"]["shift_irrelevant"] for s in per_seed]),
    }


def to_json(results: dict) -> bytes:
    """Stable text: keys in assembly order, floats as Python's shortest repr."""
    return (json.dumps(results, indent=2, allow_nan=False) + "\n").encode()


def load_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


def write_results(results: dict, path: Path) -> None:
    atomic_write(path, to_json(results))
