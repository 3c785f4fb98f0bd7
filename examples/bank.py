"""The bank model: the article's running example, small enough to draw.

Mirrored in docs/assets/javascripts/bank-model.js: head() and calculator() as head()
and calculator() here, update() as the update of "bank" that sentence() records.

Nothing here is learned or measured: the embeddings and the weights of one layer
with two causal heads are chosen by hand so that every vector can be seen. A
word's embedding has four coordinates, two planes of two:

- the *look plane* (u, w): what a word advertises and asks for. Head 1's W_K
  copies it into the key, so each word's key is an arrow in a plane (d_k = 2);
  W_Q turns it a quarter turn and stretches it, so the query of "bank" points
  where the clues' keys point.
- the *sense plane* (sense 1, sense 2): head 1's W_V doubles it into the value
  (d_v = 2), and W_O writes the head output back into it. "Bank" starts halfway
  between the senses; a clue sits on its own sense's axis; a plain word has no
  sense at all.

Each word has a role: the ambiguous word ("bank"), the word that settles its
sense (the clue), or a plain word. The clue of a first sentence points to sense
1 (a river bank; in Ukrainian a crane; in Swedish a sandbank), that of a second
sentence to sense 2 (money; a water tap). Every language's page shows its own
sentences, from its record (locales/<code>.toml); one model computes them all.

Head 2 has another job: its query points the same way as its key, so each word
looks at itself and at words like it; its value is the look plane, which W_O
writes back there, so it leaves the senses alone.
"""

import math
import sys

import torch

import locales

# --8<-- [start:model]
# Embedding coordinates: (u, w) the look plane, then (sense 1, sense 2).
EMBEDDINGS = {
    "plain": (-0.6, -0.8, 0.0, 0.0),     # looks away from the clues; no sense
    "ambiguous": (0.0, 1.0, 0.5, 0.5),   # "bank": halfway between the senses
    "clue_1": (1.0, 0.0, 1.0, 0.0),      # a clue to sense 1
    "clue_2": (1.0, 0.0, 0.0, 1.0),      # a clue to sense 2
}
# Head 1 finds the clue. Its key is the look plane; its query is the look plane
# turned a quarter turn and stretched by 3, so that "bank"'s (0, 1) asks for (3, 0),
# where the clues' keys point. Its value is the sense plane doubled, so that a value
# is drawn apart from where its word stands.
W_Q = ((0.0, -3.0), (3.0, 0.0), (0.0, 0.0), (0.0, 0.0))  # (d, d_k) = (4, 2)
W_K = ((1.0, 0.0), (0.0, 1.0), (0.0, 0.0), (0.0, 0.0))   # (4, 2)
W_V = ((0.0, 0.0), (0.0, 0.0), (2.0, 0.0), (0.0, 2.0))   # (d, d_v) = (4, 2)
# Head 2 looks for words like the word itself: query and key point the same way.
W_Q2 = ((3.0, 0.0), (0.0, 3.0), (0.0, 0.0), (0.0, 0.0))
W_K2 = W_K
W_V2 = ((1.0, 0.0), (0.0, 1.0), (0.0, 0.0), (0.0, 0.0))  # the look plane
# W_O: head 1's output goes into the sense plane, head 2's into the look plane.
W_O = ((0.0, 0.0, 1.0, 0.0), (0.0, 0.0, 0.0, 1.0),       # head 1's rows
       (1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0))       # head 2's rows; (2 d_v, d)
# --8<-- [end:model]

D_K = 2
SWAP = [1, 0]  # the value swap: column i of the swapped W_V is column SWAP[i] of W_V
SHIFT = 10.0  # a constant added to every score of "bank" (any number will do)

def sentences() -> dict[str, tuple]:
    """Per language: sentence 1 (sense 1) and sentence 2 (sense 2), each a tuple of
    (token, role) pairs, from the language's record (locales/<code>.toml, [bank])."""
    return {code: record.sentences for code, record in locales.records().items()}


def senses() -> dict[str, tuple[str, str]]:
    """Per language: the two senses, as its figures label the sense axes."""
    return {code: record.senses for code, record in locales.records().items()}


def tensor(rows) -> torch.Tensor:
    return torch.tensor(rows, dtype=torch.float64)


