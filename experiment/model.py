"""The student: attention over four records with fixed keys and two trained maps.

Only Wq and Wv (9 x 3 each, 54 scalars) are trained. There is no bias, key
projection, output projection, embedding or anything else.
"""

import numpy as np
import torch
from torch import nn

from experiment.data import fixed_keys


class Student(nn.Module):
    def __init__(self, Wq: torch.Tensor, Wv: torch.Tensor):
        super().__init__()
        self.Wq = nn.Parameter(Wq)  # (9, 3): mixed input -> query
        self.Wv = nn.Parameter(Wv)  # (9, 3): mixed input -> value

    def forward(self, request: torch.Tensor, records: torch.Tensor):
        """Return the prediction (batch, 3), and A (batch, 4) and V (batch, 4, 3),
        which the hand-written backward pass in train.py reuses."""
        Wq, Wv = self.Wq, self.Wv
        # --8<-- [start:forward]
        q = request @ Wq                          # (batch, 9) → (batch, 3)
        V = records @ Wv                          # (batch, 4, 9) → (batch, 4, 3)
        A = torch.softmax(q @ fixed_keys.T / 3**0.5, dim=-1)
        prediction = (A.unsqueeze(-1) * V).sum(dim=1)
        # --8<-- [end:forward]
        return prediction, A, V


def mse(prediction: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The training loss and every reported prediction error."""
    # --8<-- [start:loss]
    loss = ((prediction - target) ** 2).mean()
    # --8<-- [end:loss]
    return loss


def initial_student(rng: np.random.Generator, scale: float) -> Student:
    """Small random weights drawn from `rng` (see Config.init_scale for why)."""
    Wq = torch.from_numpy(rng.standard_normal((9, 3))) * scale
    Wv = torch.from_numpy(rng.standard_normal((9, 3))) * scale
    return Student(Wq, Wv)
