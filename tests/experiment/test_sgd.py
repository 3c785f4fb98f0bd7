"""experiment.sgd.SGD is torch.optim.SGD's update, bit for bit: the plain form beside it."""

import math

import pytest
import torch

from experiment import data, train
from experiment.config import Config
from experiment.sgd import SGD
from experiment.variants import VARIANTS, student_for

CONFIG = Config(seeds=(0, 1), steps=100)
R = data.mixing_matrix(CONFIG.mixing_seed)


def trajectory(variant: str, make_optimizer, lr: float = CONFIG.sgd_learning_rate):
    """The loss trace (S, steps) and the final parameters of CONFIG's seeds."""
    rngs = [data.generator(seed, "training") for seed in CONFIG.seeds]
    student = student_for(VARIANTS[variant], CONFIG, rngs)
    optimizer = make_optimizer(student.parameters(), lr=lr)
    losses = [train.train_step(student, optimizer, *batch)
              for batch in train.batches(rngs, CONFIG, R, VARIANTS[variant].keys)]
    return torch.stack(losses, dim=1), [p.detach() for p in student.parameters()]


@pytest.mark.parametrize("variant", ["three_keys_sgd", "learned_keys"])  # two and three parameters
def test_sgd_takes_torch_optim_sgds_steps_bit_for_bit(variant):
    ours, torchs = trajectory(variant, SGD), trajectory(variant, torch.optim.SGD)
    assert torch.equal(ours[0], torchs[0])
    assert len(ours[1]) == len(torchs[1])
    assert all(torch.equal(a, b) for a, b in zip(ours[1], torchs[1], strict=True))


def test_the_comparison_sees_a_one_ulp_change_of_the_learning_rate():
    nudged = math.nextafter(CONFIG.sgd_learning_rate, 2.0)
    ours, other = trajectory("three_keys_sgd", SGD), trajectory("three_keys_sgd", SGD, nudged)
    assert not all(torch.equal(a, b) for a, b in zip(ours[1], other[1], strict=True))


def test_a_parameter_without_a_gradient_is_a_clear_error():
    used, unused = torch.zeros(2, requires_grad=True), torch.zeros(2, requires_grad=True)
    optimizer = SGD([used, unused], lr=0.1)
    used.sum().backward()
    with pytest.raises(ValueError, match="no gradient"):
        optimizer.step()
