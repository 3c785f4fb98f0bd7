"""Edits that test what a student reads: of the known latent features of an example,
and of the student's query map along one query direction.

Mirrored in docs/assets/javascripts/intervention-explorer.js (intervene, shiftedMap).

The latent edits take latents z of shape (..., 1 + J, 9), the request then J
records, and return an edited copy; the caller re-mixes it with the same R
(data.mix) and compares predictions, or the student's prediction with the
teacher's target for the same edited latents. measure.py, the notebook and the
tests share them.

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


def shift_request(z: torch.Tensor, i: int, amount: float) -> torch.Tensor:
    """Add `amount` to the request's latent i (0 … 8): one feature that a query
    response may appear to read."""
    edited = z.clone()
    edited[..., 0, i] += amount
    return edited


def shift_query_map(W_Q: torch.Tensor, R: torch.Tensor, direction: torch.Tensor,
                    amount: float) -> torch.Tensor:
    """W_Q (9, 3) moved so that its query response R W_Q gains `amount` times the unit
    query `direction` (3) on every latent row: each query moves along the direction,
    by `amount` times the sum of the request's latents. Along an invisible direction
    every score moves alike, so no attention weight changes."""
    every_row = torch.ones(R.shape[0], 1, dtype=R.dtype)  # (9, 1)
    return W_Q + amount * (R.T @ every_row) @ direction[None, :]  # R orthogonal: R Rᵀ = I
