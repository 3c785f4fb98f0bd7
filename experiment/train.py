"""Training: the plain PyTorch loop, one student of one seed at a time.

Each step draws a fresh batch from the seed's training stream and makes one
update: forward, MSE, loss.backward() and the optimiser's step, torch.optim.Adam
(config.learning_rate, its default betas and eps) or, for the SGD control,
torch.optim.SGD (config.sgd_learning_rate, no momentum).
"""

import time
from typing import NamedTuple

import numpy as np
import torch

from experiment import data
from experiment.config import Config
from experiment.model import Student, mse


class Trained(NamedTuple):
    student: Student
    optimizer: torch.optim.Optimizer
    loss_trace: torch.Tensor  # (steps,): each step's training MSE, before its update
    snapshots: dict[int, dict[str, torch.Tensor]]  # step -> a copy of every parameter
    seconds: float


def make_optimizer(name: str, student: Student, config: Config) -> torch.optim.Optimizer:
    """Adam ("adam", at config.learning_rate) or plain SGD ("sgd", no momentum, at
    config.sgd_learning_rate) over the student's parameters."""
    if name == "adam":
        return torch.optim.Adam(student.parameters(), lr=config.learning_rate)
    if name == "sgd":
        return torch.optim.SGD(student.parameters(), lr=config.sgd_learning_rate)
    raise ValueError(f"unknown optimiser {name!r}")


def train(student: Student, rng: np.random.Generator, config: Config, R: torch.Tensor,
          keys: torch.Tensor = data.fixed_keys, snapshot_steps: tuple[int, ...] = (),
          optimizer_name: str = "adam") -> Trained:
    """Train one seed's `student` for config.steps steps, on batches from its training
    stream `rng` with one record per key in `keys`, with OPTIMIZER_NAME ("adam",
    "sgd"); keep a copy of its parameters after each of `snapshot_steps` updates."""
    start = time.perf_counter()
    # --8<-- [start:loop]
    optimizer = make_optimizer(optimizer_name, student, config)  # Adam, or SGD
    B, scale = config.batch_size, config.query_scale
    losses, snapshots = [], {}
    for step in range(config.steps):
        if step in snapshot_steps:
            snapshots[step] = parameters(student)
        batch = data.draw_examples(rng, B, R, scale, keys)
        prediction = student(batch.request, batch.records)  # (B, 3)
        loss = mse(prediction, batch.target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    # --8<-- [end:loop]
    if config.steps in snapshot_steps:
        snapshots[config.steps] = parameters(student)
    loss_trace = torch.tensor(losses, dtype=torch.float64)  # (steps,)
    if not bool(torch.isfinite(loss_trace).all()):  # never write NaN into results.json
        raise FloatingPointError("training diverged")
    return Trained(student, optimizer, loss_trace, snapshots, time.perf_counter() - start)


def parameters(student: Student) -> dict[str, torch.Tensor]:
    """A copy of every parameter as it is now: W_Q, W_V (9, 3), learned keys (J, 3)."""
    return {name: p.detach().clone() for name, p in student.named_parameters()}
