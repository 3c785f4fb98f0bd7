"""The bank sentences, computed by a small made-up model.

Nothing here is learned or measured: four-number embeddings and the weights of
one causal head are chosen by hand so that the mechanism is visible. Each
word has a role: the ambiguous word ("bank"), the word that settles its sense
in this sentence (the clue), or a plain word. The clue of a first sentence
points to sense 1 (a river bank; in Ukrainian a crane), that of a second
sentence to sense 2 (money; in Ukrainian a water tap). Every language's page
shows its own sentences; one model computes them all.
"""

import torch

from examples.two_positions import head

# --8<-- [start:model]
# Embedding coordinates: (ambiguous word, clue, sense 1, sense 2). Plain words
# carry none of them, so they neither ask for nor offer anything.
EMBEDDINGS = {
    "plain": (0.0, 0.0, 0.0, 0.0),
    "ambiguous": (1.0, 0.0, 0.0, 0.0),
    "clue_1": (0.0, 1.0, 1.0, 0.0),
    "clue_2": (0.0, 1.0, 0.0, 1.0),
}
# The ambiguous word's query asks for a clue; a clue's key answers.
W_Q = ((3.0,), (0.0,), (0.0,), (0.0,))  # (d, d_k) = (4, 1)
W_K = ((0.0,), (1.0,), (0.0,), (0.0,))  # (4, 1)
# Values carry the senses (d_v = 2: sense 1, sense 2); the ambiguous word itself
# carries both halves.
W_V = ((0.5, 0.5), (0.0, 0.0), (1.0, 0.0), (0.0, 1.0))  # (4, 2)
# The head output goes back into the two sense coordinates of the representation.
W_O = ((0.0, 0.0, 1.0, 0.0), (0.0, 0.0, 0.0, 1.0))  # (d_v, d) = (2, 4)
# --8<-- [end:model]

# Per language: sentence 1 (sense 1), sentence 2 (sense 2); (token, role) pairs.
P, A = "plain", "ambiguous"
SENTENCES = {
    "en": (
        (("I", P), ("fished", "clue_1"), ("from", P), ("the", P), ("bank", A)),
        (("I", P), ("put", P), ("money", "clue_2"), ("in", P), ("the", P), ("bank", A)),
    ),
    "uk": (
        (("Я", P), ("сиджу", P), ("в", P), ("кабіні", "clue_1"), ("крана", A)),
        (("Я", P), ("набираю", P), ("холодну", P), ("воду", "clue_2"), ("з", P),
         ("крана", A)),
    ),
    "sv": (
        (("Båten", P), ("gick", P), ("på", P), ("grund", "clue_1"), ("på", P), ("banken", A)),
        (("Jag", P), ("satte", P), ("in", P), ("pengar", "clue_2"), ("på", P), ("banken", A)),
    ),
}


def tensor(rows) -> torch.Tensor:
    return torch.tensor(rows, dtype=torch.float64)


def sentence(words) -> dict:
    """The causal head on one sentence; the ambiguous word's row in detail."""
    tokens, roles = zip(*words, strict=True)
    X = tensor([EMBEDDINGS[role] for role in roles])  # (n, 4)
    stages = head(X, tensor(W_Q), tensor(W_K), tensor(W_V), causal=True)
    ambiguous = roles.index("ambiguous")
    clues = [i for i, role in enumerate(roles) if role.startswith("clue")]
    h = stages["H"][ambiguous]
    return {
        "tokens": list(tokens),
        "roles": list(roles),
        "ambiguous": ambiguous,
        "clue": clues[0] if len(clues) == 1 else None,
        "weights": stages["weights"].tolist(),  # (n, n), causal: zero above the diagonal
        "clue_weight": stages["weights"][ambiguous, clues[0]].item() if clues else None,
        "h": h.tolist(),  # the ambiguous word's head output
        "updated": (X[ambiguous] + h @ tensor(W_O)).tolist(),  # after the residual add
    }


def compute() -> dict:
    return {
        "model": {"embeddings": {role: list(e) for role, e in EMBEDDINGS.items()},
                  "W_Q": [list(r) for r in W_Q], "W_K": [list(r) for r in W_K],
                  "W_V": [list(r) for r in W_V], "W_O": [list(r) for r in W_O]},
        "sentences": {language: [sentence(words) for words in pair]
                      for language, pair in SENTENCES.items()},
    }
