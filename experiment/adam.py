"""Adam written out: torch.optim.Adam's update with its defaults, bit for bit.

Why not torch.optim.Adam itself: its constructor and its step go through
torch._dynamo, PyTorch's compiler. That is an import of about a second, and two
graph breaks and a wrapper on every step: 1.2-1.7 s of the experiment's 7 s, on the
critical path of every site build (see the commit that added this file). The plain
form stays beside it: tests/experiment/test_adam.py trains with both and asks for
the same bits, and the tests' plain loop (tests/experiment/plain_loop.py) uses
torch.optim.Adam.
"""

import inspect
from collections.abc import Iterable

import torch

# torch.optim.Adam's defaults, read from its signature: building one to ask would
# import torch._dynamo, the cost this module exists to avoid.
_DEFAULTS = inspect.signature(torch.optim.Adam).parameters
BETAS: tuple[float, float] = _DEFAULTS["betas"].default
EPS: float = _DEFAULTS["eps"].default


class Adam:
    """torch.optim.Adam(params, lr) on CPU tensors: the update of its default path
    (torch/optim/adam.py, _single_tensor_adam: no weight decay, amsgrad or maximize).

    One step count for all parameters: every parameter must have a gradient at every
    step, as every parameter of the students does (torch.optim.Adam would skip one
    without and count its steps apart)."""

    def __init__(self, params: Iterable[torch.Tensor], lr: float):
        self.params = list(params)
        self.lr, self.betas, self.eps = lr, BETAS, EPS
        self.steps = 0
        self.exp_avg = [torch.zeros_like(p) for p in self.params]      # first moment
        self.exp_avg_sq = [torch.zeros_like(p) for p in self.params]   # second moment

    def zero_grad(self) -> None:
        for param in self.params:  # torch's default, set_to_none=True
            param.grad = None

    @torch.no_grad()
    def step(self) -> None:
        self.steps += 1
        beta1, beta2 = self.betas
        # The same float operations in the same order as torch's, or the bits drift.
        step_size = self.lr / (1 - beta1 ** self.steps)
        bias_correction2_sqrt = (1 - beta2 ** self.steps) ** 0.5
        moments = zip(self.params, self.exp_avg, self.exp_avg_sq, strict=True)
        for param, exp_avg, exp_avg_sq in moments:
            grad = param.grad
            if grad is None:
                raise ValueError("Adam.step: a parameter has no gradient (see the class)")
            exp_avg.lerp_(grad, 1 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(self.eps)
            param.addcdiv_(exp_avg, denom, value=-step_size)
