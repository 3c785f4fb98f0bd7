"""Wall time of the experiment's training against the plain per-seed loop, and of a run.

    .venv/bin/python benchmarks/bench_experiment.py [--repeats N]

Training the main student for every seed of the default config, the same data each way:
(a) plain loop: tests/experiment/plain_loop.py, one seed after another, one batch drawn
    per step, loss.backward() and optimizer.step(): the loop a reader writes first;
(b) one seed at a time through experiment.train (batches drawn 25 steps at a time);
(c) experiment.train with every seed side by side: what `python -m experiment` runs.
(b) and (c) separate the sources of speed: batches drawn 25 steps at a time and
Adam's update written out (experiment/adam.py: no torch._dynamo, which the plain
loop's torch.optim.Adam imports and wraps every step in), then the seeds side by
side. Target: (c) / (a) <= 0.5.

Then the whole process, `python -m experiment --out TMP` in a fresh interpreter: with
figures, and with --no-figures. All in one run, alternating, so that machine noise hits
each alike. It asserts nothing about time.
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
from tests.experiment.plain_loop import train_one_seed  # noqa: E402

CONFIG = Config()


def plain_loop(R):
    return [train_one_seed(CONFIG, seed, R)[1][-1] for seed in CONFIG.seeds]


def package(R, seeds):
    config = Config(seeds=seeds)
    rngs = [data.generator(seed, "training") for seed in seeds]
    student = student_for(VARIANTS["main"], config, rngs)
    return train.train(student, rngs, config, R).loss_trace[:, -1]


def one_seed_at_a_time(R):
    return [package(R, (seed,)) for seed in CONFIG.seeds]


def side_by_side(R):
    return package(R, CONFIG.seeds)


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
    side_by_side(R)  # the first training pays one-time costs (lazy imports, first kernels)
    training = timed_alternately({
        "(a) plain loop, per seed": lambda: plain_loop(R),
        "(b) train(), per seed": lambda: one_seed_at_a_time(R),
        "(c) train(), side by side": lambda: side_by_side(R),
    }, repeats)
    for name, seconds in training.items():
        print(f"{name:30s} {describe(seconds)}")
    plain, batched = training["(a) plain loop, per seed"], training["(c) train(), side by side"]
    print(f"    ratio (c)/(a)              best {min(batched) / min(plain):6.3f}     median "
          f"{statistics.median(batched) / statistics.median(plain):6.3f}   (target <= 0.5)")
    print(f"    last training loss per seed: plain "
          f"{', '.join(f'{float(m):.2e}' for m in plain_loop(R))}")
    print(f"                                 batched "
          f"{', '.join(f'{float(m):.2e}' for m in side_by_side(R))}")
    process = timed_alternately({
        "python -m experiment": whole_run,
        "python -m experiment --no-figures": lambda: whole_run("--no-figures"),
    }, max(1, repeats // 2))
    for name, seconds in process.items():
        print(f"{name:36s} {describe(seconds)}")


if __name__ == "__main__":
    main()
