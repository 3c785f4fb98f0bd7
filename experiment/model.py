"""The student: attention over records with fixed keys and two trained maps.

Mirrored in docs/assets/javascripts/playground-model.js (forward, lossAndGradients).

Only W_Q and W_V (9 x 3 each, 54 scalars per seed) are trained. There is no
bias, key projection, output projection, embedding or anything else; the
learned-keys variant alone also trains its keys.

One Student holds every seed: each parameter carries a leading seed dimension
S, and every input one too, so seed s's prediction depends only on seed s's
parameters and examples. Trained on the sum of the seeds' losses, each seed
gets the gradient of its own loss, and Adam updates every entry on its own:
the seeds train side by side exactly as they would one at a time, in one
sequence of tensor operations instead of S.
"""

import numpy as np
import torch
from torch import nn

from experiment.data import fixed_keys


class Student(nn.Module):
    def __init__(self, W_Q: torch.Tensor, W_V: torch.Tensor, keys: torch.Tensor = fixed_keys,
                 learn_keys: bool = False):
        super().__init__()
        self.W_Q = nn.Parameter(W_Q)  # (S, 9, 3): mixed input → query, one map per seed
        self.W_V = nn.Parameter(W_V)  # (S, 9, 3): mixed input → value
        # Fixed keys (J, 3) are a constant shared by every seed; learned keys are a
        # parameter of their own per seed, (S, J, 3).
        self.keys = nn.Parameter(keys) if learn_keys else keys

    # --8<-- [start:forward]
    def queries(self, request):
        return request @ self.W_Q                        # (S, B, 9) → (S, B, 3)

    def values(self, records):
        # Every record of a seed times that seed's W_V, as one product per seed (records
        # @ W_V.unsqueeze(1) would copy W_V for each example: a third slower to train).
        return torch.einsum("sbji,sic->sbjc", records, self.W_V)   # (S, B, J, 9) → (S, B, J, 3)

    def attention(self, request):
        scores = self.queries(request) @ self.keys.mT / 3**0.5   # (S, B, J)
        return torch.softmax(scores, dim=-1)             # weights over the J records

    def forward(self, request, records):
        A = self.attention(request)                      # (S, B, J)
        V = self.values(records)                         # (S, B, J, 3)
        return (A.unsqueeze(-1) * V).sum(dim=-2)         # (S, B, 3): the prediction
    # --8<-- [end:forward]


def mse(prediction: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The training loss and every reported prediction error: one per seed, (S,)."""
    # --8<-- [start:loss]
    loss = ((prediction - target) ** 2).mean(dim=(-2, -1))   # (S,): one MSE per seed
    # --8<-- [end:loss]
    return loss


def initial_student(rngs: list[np.random.Generator], scale: float,
                    keys: torch.Tensor = fixed_keys, learn_keys: bool = False) -> Student:
    """Small random W_Q and W_V for each seed, drawn from that seed's generator in
    `rngs` (see Config.init_scale for why). With learn_keys, `keys` (S, J, 3) are the
    initial keys; otherwise the fixed keys (J, 3)."""
    def draw(rng):  # W_Q, then W_V, from one seed's generator
        return [torch.from_numpy(rng.standard_normal((9, 3))) * scale for _ in range(2)]

    W_Q, W_V = (torch.stack(maps) for maps in zip(*map(draw, rngs), strict=True))
    return Student(W_Q, W_V, keys, learn_keys)


def trainable_parameters(student: Student) -> int:
    """How many scalars training changes, per seed."""
    seeds = student.W_Q.shape[0]
    return sum(p.numel() for p in student.parameters() if p.requires_grad) // seeds
