"""Training: plain gradient descent with Adam on fresh batches, one seed at a time.

The forward pass is the student's plain one (model.py). The backward pass and
Adam's update are written out below instead of calling autograd and
torch.optim.Adam: with 54 parameters and batches of 128, their bookkeeping
costs more than the arithmetic (measured: autograd's forward and backward take
about three times as long as the forward plus this backward). Both are checked
against PyTorch in tests/experiment/test_training.py: the gradients agree to
rounding, and the Adam update is bit-for-bit torch.optim.Adam's.
"""

import time
from typing import NamedTuple

import torch

from experiment import data
from experiment.config import Config
from experiment.data import fixed_keys
from experiment.model import Student, initial_student, mse

# Steps whose batches are drawn in one call (~1.2 MB of latents): amortises the
# per-call cost without holding all 1200 batches; speed was flat from 10 to 60.
# Results do not depend on it, because consecutive draws continue one stream.
STEPS_PER_DRAW = 25
SCALED_KEYS = fixed_keys / 3**0.5  # (4, 3)


class TrainedSeed(NamedTuple):
    seed: int
    student: Student
    loss_trace: torch.Tensor  # (steps,) training MSE of each step's batch, before its update
    seconds: float


def gradients(student_output, request, records, target):
    """d loss / d Wq and d loss / d Wv, both (9, 3), by the chain rule through forward."""
    prediction, A, V = student_output  # (B, 3), (B, 4), (B, 4, 3)
    d_prediction = (prediction - target) * (2 / prediction.numel())  # (B, 3)
    # prediction = sum_j A_j v_j: the score of record j moves it along v_j.
    d_A = (V @ d_prediction.unsqueeze(-1)).squeeze(-1)  # (B, 4)
    d_scores = A * (d_A - (A * d_A).sum(dim=-1, keepdim=True))  # softmax's Jacobian, (B, 4)
    # scores = request @ Wq @ fixed_keys.T / sqrt(3); (9, B) @ (B, 4) first is the cheaper order.
    grad_Wq = (request.T @ d_scores) @ SCALED_KEYS  # (9, 3)
    # prediction = (sum_j A_j x_j) @ Wv, so Wv sees the attention-weighted record.
    attended_records = (A.unsqueeze(-1) * records).sum(dim=1)  # (B, 9)
    return grad_Wq, attended_records.T @ d_prediction


class Adam:
    """Adam as torch.optim.Adam computes it (single-tensor path, no weight decay)."""

    def __init__(self, params, lr: float, betas: tuple[float, float], eps: float):
        self.params = list(params)
        self.lr, (self.beta1, self.beta2), self.eps = lr, betas, eps
        self.exp_avg = [torch.zeros_like(p) for p in self.params]
        self.exp_avg_sq = [torch.zeros_like(p) for p in self.params]
        self.steps = 0

    def step(self, grads) -> None:
        """Update every parameter in place; call under torch.no_grad()."""
        self.steps += 1
        step_size = self.lr / (1 - self.beta1**self.steps)
        bias_correction2_sqrt = (1 - self.beta2**self.steps) ** 0.5
        for param, grad, exp_avg, exp_avg_sq in zip(
            self.params, grads, self.exp_avg, self.exp_avg_sq, strict=True
        ):
            exp_avg.lerp_(grad, 1 - self.beta1)
            exp_avg_sq.mul_(self.beta2).addcmul_(grad, grad, value=1 - self.beta2)
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(self.eps)
            param.addcdiv_(exp_avg, denom, value=-step_size)


def optimizer_for(student: Student, config: Config) -> Adam:
    return Adam(student.parameters(), config.learning_rate, config.adam_betas, config.adam_eps)


def train_seed(config: Config, seed: int, R: torch.Tensor) -> TrainedSeed:
    """Train one student from `seed` on config.steps fresh batches."""
    start = time.perf_counter()
    rng = data.generator(seed, "training")
    student = initial_student(rng, config.init_scale)
    optimizer = optimizer_for(student, config)
    B = config.batch_size
    losses = []  # 0-dim tensors; one conversion at the end instead of a sync per step
    with torch.no_grad():
        for first_step in range(0, config.steps, STEPS_PER_DRAW):
            steps_here = min(STEPS_PER_DRAW, config.steps - first_step)
            batches = data.draw_examples(rng, steps_here * B, R, config.query_scale)
            for request, records, target in zip(  # (B, 9), (B, 4, 9), (B, 3) per step
                batches.request.split(B), batches.records.split(B), batches.target.split(B),
                strict=True,
            ):
                output = student(request, records)
                losses.append(mse(output[0], target))
                optimizer.step(gradients(output, request, records, target))
    loss_trace = torch.stack(losses)
    return TrainedSeed(seed, student, loss_trace, time.perf_counter() - start)


def check_finite(trained: TrainedSeed) -> None:
    """Fail loudly rather than write NaN into results.json."""
    if not bool(torch.isfinite(trained.loss_trace).all()):
        raise FloatingPointError(f"training diverged for seed {trained.seed}")
