"""Several heads, the output projection W_O and the residual stream, and which
products of a layer's weights its output pins down.

A layer with two causal heads on three positions, with weights drawn once
from a seeded generator. Changing the query/key basis (W_Q M, W_K M^-T) or the
value basis (W_V N, with N^-1 W_O) leaves its output unchanged; a value swap is
such an N, a permutation, so W_O can undo it.
"""

import torch

from examples.two_positions import head

POSITIONS, D, HEADS, D_HEAD = 3, 4, 2, 2  # n, d, heads, d_k = d_v per head
SEED = 7  # the generator's seed for X and the weights: any fixed number will do
M = ((2.0, 1.0), (0.0, 1.0))  # an invertible change of query/key basis, (d_k, d_k)
N = ((1.0, -1.0), (0.5, 1.0))  # an invertible change of value basis, (d_v, d_v)
SWAP = ((0.0, 1.0), (1.0, 0.0))  # swaps a head's two value columns: N = P


# --8<-- [start:layer]
def layer(X, W_Q, W_K, W_V, W_O):
    """Every head on X in parallel, concatenated, projected by W_O, added to X."""
    heads = [head(X, W_Q[i], W_K[i], W_V[i], causal=True)["H"]   # each (n, d_v)
             for i in range(len(W_Q))]
    concatenated = torch.cat(heads, dim=-1)   # (n, heads · d_v)
    return X + concatenated @ W_O             # (n, d): the residual stream, updated
# --8<-- [end:layer]


def weights(generator) -> dict:
    def draw(*shape):
        return torch.randn(*shape, generator=generator, dtype=torch.float64)

    return {"X": draw(POSITIONS, D), "W_Q": draw(HEADS, D, D_HEAD),
            "W_K": draw(HEADS, D, D_HEAD), "W_V": draw(HEADS, D, D_HEAD),
            "W_O": draw(HEADS * D_HEAD, D)}


def change_value_basis(W_V, W_O, head_index, N):
    """W_V N for one head, and N^-1 applied to that head's rows of W_O."""
    W_V, W_O = W_V.clone(), W_O.clone()
    rows = slice(head_index * D_HEAD, (head_index + 1) * D_HEAD)
    W_V[head_index] = W_V[head_index] @ N
    W_O[rows] = torch.linalg.inv(N) @ W_O[rows]
    return W_V, W_O


def largest(difference: torch.Tensor) -> float:
    return difference.abs().max().item()


def compute() -> dict:
    w = weights(torch.Generator().manual_seed(SEED))
    M_, N_, P = (torch.tensor(m, dtype=torch.float64) for m in (M, N, SWAP))
    output = layer(w["X"], w["W_Q"], w["W_K"], w["W_V"], w["W_O"])

    W_Q, W_K = w["W_Q"] @ M_, w["W_K"] @ torch.linalg.inv(M_).T
    W_V, W_O = change_value_basis(w["W_V"], w["W_O"], 0, N_)
    changed = layer(w["X"], W_Q, W_K, W_V, W_O)

    swapped_V = w["W_V"].clone()
    swapped_V[0] = swapped_V[0] @ P
    swapped_only = layer(w["X"], w["W_Q"], w["W_K"], swapped_V, w["W_O"])
    undone = layer(w["X"], w["W_Q"], w["W_K"], *change_value_basis(w["W_V"], w["W_O"], 0, P))
    products = {
        "W_Q_W_K": largest(W_Q @ W_K.transpose(1, 2) - w["W_Q"] @ w["W_K"].transpose(1, 2)),
        "W_V_W_O": largest(W_V[0] @ W_O[:D_HEAD] - w["W_V"][0] @ w["W_O"][:D_HEAD]),
    }
    return {
        "positions": POSITIONS, "d": D, "heads": HEADS, "d_k": D_HEAD, "d_v": D_HEAD,
        "M": [list(r) for r in M], "N": [list(r) for r in N],
        "det_M": torch.linalg.det(M_).item(), "det_N": torch.linalg.det(N_).item(),
        "weight_change": {"W_Q": largest(W_Q - w["W_Q"]), "W_K": largest(W_K - w["W_K"]),
                          "W_V": largest(W_V - w["W_V"]), "W_O": largest(W_O - w["W_O"])},
        "product_change": products,
        "largest_product_change": max(products.values()),
        "output_change": largest(changed - output),
        "swap_alone_change": largest(swapped_only - output),
        "swap_undone_change": largest(undone - output),
    }
