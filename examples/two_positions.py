"""The "check it by hand" box: one head, two positions, numbers small enough for paper.

Positions 1 and 2 have the representations x_1 and x_2 (the rows of X); the
article follows position 2's query. ``head()`` is the whole computation with
every intermediate stage, exponentiating the scores as they are: here they are
small, and e^(score) comes out as whole numbers (the bank model's head,
examples/bank.py, subtracts each row's maximum first, as real implementations do).
"""

import math

import torch

# The worked example's made-up parameters. W_K's lower entry is ln 3, so that
# position 1's key is ln 3 and e^(score) comes out as the whole numbers 3 and 1.
X = ((0.0, 1.0),  # x_1
     (1.0, 0.0))  # x_2
W_Q = ((1.0,), (0.0,))  # (d, d_k) = (2, 1)
W_K = ((0.0,), (math.log(3),))  # (2, 1)
W_V = ((2.0, 0.0), (0.0, 2.0))  # (d, d_v) = (2, 2)
TEMPERATURE = 1.0  # the article's formula has none: T = 1
EXERCISE_SCORES = (0.0, 0.0)  # "change the scores to ...": equal scores


def tensor(rows) -> torch.Tensor:
    return torch.tensor(rows, dtype=torch.float64)


# --8<-- [start:two_positions]
def head(X, W_Q, W_K, W_V, temperature=1.0, causal=False) -> dict:
    """One attention head on the rows of X, with every stage along the way."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V      # (n, d_k), (n, d_k), (n, d_v)
    n, d_k = K.shape
    scores = Q @ K.T                          # (n, n): row i = query i, column j = key j
    scaled = scores / (math.sqrt(d_k) * temperature)
    mask = torch.zeros(n, n, dtype=X.dtype)   # 0 where key j may be used
    if causal:                                # key j > query i is in the future
        mask = mask.masked_fill(torch.ones(n, n).triu(1).bool(), -math.inf)
    masked = scaled + mask
    exponentials = torch.exp(masked)          # e^(-inf) = 0: a blocked key drops out
    weights = exponentials / exponentials.sum(dim=-1, keepdim=True)  # A: rows sum to 1
    weighted = weights[:, :, None] * V[None, :, :]  # (n, n, d_v): a_ij v_j
    H = weighted.sum(dim=1)                   # (n, d_v): row i is h_i = Σ_j a_ij v_j
    return {"Q": Q, "K": K, "V": V, "scores": scores, "scaled": scaled,
            "masked": masked, "exponentials": exponentials, "weights": weights,
            "weighted": weighted, "H": H}
# --8<-- [end:two_positions]


def worked_example(x_1=None, x_2=None, temperature=None, causal=False) -> dict:
    """The worked example's head on x_1 and x_2 (by default the example's own)."""
    X_ = tensor([X[0] if x_1 is None else x_1, X[1] if x_2 is None else x_2])
    T = TEMPERATURE if temperature is None else temperature
    return head(X_, tensor(W_Q), tensor(W_K), tensor(W_V), T, causal)


def mix(scores, V) -> tuple[torch.Tensor, torch.Tensor]:
    """Softmax of one query's SCORES, and the value vectors mixed in those proportions."""
    weights = torch.softmax(tensor(scores), dim=-1)
    return weights, weights @ V


def compute() -> dict:
    """The worked example as the page prints it; position 2's query is row 2 (index 1)."""
    stages = worked_example()
    row = 1  # position 2
    exponentials = stages["exponentials"][row]
    return {
        "x_1": list(X[0]), "x_2": list(X[1]),
        "W_Q": [list(r) for r in W_Q], "W_K": [list(r) for r in W_K],
        "W_V": [list(r) for r in W_V],
        "temperature": TEMPERATURE,
        "ln3": math.log(3),
        "q_2": stages["Q"][row, 0].item(),
        "k_1": stages["K"][0, 0].item(), "k_2": stages["K"][1, 0].item(),
        "d_k": stages["K"].shape[-1],
        "scores": stages["scaled"][row].tolist(),
        "exponentials": exponentials.tolist(),
        "exponential_sum": exponentials.sum().item(),
        "weights": stages["weights"][row].tolist(),
        "v_1": stages["V"][0].tolist(), "v_2": stages["V"][1].tolist(),
        "h_2": stages["H"][row].tolist(),
    }


def exercise() -> dict:
    """The exercise: other scores for position 2's query, the same value vectors."""
    V = worked_example()["V"]
    weights, h_2 = mix(EXERCISE_SCORES, V)
    return {
        "scores": list(EXERCISE_SCORES),
        "weights": weights.tolist(),
        "v_1": V[0].tolist(), "v_2": V[1].tolist(),
        "h_2": h_2.tolist(),
    }
