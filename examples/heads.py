"""The bank model's whole layer: two heads, W_O and the residual stream; and what
its weights do not determine.

Head 1 finds the clue and writes a sense; head 2 looks at the word itself and
words like it. Changing the query/key basis (W_Q M, W_K M^-T), the value basis
(W_V N, with N^-1 in W_O) or the order of the heads leaves the layer's output as
it was, on every bank sentence; a value swap is such an N, a permutation, so
W_O can undo it.
"""

import torch

from examples import bank

M = ((2.0, 1.0), (0.0, 1.0))  # an invertible change of query/key basis, (d_k, d_k)
N = ((1.0, -1.0), (0.5, 1.0))  # an invertible change of value basis, (d_v, d_v)
SWAP = ((0.0, 1.0), (1.0, 0.0))  # swaps head 1's two value columns: N = P
D_V = 2
# A real model's sizes, for d_k = d / heads (GPT-2 small: width 768, 12 heads).
TYPICAL = {"d": 768, "heads": 12}


def weights() -> dict:
    """The bank model's layer: (heads, d, 2) for W_Q, W_K, W_V; (heads · d_v, d) W_O."""
    t = bank.tensor
    return {"W_Q": torch.stack([t(bank.W_Q), t(bank.W_Q2)]),
            "W_K": torch.stack([t(bank.W_K), t(bank.W_K2)]),
            "W_V": torch.stack([t(bank.W_V), t(bank.W_V2)]),
            "W_O": t(bank.W_O)}


# --8<-- [start:layer]
def layer(X, W_Q, W_K, W_V, W_O):
    """Every head on X in parallel, concatenated, projected by W_O, added to X."""
    heads = [bank.head(X, W_Q[i], W_K[i], W_V[i])["H"]   # each (n, d_v)
             for i in range(len(W_Q))]
    concatenated = torch.cat(heads, dim=-1)   # (n, heads · d_v)
    return X + concatenated @ W_O             # (n, d): the residual stream, updated
# --8<-- [end:layer]


def change_value_basis(w, head_index, N_):
    """W_V N for one head, and N^-1 applied to that head's rows of W_O."""
    W_V, W_O = w["W_V"].clone(), w["W_O"].clone()
    rows = slice(head_index * D_V, (head_index + 1) * D_V)
    W_V[head_index] = W_V[head_index] @ N_
    W_O[rows] = torch.linalg.inv(N_) @ W_O[rows]
    return {**w, "W_V": W_V, "W_O": W_O}


def reorder_heads(w):
    """The same heads, numbered the other way round, with W_O's row blocks to match."""
    order = [1, 0]
    rows = torch.cat([torch.arange(i * D_V, (i + 1) * D_V) for i in order])
    return {"W_Q": w["W_Q"][order], "W_K": w["W_K"][order], "W_V": w["W_V"][order],
            "W_O": w["W_O"][rows]}


def largest(difference: torch.Tensor) -> float:
    return difference.abs().max().item()


def run(X, w):
    return layer(X, w["W_Q"], w["W_K"], w["W_V"], w["W_O"])


def sentence(words) -> dict:
    """Both heads on one sentence: their patterns, and "bank" after the layer."""
    X = bank.embed(words)
    w = weights()
    ambiguous = [role for _, role in words].index("ambiguous")
    first = bank.head(X, w["W_Q"][0], w["W_K"][0], w["W_V"][0])
    second = bank.head(X, w["W_Q"][1], w["W_K"][1], w["W_V"][1])
    concatenated = torch.cat([first["H"], second["H"]], dim=-1)[ambiguous]  # (heads · d_v,)
    return {"weights_2": second["weights"].tolist(),
            "self_weight_2": second["weights"][ambiguous, ambiguous].item(),
            # "bank"'s row through the layer: each head's output, their concatenation
            # written by W_O, and the residual stream before and after.
            "h_1": first["H"][ambiguous].tolist(), "h_2": second["H"][ambiguous].tolist(),
            "written": (concatenated @ w["W_O"]).tolist(),
            "x": X[ambiguous].tolist(),
            "updated": run(X, w)[ambiguous].tolist()}


