"""Wall time of the experiment's training, one student per seed, and of a run.

    .venv/bin/python benchmarks/bench_experiment.py [--repeats N]

Training every student of experiment/variants.py for every seed of the default
config, in the loop `python -m experiment` runs (experiment.train.train), one
variant after another; then the whole process, `python -m experiment --out TMP`
in a fresh interpreter, with figures and with --no-figures. Each in turn, so that
machine noise hits each alike. It asserts nothing about time.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from experiment import data, train  # noqa: E402
from experiment.config import Config  # noqa: E402
from experiment.results import THREADS  # noqa: E402
from experiment.variants import VARIANTS, student_for  # noqa: E402

CONFIG = Config()


def train_every_seed(name: str, R: torch.Tensor) -> list[float]:
    """Train variant NAME for every seed of CONFIG; return each seed's last loss."""
    variant, last = VARIANTS[name], []
    for seed in CONFIG.seeds:
        rng = data.generator(seed, "training")
        student = student_for(variant, CONFIG, seed, rng)
        run = train.train(student, rng, CONFIG, R, variant.keys,
                          optimizer_name=variant.optimizer)
        last.append(float(run.loss_trace[-1]))
    return last


def whole_run(*flags):
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run([sys.executable, "-m", "experiment", "--out", out, *flags],
                              cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"python -m experiment failed:\n{done.stderr}")


def describe(seconds):
    return f"best {min(seconds):6.3f} s   median {statistics.median(seconds):6.3f} s"


def timed_alternately(functions: dict, repeats: int) -> dict:
    times = {name: [] for name in functions}
    for _ in range(repeats):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - start)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    torch.set_num_threads(THREADS)
    R = data.mixing_matrix(CONFIG.mixing_seed)
    print(f"torch {torch.__version__}, {CONFIG.steps} steps x {len(CONFIG.seeds)} seeds, "
          f"{repeats} repeats, alternating")
    train_every_seed("main", R)  # the first training pays one-time costs (imports, kernels)
    training = timed_alternately({name: lambda name=name: train_every_seed(name, R)
                                  for name in VARIANTS}, repeats)
    for name, seconds in training.items():
        print(f"{name:36s} {describe(seconds)}")
    process = timed_alternately({
        "python -m experiment": whole_run,
        "python -m experiment --no-figures": lambda: whole_run("--no-figures"),
    }, max(1, repeats // 2))
    for name, seconds in process.items():
        print(f"{name:36s} {describe(seconds)}")


if __name__ == "__main__":
    main()
