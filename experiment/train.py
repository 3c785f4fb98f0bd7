"""Training: the plain PyTorch step on fresh batches, every seed of a model at once.

Each step is forward, MSE, loss.backward() and Adam's update (lr from the config,
torch.optim.Adam's default betas and eps), or for the SGD control torch.optim.SGD's
plain step at config.sgd_learning_rate. The speed comes from batching: the seeds
train side by side in one Student (model.py says why each seed still follows its
own trajectory), and the batches of STEPS_PER_DRAW steps are drawn in one call per
seed. The pieces of PyTorch written out are the optimisers' updates (adam.py and
sgd.py say why).
"""

import time
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
import torch

from experiment import data
from experiment.adam import Adam
from experiment.config import Config
from experiment.model import Student, mse
from experiment.sgd import SGD

# Steps whose batches are drawn in one call (~1.2 MB of latents per seed): amortises
# the per-call cost without holding all 1200 batches; speed was flat from 10 to 60.
# Results do not depend on it, because consecutive draws continue one stream.
STEPS_PER_DRAW = 25


class Trained(NamedTuple):
    student: Student
    optimizer: Adam | SGD
    loss_trace: torch.Tensor  # (S, steps): each step's training MSE, before its update
    snapshots: dict[int, tuple[torch.Tensor, torch.Tensor]]  # step -> W_Q, W_V (S, 9, 3)
    seconds: float


def train_step(student: Student, optimizer: Adam | SGD | torch.optim.Optimizer,
               request: torch.Tensor, records: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """One update of every seed from its batch; returns the seeds' losses (S,)."""
    # --8<-- [start:train_step]
    prediction = student(request, records)   # (S, B, 3)
    loss = mse(prediction, target)           # (S,): one loss per seed
    optimizer.zero_grad()
    loss.sum().backward()                    # each seed's parameters get its own loss's gradient
    optimizer.step()
    # --8<-- [end:train_step]
    return loss.detach()


def batches(rngs: list[np.random.Generator], config: Config, R: torch.Tensor,
            keys: torch.Tensor = data.fixed_keys) -> Iterator[tuple[torch.Tensor, ...]]:
    """config.steps fresh batches, one per seed generator in `rngs`: request (S, B, 9),
    records (S, B, J, 9), target (S, B, 3)."""
    B = config.batch_size
    for first_step in range(0, config.steps, STEPS_PER_DRAW):
        steps_here = min(STEPS_PER_DRAW, config.steps - first_step)
        drawn = data.draw_examples(rngs, steps_here * B, R, config.query_scale, keys)
        for step in range(steps_here):
            this_step = slice(step * B, (step + 1) * B)
            yield drawn.request[:, this_step], drawn.records[:, this_step], \
                drawn.target[:, this_step]


def make_optimizer(name: str, student: Student, config: Config) -> Adam | SGD:
    """Adam ("adam", at config.learning_rate) or plain SGD ("sgd", no momentum, at
    config.sgd_learning_rate) over the student's parameters."""
    if name == "adam":
        return Adam(student.parameters(), lr=config.learning_rate)
    if name == "sgd":
        return SGD(student.parameters(), lr=config.sgd_learning_rate)
    raise ValueError(f"unknown optimiser {name!r}")


def train(student: Student, rngs: list[np.random.Generator], config: Config, R: torch.Tensor,
          keys: torch.Tensor = data.fixed_keys, snapshot_steps: tuple[int, ...] = (),
          optimizer_name: str = "adam") -> Trained:
    """Train `student` (one member per generator in `rngs`) for config.steps steps on
    examples with one record per key in `keys`, with OPTIMIZER_NAME ("adam", "sgd"); keep
    copies of W_Q and W_V after each of `snapshot_steps` updates."""
    return train_on_one_stream([student], [optimizer_name], rngs, config, R, keys,
                               snapshot_steps)[0]


def train_on_one_stream(students: list[Student], optimizer_names: list[str],
                        rngs: list[np.random.Generator], config: Config, R: torch.Tensor,
                        keys: torch.Tensor = data.fixed_keys,
                        snapshot_steps: tuple[int, ...] = ()) -> list[Trained]:
    """Train each of `students` as train() would, every one on the same batches, which
    are drawn once: students that would see the same batches (the same seeds and keys)
    pay for drawing them once. Each student's computation is its own, so each ends
    where it would alone, bit for bit. They share the wall time of the training."""
    start = time.perf_counter()
    optimizers = [make_optimizer(name, student, config)
                  for name, student in zip(optimizer_names, students, strict=True)]
    losses = [[] for _ in students]  # 0-dim tensors, one conversion at the end
    snapshots = [{} for _ in students]
    for step, (request, records, target) in enumerate(batches(rngs, config, R, keys)):
        for student, optimizer, trace, kept in zip(students, optimizers, losses, snapshots,
                                                   strict=True):
            if step in snapshot_steps:
                kept[step] = maps(student)
            trace.append(train_step(student, optimizer, request, records, target))
    trained = []
    for student, optimizer, trace, kept in zip(students, optimizers, losses, snapshots,
                                               strict=True):
        if config.steps in snapshot_steps:
            kept[config.steps] = maps(student)
        loss_trace = torch.stack(trace, dim=1)  # (S, steps)
        if not bool(torch.isfinite(loss_trace).all()):  # never write NaN into results.json
            raise FloatingPointError("training diverged")
        trained.append(Trained(student, optimizer, loss_trace, kept, 0.0))
    seconds = time.perf_counter() - start
    return [run._replace(seconds=seconds) for run in trained]


def maps(student: Student) -> tuple[torch.Tensor, torch.Tensor]:
    """Copies of the current W_Q and W_V, (S, 9, 3) each."""
    return student.W_Q.detach().clone(), student.W_V.detach().clone()
