"""The worked example: one head, two positions A and B, B's query."""

import math

import torch


def compute(scores_override=None) -> dict:
    # --8<-- [start:two_positions]
    X = torch.tensor([[0.0, 1.0],     # representation of A
                      [1.0, 0.0]],    # representation of B
                     dtype=torch.float64)
    W_Q = torch.tensor([[1.0], [0.0]], dtype=torch.float64)            # (2, 1)
    W_K = torch.tensor([[0.0], [math.log(3)]], dtype=torch.float64)    # (2, 1)
    W_V = torch.tensor([[2.0, 0.0], [0.0, 2.0]], dtype=torch.float64)  # (2, 2)

    Q, K, V = X @ W_Q, X @ W_K, X @ W_V   # (2, 1), (2, 1), (2, 2): activations
    d_k = K.shape[-1]
    scores = Q[1] @ K.T / math.sqrt(d_k)  # B's query against keys of A and B
    weights = torch.softmax(scores, dim=-1)
    z_B = weights @ V                     # mix the value vectors
    # --8<-- [end:two_positions]
    if scores_override is not None:
        # The exercise: other scores, the same value vectors.
        scores = torch.tensor(scores_override, dtype=torch.float64)
        weights = torch.softmax(scores, dim=-1)
        z_B = weights @ V
    exponentials = torch.exp(scores)
    return {
        "x_A": X[0].tolist(), "x_B": X[1].tolist(),
        "W_Q": W_Q.tolist(), "W_K": W_K.tolist(), "W_V": W_V.tolist(),
        "ln3": math.log(3),
        "q_B": Q[1, 0].item(), "k_A": K[0, 0].item(), "k_B": K[1, 0].item(),
        "d_k": d_k,
        "scores": scores.tolist(),
        "exponentials": exponentials.tolist(),
        "exponential_sum": exponentials.sum().item(),
        "weights": weights.tolist(),
        "v_A": V[0].tolist(), "v_B": V[1].tolist(),
        "z_B": z_B.tolist(),
    }