# --8<-- [start:head]
def head(X, W_Q, W_K, W_V, temperature=1.0, causal=True) -> dict:
    """One attention head on the rows of X, with every stage along the way."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V       # (n, d_k), (n, d_k), (n, d_v)
    n, d_k = K.shape
    scores = Q @ K.T                          # (n, n): row i = query i, column j = key j
    scaled = scores / (math.sqrt(d_k) * temperature)
    if causal:                                # key j > query i is in the future
        future = torch.ones(n, n, dtype=torch.bool).triu(1)
        scaled = scaled.masked_fill(future, -math.inf)
    # Softmax ignores a constant added to a whole row: subtract the row's largest
    # score, so that no e^s can overflow. e^(-inf) = 0: a blocked key drops out.
    shifted = scaled - scaled.max(dim=-1, keepdim=True).values
    exponentials = torch.exp(shifted)
    weights = exponentials / exponentials.sum(dim=-1, keepdim=True)  # A: rows sum to 1
    weighted = weights[:, :, None] * V[None, :, :]  # (n, n, d_v): a_ij v_j
    H = weighted.sum(dim=1)                   # (n, d_v): row i is h_i = Σ_j a_ij v_j
    return {"Q": Q, "K": K, "V": V, "scores": scores, "masked": scaled,
            "exponentials": exponentials, "weights": weights, "weighted": weighted, "H": H}
# --8<-- [end:head]


def embed(words, plane=None) -> torch.Tensor:
    """The embeddings of WORDS, (n, 4); PLANE replaces their look coordinates."""
    X = tensor([EMBEDDINGS[role] for _, role in words])
    if plane is not None:
        X[:, :2] = tensor(plane)
    return X


def head_1(X, W_V_=None, temperature=1.0, causal=True) -> dict:
    return head(X, tensor(W_Q), tensor(W_K), tensor(W_V) if W_V_ is None else W_V_,
                temperature, causal)


def calculator(words, plane, temperature=1.0, causal=True) -> dict:
    """What the calculator shows: head 1 on WORDS whose look coordinates are PLANE."""
    X = embed(words, plane)
    stages = head_1(X, temperature=temperature, causal=causal)
    ambiguous = [role for _, role in words].index("ambiguous")
    h = stages["H"][ambiguous]
    sense = X[ambiguous, 2:] + h @ tensor(W_O)[:2, 2:]
    return {**stages, "h": h, "sense": sense}


def _bank_row(stages, ambiguous, roles, role) -> list[float]:
    return [stages["weights"][ambiguous, j].item() for j, r in enumerate(roles) if r == role]


def sentence(words) -> dict:
    """Head 1 on one sentence, the ambiguous word's row in detail; then the swap."""
    tokens, roles = zip(*words, strict=True)
    X = embed(words)
    stages = head_1(X)
    ambiguous = roles.index("ambiguous")
    clues = [i for i, role in enumerate(roles) if role.startswith("clue")]
    h = stages["H"][ambiguous]
    moved = h @ tensor(W_O)[:2]  # (d,): head 1's output written into the sense plane
    swapped = head_1(X, W_V_=tensor(W_V)[:, SWAP])
    swapped_h = swapped["H"][ambiguous]
    row = stages["masked"][ambiguous]
    shifted = torch.softmax(row + SHIFT, dim=-1)
    unstable = torch.exp(row) / torch.exp(row).sum()  # without subtracting the maximum
    # A causal head on the whole sentence gives row i what it would give the prefix
    # of words 1 … i alone: one pass trains every position at once.
    prefixes = max((head_1(X[: i + 1])["weights"][i] - stages["weights"][i, : i + 1])
                   .abs().max().item() for i in range(len(words)))
    plain = roles.index("plain")
    # Nothing in the model says where a word stands: the words before "bank", in the
    # reverse order, give it the same head output.
    reordered = [*words[:ambiguous][::-1], *words[ambiguous:]]
    order_difference = (head_1(embed(reordered))["H"][ambiguous] - h).abs().max().item()
    return {
        "tokens": list(tokens),
        "roles": list(roles),
        "ambiguous": ambiguous,
        # "bank"'s query against one word of each kind: key, dot product, score.
        "by_kind": {kind: {"key": stages["K"][j].tolist(),
                           "dot": stages["scores"][ambiguous, j].item(),
                           "score": row[j].item(),
                           "weight": stages["weights"][ambiguous, j].item(),
                           "value": stages["V"][j].tolist()}
                    for kind, j in (("clue", clues[0]), ("plain", plain),
                                    ("self", ambiguous))},
        "clue": clues[0] if len(clues) == 1 else None,
        "Q": stages["Q"].tolist(), "K": stages["K"].tolist(), "V": stages["V"].tolist(),
        "query": stages["Q"][ambiguous].tolist(),  # "bank"'s query
        "dot_products": stages["scores"][ambiguous].tolist(),  # q·k_j, before ÷√d_k
        "scores": row.tolist(),  # divided by √d_k, −∞ never (bank is last)
        "weights": stages["weights"].tolist(),  # (n, n), causal: zero above the diagonal
        "clue_weight": stages["weights"][ambiguous, clues[0]].item() if clues else None,
        "self_weight": stages["weights"][ambiguous, ambiguous].item(),
        # A gap between two scores is a ratio e^gap between their weights.
        "clue_to_self": (stages["weights"][ambiguous, clues[0]]
                         / stages["weights"][ambiguous, ambiguous]).item(),
        "plain_weights": _bank_row(stages, ambiguous, roles, "plain"),
        "contributions": stages["weighted"][ambiguous].tolist(),  # a_j v_j, (n, d_v)
        "h": h.tolist(),  # the ambiguous word's head output, in the sense plane
        "sense_before": X[ambiguous, 2:].tolist(),
        "sense_after": (X[ambiguous] + moved)[2:].tolist(),
        "updated": (X[ambiguous] + moved).tolist(),  # after the residual add
        "shifted_weights": shifted.tolist(),  # softmax(scores + SHIFT)
        "unshifted_weights": unstable.tolist(),
        "prefix_difference": prefixes,
        "order_difference": order_difference,
        "swapped": {
            "weights": swapped["weights"][ambiguous].tolist(),
            "clue_weight": swapped["weights"][ambiguous, clues[0]].item(),
            "h": swapped_h.tolist(),
            "sense_after": (X[ambiguous, 2:] + swapped_h @ tensor(W_O)[:2, 2:]).tolist(),
        },
    }


def compute() -> dict:
    return {
        "model": {"embeddings": {role: list(e) for role, e in EMBEDDINGS.items()},
                  "W_Q": [list(r) for r in W_Q], "W_K": [list(r) for r in W_K],
                  "W_V": [list(r) for r in W_V], "W_O": [list(r) for r in W_O[:2]],
                  "d_k": D_K, "d_v": len(W_V[0]), "d": len(W_Q)},
        "shift": SHIFT,
        # e^s overflows float64 once s passes ln(largest float): about 709.
        "overflow_above": math.log(sys.float_info.max),
        "senses": senses(),
        "sentences": {language: [sentence(words) for words in pair]
                      for language, pair in sentences().items()},
    }
