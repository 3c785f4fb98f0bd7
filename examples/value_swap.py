"""What the value contributes: one head, position 4's query over four positions,
before and after swapping the first two output columns of W_V.

Both runs go through the same ``attend``, so "the weights stay as they were" is a
property of the computation, not of a copied list.
"""

import math

import torch

# One-hot representations keep the arithmetic visible: row j of W_K is position
# j's key and row j of W_V its value vector.
X = torch.eye(4, dtype=torch.float64)  # (n, d) = (4, 4)
QUERY_POSITION = 3  # position 4 (from 0): the query we follow
W_Q = ((0.0,), (0.0,), (0.0,), (1.0,))  # (4, 1): position 4's query is 1
# Keys ln 1 … ln 4: e^(score) = 1, 2, 3, 4, so the weights are tenths.
W_K = ((0.0,), (math.log(2),), (math.log(3),), (math.log(4),))  # (4, 1)
W_V = ((1.0, 0.0, 0.0),
       (0.0, 2.0, 0.0),
       (0.0, 0.0, 3.0),
       (1.0, 1.0, 1.0))  # (4, 3)
SWAP = [1, 0, 2]  # column i of the swapped W_V is column SWAP[i] of W_V


# --8<-- [start:value_swap]
def attend(x, X, W_Q, W_K, W_V):
    """One query (from the representation x) over the positions X."""
    q = x @ W_Q                               # (d_k,)
    K, V = X @ W_K, X @ W_V                   # (n, d_k), (n, d_v)
    weights = torch.softmax(q @ K.T / math.sqrt(K.shape[-1]), dim=-1)  # (n,)
    return weights, V, weights @ V            # ŷ = Σ_j a_j v_j


def swap_experiment(X, W_Q, W_K, W_V, swap):
    x = X[QUERY_POSITION]
    before = attend(x, X, W_Q, W_K, W_V)
    after = attend(x, X, W_Q, W_K, W_V[:, swap])  # W_V with its columns swapped
    return before, after
# --8<-- [end:value_swap]


def compute() -> dict:
    W_V_ = torch.tensor(W_V, dtype=torch.float64)
    (weights, values, output), (swapped_weights, _, swapped_output) = swap_experiment(
        X, torch.tensor(W_Q, dtype=torch.float64), torch.tensor(W_K, dtype=torch.float64),
        W_V_, SWAP)
    return {
        "X": X.tolist(),
        "query_position": QUERY_POSITION + 1,
        "weights": weights.tolist(),
        "values": values.tolist(),
        "contributions": (weights[:, None] * values).tolist(),
        "output": output.tolist(),
        "W_V": W_V_.tolist(),
        "swapped_W_V": W_V_[:, SWAP].tolist(),
        "swapped_weights": swapped_weights.tolist(),
        "swapped_output": swapped_output.tolist(),
    }
