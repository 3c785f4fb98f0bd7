"""Edits of the known latent features: what the interventions do to an example.

Mirrored in docs/assets/javascripts/intervention-explorer.js (intervene).

Each takes latents z of shape (..., 1 + J, 9), the request then J records, and
returns an edited copy; the caller re-mixes it with the same R (data.mix) and
compares predictions, or the student's prediction with the teacher's target
for the same edited latents. measure.py, the notebook and the tests share them.

"Erase" means set to 0, which is the feature's mean: every latent is drawn with
mean 0, so erasing removes what the feature says without moving the input
outside the data.
"""

import torch

from experiment.data import NOISE, PAYLOAD, QUERY


def erase_query(z: torch.Tensor, i: int) -> torch.Tensor:
    """Set the request's query latent i (0, 1, 2) to 0, its mean."""
    edited = z.clone()
    edited[..., 0, QUERY.start + i] = 0
    return edited


def erase_payload(z: torch.Tensor, i: int) -> torch.Tensor:
    """Set payload latent i (0, 1, 2) of every record to 0, its mean."""
    edited = z.clone()
    edited[..., 1:, PAYLOAD.start + i] = 0
    return edited


def shift_irrelevant(z: torch.Tensor, amount: float) -> torch.Tensor:
    """Add `amount` to every latent the task ignores: the request's payload and noise
    latents (the query map has no use for them) and the records' query and noise
    latents (nor has the value map)."""
    edited = z.clone()
    edited[..., 0, PAYLOAD] += amount
    edited[..., 0, NOISE] += amount
    edited[..., 1:, QUERY] += amount
    edited[..., 1:, NOISE] += amount
    return edited
