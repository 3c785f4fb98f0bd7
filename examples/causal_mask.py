"""The causal mask: a position may use itself and earlier positions, never later ones."""

import torch

POSITIONS = 6  # the tiles of the second bank sentence, whose words head the table


def compute() -> dict:
    # --8<-- [start:causal_mask]
    n = POSITIONS
    scores = torch.zeros(n, n, dtype=torch.float64)  # (query position, key position)
    future = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    mask = torch.zeros(n, n, dtype=torch.float64).masked_fill(future, float("-inf"))
    weights = torch.softmax(scores + mask, dim=-1)   # each row sums to one
    # --8<-- [end:causal_mask]
    return {
        "weights": weights.tolist(),
        "row_sums": weights.sum(dim=-1).tolist(),
    }
