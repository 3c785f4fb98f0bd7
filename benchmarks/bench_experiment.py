"""Wall time of the experiment's default run against a straightforward loop.

    .venv/bin/python benchmarks/bench_experiment.py [--repeats N]

(a) baseline: the loop most people would write first: per seed a fresh
    nn.Module, torch.manual_seed, a fresh torch.randn batch every step,
    autograd, default torch.optim.Adam and loss.item() every step.
(b) package: `python -m experiment --out TMP --no-figures` in this process:
    three seeds, every measurement, results.json written.
(c) the largest fixed cost of both: one seed's training normals from torch.randn
    and from the numpy SFC64 generator that experiment/data.py uses.

Prints times (best and median of --repeats) and the ratio package / baseline,
and the held-out MSE each way reaches, to show the conclusions are the same.
It asserts nothing about time.
"""

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from experiment import data  # noqa: E402
from experiment.__main__ import main as experiment_main  # noqa: E402
from experiment.config import Config  # noqa: E402

CONFIG = Config()
KEYS = torch.tensor([[1., 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], dtype=torch.float64)


class BaselineStudent(nn.Module):
    def __init__(self):
        super().__init__()
        self.Wq = nn.Parameter(torch.randn(9, 3, dtype=torch.float64) * CONFIG.init_scale)
        self.Wv = nn.Parameter(torch.randn(9, 3, dtype=torch.float64) * CONFIG.init_scale)

    def forward(self, request, records):
        q = request @ self.Wq
        V = records @ self.Wv
        A = torch.softmax(q @ KEYS.T / 3**0.5, dim=-1)
        return (A.unsqueeze(-1) * V).sum(dim=1)


def baseline_batch(n, R):
    z = torch.randn(n, 5, 9, dtype=torch.float64)
    z[:, :, :3] *= CONFIG.query_scale
    x = z @ R
    weights = torch.softmax(z[:, 0, :3] @ KEYS.T / 3**0.5, dim=-1)
    target = (weights.unsqueeze(-1) * z[:, 1:, 3:6]).sum(dim=1)
    return x[:, 0], x[:, 1:], target


def baseline(R):
    """Train every seed the straightforward way; return each seed's held-out MSE."""
    torch.set_num_threads(CONFIG.threads)
    heldout_mse = []
    for seed in CONFIG.seeds:
        torch.manual_seed(seed)
        model = BaselineStudent()
        optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG.learning_rate)
        losses = []
        for _ in range(CONFIG.steps):
            request, records, target = baseline_batch(CONFIG.batch_size, R)
            loss = ((model(request, records) - target) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        with torch.no_grad():
            request, records, target = baseline_batch(CONFIG.heldout_size, R)
            heldout_mse.append(((model(request, records) - target) ** 2).mean().item())
    return heldout_mse


def package():
    """The package's default run without figures; return each seed's held-out MSE."""
    with tempfile.TemporaryDirectory() as out:
        if experiment_main(["--out", out, "--no-figures"]) != 0:
            raise SystemExit("python -m experiment failed")
        results = json.loads((Path(out) / "results.json").read_text())
    return [seed["heldout_mse"] for seed in results["seeds"]]


def normals_torch():
    torch.randn(CONFIG.steps * CONFIG.batch_size, 5, 9, dtype=torch.float64,
                generator=torch.Generator().manual_seed(0))


def normals_numpy():
    data.generator(0, "training").standard_normal((CONFIG.steps * CONFIG.batch_size, 5, 9))


def timed(function, repeats):
    seconds, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        seconds.append(time.perf_counter() - start)
    return seconds, value


def describe(seconds):
    return f"best {min(seconds):6.3f} s   median {statistics.median(seconds):6.3f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    torch.set_num_threads(CONFIG.threads)
    R = data.mixing_matrix(CONFIG.mixing_seed)
    print(f"torch {torch.__version__}, {CONFIG.steps} steps x {len(CONFIG.seeds)} seeds, "
          f"{repeats} repeats, alternating")
    base_times, pack_times = [], []
    for _ in range(repeats):  # alternate, so that machine noise hits both alike
        seconds, base_mse = timed(lambda: baseline(R), 1)
        base_times += seconds
        seconds, pack_mse = timed(package, 1)
        pack_times += seconds
    print(f"(a) baseline loop      {describe(base_times)}")
    print(f"(b) package, no figs   {describe(pack_times)}")
    print(f"    ratio (b)/(a)      best {min(pack_times) / min(base_times):6.3f}     median "
          f"{statistics.median(pack_times) / statistics.median(base_times):6.3f}")
    print(f"    held-out MSE per seed: baseline {', '.join(f'{m:.2e}' for m in base_mse)}")
    print(f"                           package  {', '.join(f'{m:.2e}' for m in pack_mse)}")
    torch_normals, _ = timed(normals_torch, repeats)
    numpy_normals, _ = timed(normals_numpy, repeats)
    print(f"(c) one seed's normals: torch.randn {describe(torch_normals)}")
    print(f"                        numpy SFC64 {describe(numpy_normals)}")


if __name__ == "__main__":
    main()
