"""Why scores are divided by √d_k: without it, softmax saturates as d_k grows.

A query and KEYS keys get independent entries of mean 0 and variance 1, so a
dot product q·k is a sum of d_k terms of variance 1: its spread (standard
deviation) is √d_k. Softmax of scores that far apart puts almost all the weight
on the largest one. Dividing by √d_k brings the spread back to 1 at every d_k.
"""

import math

import torch

D_K = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)  # key dimensions, up to a large head's
KEYS = 16  # keys per query: a short text
DRAWS = 1000  # queries per d_k: the spread to about 1 % (the claim allows 5 %)
SEED = 20240  # the generator's seed: any fixed number gives a reproducible figure


# --8<-- [start:scaling]
def saturation(d_k: int, generator: torch.Generator) -> dict:
    q = torch.randn(DRAWS, 1, d_k, generator=generator, dtype=torch.float64)
    K = torch.randn(DRAWS, KEYS, d_k, generator=generator, dtype=torch.float64)
    scores = (q @ K.transpose(1, 2))[:, 0]        # (DRAWS, KEYS): entries of variance d_k
    unscaled = torch.softmax(scores, dim=-1)
    scaled = torch.softmax(scores / math.sqrt(d_k), dim=-1)
    return {
        "d_k": d_k,
        "spread": scores.std().item(),            # ≈ √d_k
        "largest_unscaled": unscaled.max(dim=-1).values.mean().item(),
        "largest_scaled": scaled.max(dim=-1).values.mean().item(),
    }
# --8<-- [end:scaling]


def compute() -> dict:
    generator = torch.Generator().manual_seed(SEED)
    rows = [saturation(d_k, generator) for d_k in D_K]
    return {
        "keys": KEYS,
        "draws": DRAWS,
        "uniform_weight": 1 / KEYS,
        "root_d_k": [math.sqrt(d_k) for d_k in D_K],  # what each spread should be
        # One list per quantity, in the order of d_k; "largest" is the last d_k's row.
        **{key: [row[key] for row in rows] for key in rows[0]},
        "largest": rows[-1],
    }
