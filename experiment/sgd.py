"""Plain SGD written out: torch.optim.SGD's update with no momentum, bit for bit.

For the same reason as adam.py: torch.optim.SGD's constructor imports torch._dynamo,
PyTorch's compiler, about a second on the critical path of every site build, for an
update that is one line. tests/experiment/test_sgd.py trains with both and asks for
the same bits.
"""

from collections.abc import Iterable

import torch


class SGD:
    """torch.optim.SGD(params, lr) on CPU tensors: the update of its default path
    (torch/optim/sgd.py, _single_tensor_sgd: no momentum, dampening, weight decay,
    nesterov or maximize), param <- param - lr * grad."""

    momentum = 0  # recorded in results.json, as torch.optim.SGD's default

    def __init__(self, params: Iterable[torch.Tensor], lr: float):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self) -> None:
        for param in self.params:  # torch's default, set_to_none=True
            param.grad = None

    @torch.no_grad()
    def step(self) -> None:
        for param in self.params:
            if param.grad is None:
                raise ValueError("SGD.step: a parameter has no gradient")
            param.add_(param.grad, alpha=-self.lr)
