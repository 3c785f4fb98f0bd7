"""Synthetic examples whose features we know: latents, mixing, and the teacher.

Mirrored in docs/assets/javascripts/playground-model.js (drawExamples, label).

Each example is one request and one source record per key (four; three in
the three-keys variant). Every input has nine latent coordinates: three query
features, three payload features, three noise features. A fixed random
orthogonal matrix R mixes them, x = zR, and the model sees only x.

Examples come in batches (B, ...), drawn from one seed's random stream. The
teacher and the mixing take tensors with any leading dimensions (`...`).

Random numbers come from numpy rather than torch: numpy's SeedSequence turns
(seed, stream) into statistically independent streams, so training, held-out
and mixing draws never overlap; and numpy's SFC64 generator gives float64
normals about two and a half times as fast as torch.randn on CPU.
"""

from typing import NamedTuple

import numpy as np
import torch

# Roles of the nine latent coordinates (columns of z).
QUERY = slice(0, 3)
PAYLOAD = slice(3, 6)
NOISE = slice(6, 9)

# Independent random streams; a seed's training stream also draws its initial W_Q and
# W_V, and its "keys" stream the learned-keys variant's initial keys, so that every
# model of a seed starts from the same maps and sees the same batches.
STREAMS = {"mixing": 0, "training": 1, "heldout": 2, "keys": 3}

# --8<-- [start:fixed_keys]
fixed_keys = torch.tensor([
    [ 1.,  1.,  1.],
    [ 1., -1., -1.],
    [-1.,  1., -1.],
    [-1., -1.,  1.],
], dtype=torch.float64)
# --8<-- [end:fixed_keys]
# (4, 3): the vertices of a tetrahedron; their differences span all three query directions.


class Batch(NamedTuple):
    latents: torch.Tensor  # (B, 1 + J, 9): request then J records, query scaled
    request: torch.Tensor  # (B, 9) mixed
    records: torch.Tensor  # (B, J, 9) mixed
    target: torch.Tensor  # (B, 3)


def generator(seed: int, stream: str) -> np.random.Generator:
    """The random stream `stream` of `seed`, one of STREAMS."""
    # SFC64 (Doty-Humphrey's Small Fast Chaotic generator, from PractRand): the
    # fastest of numpy's bit generators here; numpy guarantees its stream per seed.
    return np.random.Generator(np.random.SFC64(np.random.SeedSequence([seed, STREAMS[stream]])))


def mixing_matrix(seed: int) -> torch.Tensor:
    """A random orthogonal 9 x 9 matrix R, fixed by `seed`."""
    gaussian = torch.from_numpy(generator(seed, "mixing").standard_normal((9, 9)))
    Q, upper = torch.linalg.qr(gaussian)
    # The sign fix makes the factorisation unique and Q uniformly (Haar) distributed.
    return Q * torch.sign(torch.diagonal(upper))


def teacher(latents: torch.Tensor, keys: torch.Tensor = fixed_keys) -> torch.Tensor:
    """The target: the request's query latents attend over the records' payloads."""
    # --8<-- [start:teacher]
    query = latents[..., 0, QUERY]                              # (B, 3)
    weights = torch.softmax(query @ keys.T / 3**0.5, dim=-1)    # (B, J): per key
    payloads = latents[..., 1:, PAYLOAD]                        # (B, J, 3)
    target = (weights.unsqueeze(-1) * payloads).sum(dim=-2)     # (B, 3)
    # --8<-- [end:teacher]
    return target


def mix(latents: torch.Tensor, R: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """What the model sees of (possibly edited) latents (..., 1 + J, 9), as
    draw_examples mixes them: the request (..., 9) and the records (..., J, 9)."""
    x = latents @ R
    # Contiguous copies: the model's matmuls on strided slices would copy every step.
    return x[..., 0, :].contiguous(), x[..., 1:, :].contiguous()


def draw_examples(rng: np.random.Generator, B: int, R: torch.Tensor,
                  query_scale: float, keys: torch.Tensor = fixed_keys) -> Batch:
    """`B` fresh examples from the seed's generator `rng`, one record per key;
    consecutive calls continue the same stream."""
    # --8<-- [start:data]
    shape = (B, 1 + len(keys), 9)         # the request, then one record per key
    latents = torch.from_numpy(rng.standard_normal(shape))    # z, 9 per input
    latents[..., QUERY] *= query_scale    # every query latent: sharper attention
    x = latents @ R                       # x = zR for the request and every record
    request, records = x[:, 0], x[:, 1:]  # (B, 9), (B, J, 9)
    target = teacher(latents, keys)       # (B, 3)
    # --8<-- [end:data]
    return Batch(latents, request.contiguous(), records.contiguous(), target)
