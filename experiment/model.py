"""The student: attention over records with fixed keys and two trained maps.

Mirrored in docs/assets/javascripts/playground-model.js (forward, lossAndGradients).

Only W_Q and W_V (9 x 3 each, 54 scalars) are trained. There is no bias, key
projection, output projection, embedding or anything else; the learned-keys
variant alone also trains its keys. One Student is one seed's model; its
inputs may carry any leading dimensions (`...`), a batch (B, ...) in training.
"""

import numpy as np
import torch
from torch import nn

from experiment.data import fixed_keys


class Student(nn.Module):
    def __init__(self, W_Q: torch.Tensor, W_V: torch.Tensor, keys: torch.Tensor = fixed_keys,
                 learn_keys: bool = False):
        super().__init__()
        self.W_Q = nn.Parameter(W_Q)  # (9, 3): mixed input → query
        self.W_V = nn.Parameter(W_V)  # (9, 3): mixed input → value
        # (J, 3): a constant, or a parameter of the learned-keys student.
        self.keys = nn.Parameter(keys) if learn_keys else keys

    # --8<-- [start:forward]
    def queries(self, request):
        return request @ self.W_Q                   # (B, 9) → (B, 3)

    def values(self, records):
        return records @ self.W_V                   # (B, J, 9) → (B, J, 3)

    def attention(self, request):
        scores = self.queries(request) @ self.keys.T / 3**0.5   # (B, J)
        return torch.softmax(scores, dim=-1)        # weights over the J records

    def forward(self, request, records):
        A = self.attention(request)                 # (B, J)
        V = self.values(records)                    # (B, J, 3)
        return (A.unsqueeze(-1) * V).sum(dim=-2)    # (B, 3): the prediction
    # --8<-- [end:forward]


def mse(prediction: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The training loss and every reported prediction error: the mean over the last
    two dimensions, one per leading index (a 0-dim tensor for a batch (B, 3))."""
    # --8<-- [start:loss]
    loss = ((prediction - target) ** 2).mean(dim=(-2, -1))   # over B and the 3
    # --8<-- [end:loss]
    return loss


def initial_student(rng: np.random.Generator, scale: float,
                    keys: torch.Tensor = fixed_keys, learn_keys: bool = False) -> Student:
    """Small random W_Q, then W_V, from the seed's generator `rng` (see
    Config.init_scale for why); `keys` (J, 3) are fixed, or with learn_keys the
    initial keys."""
    W_Q, W_V = (torch.from_numpy(rng.standard_normal((9, 3))) * scale for _ in range(2))
    return Student(W_Q, W_V, keys, learn_keys)


def trainable_parameters(student: Student) -> int:
    """How many scalars training changes."""
    return sum(p.numel() for p in student.parameters() if p.requires_grad)
