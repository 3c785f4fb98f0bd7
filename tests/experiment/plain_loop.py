"""The training loop a reader would write first, for one seed: the reference that
the batched training is checked against (tests) and timed against (benchmarks).

It uses the package's data, model and step, one seed at a time, and draws one
batch per step; consecutive draws continue one stream, so it sees the very
batches that experiment.train draws STEPS_PER_DRAW steps at a time.
"""

import torch

from experiment import data
from experiment.config import Config
from experiment.model import initial_student, mse


def train_one_seed(config: Config, seed: int, R: torch.Tensor):
    """Train seed SEED alone; return its student (S = 1) and loss trace (steps,)."""
    rng = data.generator(seed, "training")
    student = initial_student([rng], config.init_scale)
    optimizer = torch.optim.Adam(student.parameters(), lr=config.learning_rate)
    losses = []
    for _ in range(config.steps):
        batch = data.draw_examples([rng], config.batch_size, R, config.query_scale)
        loss = mse(student(batch.request, batch.records), batch.target)
        optimizer.zero_grad()
        loss.sum().backward()
        optimizer.step()
        losses.append(loss.detach()[0])
    return student, torch.stack(losses)