def compute() -> dict:
    w = weights()
    M_, N_, P = (bank.tensor(m) for m in (M, N, SWAP))
    changed_qk = {**w, "W_Q": w["W_Q"] @ M_, "W_K": w["W_K"] @ torch.linalg.inv(M_).T}
    changed = change_value_basis(changed_qk, 0, N_)
    swapped_only = {**w, "W_V": w["W_V"].clone()}
    swapped_only["W_V"][0] = swapped_only["W_V"][0] @ P
    undone = change_value_basis(w, 0, P)

    changes = {"output": [], "reordered": [], "swap_alone": [], "swap_undone": [],
               "scores": []}
    for pair in bank.sentences().values():
        for words in pair:
            X = bank.embed(words)
            output = run(X, w)
            changes["output"].append(largest(run(X, changed) - output))
            changes["reordered"].append(largest(run(X, reorder_heads(w)) - output))
            changes["swap_alone"].append(largest(run(X, swapped_only) - output))
            changes["swap_undone"].append(largest(run(X, undone) - output))
            scores = (X @ w["W_Q"][0]) @ (X @ w["W_K"][0]).T
            new_scores = (X @ changed["W_Q"][0]) @ (X @ changed["W_K"][0]).T
            changes["scores"].append(largest(new_scores - scores))
    ambiguous = bank.tensor(bank.EMBEDDINGS["ambiguous"])
    clue = bank.tensor(bank.EMBEDDINGS["clue_1"])
    products = {
        "W_Q_W_K": largest(changed["W_Q"] @ changed["W_K"].transpose(1, 2)
                           - w["W_Q"] @ w["W_K"].transpose(1, 2)),
        "W_V_W_O": largest(changed["W_V"][0] @ changed["W_O"][:D_V]
                           - w["W_V"][0] @ w["W_O"][:D_V]),
    }
    return {
        "typical": {**TYPICAL, "d_k": TYPICAL["d"] // TYPICAL["heads"]},
        "heads": len(w["W_Q"]), "d": w["W_O"].shape[1], "d_k": bank.D_K, "d_v": D_V,
        "W_O": w["W_O"].tolist(),
        "M": [list(r) for r in M], "N": [list(r) for r in N],
        "det_M": torch.linalg.det(M_).item(), "det_N": torch.linalg.det(N_).item(),
        # "bank"'s query and a clue's key in head 1, before and after the change of basis.
        "query": (ambiguous @ w["W_Q"][0]).tolist(),
        "query_new": (ambiguous @ changed["W_Q"][0]).tolist(),
        "clue_key": (clue @ w["W_K"][0]).tolist(),
        "clue_key_new": (clue @ changed["W_K"][0]).tolist(),
        # Head 1's keys of every word of each language's second sentence after it, for
        # the look plane drawn again in the new basis.
        "keys_new": {language: (bank.embed(pair[1]) @ changed["W_K"][0]).tolist()
                     for language, pair in bank.sentences().items()},
        "weight_change": {"W_Q": largest(changed["W_Q"] - w["W_Q"]),
                          "W_K": largest(changed["W_K"] - w["W_K"]),
                          "W_V": largest(changed["W_V"] - w["W_V"]),
                          "W_O": largest(changed["W_O"] - w["W_O"])},
        "product_change": products,
        "largest_product_change": max(products.values()),
        # Over every bank sentence of every language: the largest change anywhere.
        "score_change": max(changes["scores"]),
        "output_change": max(changes["output"]),
        "reorder_change": max(changes["reordered"]),
        "swap_alone_change": min(changes["swap_alone"]),  # the smallest: every sentence moves
        "swap_undone_change": max(changes["swap_undone"]),
        "sentences": {language: [sentence(words) for words in pair]
                      for language, pair in bank.sentences().items()},
    }
