"""experiment.adam.Adam is torch.optim.Adam's update, bit for bit: the plain form beside it."""

import math
import subprocess
import sys

import pytest
import torch

from experiment import data, train
from experiment.adam import Adam
from experiment.config import Config
from experiment.variants import VARIANTS, student_for
from tests.project import ROOT

CONFIG = Config(seeds=(0, 1), steps=200)
R = data.mixing_matrix(CONFIG.mixing_seed)


def trajectory(variant: str, make_optimizer) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """The loss trace (S, steps) and the final parameters of CONFIG's seeds."""
    rngs = [data.generator(seed, "training") for seed in CONFIG.seeds]
    student = student_for(VARIANTS[variant], CONFIG, rngs)
    optimizer = make_optimizer(student.parameters(), lr=CONFIG.learning_rate)
    losses = [train.train_step(student, optimizer, *batch)
              for batch in train.batches(rngs, CONFIG, R, VARIANTS[variant].keys)]
    return torch.stack(losses, dim=1), [p.detach() for p in student.parameters()]


@pytest.mark.parametrize("variant", ["main", "learned_keys"])  # two and three parameters
def test_adam_takes_torch_optim_adams_steps_bit_for_bit(variant):
    ours, torchs = trajectory(variant, Adam), trajectory(variant, torch.optim.Adam)
    assert torch.equal(ours[0], torchs[0])
    assert len(ours[1]) == len(torchs[1])
    assert all(torch.equal(a, b) for a, b in zip(ours[1], torchs[1], strict=True))


def test_the_comparison_sees_a_one_ulp_change_of_the_learning_rate():
    # The bit-for-bit test can fail: a rate one unit in the last place higher shows.
    class Nudged(Adam):
        def __init__(self, params, lr):
            super().__init__(params, math.nextafter(lr, 1.0))

    ours, nudged = trajectory("main", Adam), trajectory("main", Nudged)
    assert not all(torch.equal(a, b) for a, b in zip(ours[1], nudged[1], strict=True))


def test_training_never_imports_torchs_compiler():
    # The reason Adam is written out: torch.optim.Adam imports torch._dynamo (~1 s).
    code = ("import sys; from experiment.config import Config; from experiment.results import run; "
            "run(Config(seeds=(0,), steps=2)); print('torch._dynamo' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "False"


def test_a_parameter_without_a_gradient_is_a_clear_error():
    used, unused = torch.zeros(2, requires_grad=True), torch.zeros(2, requires_grad=True)
    optimizer = Adam([used, unused], lr=CONFIG.learning_rate)
    used.sum().backward()
    with pytest.raises(ValueError, match="no gradient"):
        optimizer.step()
