"""What the trained maps read, measured on held-out examples and in the latent basis."""

import itertools

import torch

from experiment.data import NOISE, PAYLOAD, QUERY, Batch, mix
from experiment.model import Student, mse


def key_difference_rank(keys: torch.Tensor) -> int:
    """Rank of all differences keys[i] - keys[j]: how many query directions the keys pin.

    Softmax ignores a constant added to every score, so only score differences,
    q . (k_i - k_j), constrain the query.
    """
    pairs = itertools.combinations(range(len(keys)), 2)
    differences = torch.stack([keys[i] - keys[j] for i, j in pairs])  # (pairs, 3)
    return int(torch.linalg.matrix_rank(differences))


def responses(student: Student, R: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """R @ Wq and R @ Wv, (9, 3) each: since q = (zR) Wq = z (R Wq), row i is how
    each coordinate changes when latent feature i grows by one."""
    return R @ student.Wq.detach(), R @ student.Wv.detach()


def unexplained_fraction(learned: torch.Tensor, intended: torch.Tensor) -> float:
    """SSE/SST of the least-squares line (with intercept) that predicts the learned
    coordinate from its intended latent feature: the share of the coordinate's
    variance that the one intended feature does not explain.

    This is 1 - R², computed directly: near a perfect fit, 1 - R² in float64
    rounds to 0, while SSE/SST keeps its digits. Defined as 1 when the
    coordinate is constant (it then carries nothing about the feature).
    """
    learned = learned.flatten() - learned.mean()
    intended = intended.flatten() - intended.mean()
    total = (learned**2).sum()
    if total == 0:
        return 1.0
    slope = (learned * intended).sum() / (intended**2).sum()
    residual = ((learned - slope * intended) ** 2).sum()
    return float(residual / total)


def r_squared(learned: torch.Tensor, intended: torch.Tensor) -> float:
    """Coefficient of determination, 1 - SSE/SST (see unexplained_fraction).

    It is unchanged by the coordinate's scale and offset, and 0 when the
    coordinate is constant.
    """
    return 1.0 - unexplained_fraction(learned, intended)


@torch.no_grad()
def predict(student: Student, latents: torch.Tensor, R: torch.Tensor) -> torch.Tensor:
    """The student's prediction (n, 3) for (possibly edited) latents (n, 5, 9)."""
    request, records = mix(latents, R)
    return student(request, records)[0]


@torch.no_grad()
def measure_seed(student: Student, heldout: Batch, R: torch.Tensor, shift: float) -> dict:
    """All per-seed measurements on held-out examples, as plain Python numbers."""
    z = heldout.latents  # (n, 5, 9): request, then four records
    prediction, _, V = student(heldout.request, heldout.records)
    q = heldout.request @ student.Wq  # (n, 3)
    pairs = [(q[:, i], z[:, 0, QUERY][:, i]) for i in range(3)]  # (learned, intended)
    pairs += [(V[..., i], z[:, 1:, PAYLOAD][..., i]) for i in range(3)]
    unexplained = [unexplained_fraction(learned, intended) for learned, intended in pairs]
    r2_query, r2_value = [1.0 - u for u in unexplained[:3]], [1.0 - u for u in unexplained[3:]]
    uniform = z[:, 1:, PAYLOAD].mean(dim=1)  # (n, 3): true payloads, each weighted 1/4
    query_response, value_response = responses(student, R)
    return {
        "query_response": query_response.tolist(),
        "value_response": value_response.tolist(),
        "heldout_mse": float(mse(prediction, heldout.target)),
        "uniform_attention_mse": float(mse(uniform, heldout.target)),
        "r2": {"query": r2_query, "value": r2_value},
        "min_r2": min(r2_query + r2_value),
        "max_unexplained": max(unexplained),
        "interventions": interventions(student, heldout, R, prediction, shift),
    }


def interventions(student, heldout, R, prediction, shift) -> dict:
    """Edit known latents, re-mix with the same R, and see what the prediction does."""
    z = heldout.latents

    def edited(edit):
        latents = z.clone()
        edit(latents)
        return predict(student, latents, R)

    def erase_query(i):
        def edit(latents):
            latents[:, 0, QUERY.start + i] = 0  # the request's query latent i
        return float(mse(edited(edit), heldout.target))

    def erase_payload(i):
        def edit(latents):
            latents[:, 1:, PAYLOAD.start + i] = 0  # payload latent i of every record
        return float(mse(edited(edit), heldout.target))

    def shift_irrelevant(latents):
        latents[:, 0, PAYLOAD] += shift  # the query map has no use for these ...
        latents[:, 0, NOISE] += shift
        latents[:, 1:, QUERY] += shift  # ... nor the value map for these
        latents[:, 1:, NOISE] += shift

    return {
        "erase_query": [erase_query(i) for i in range(3)],
        "erase_payload": [erase_payload(i) for i in range(3)],
        "shift_irrelevant": float(mse(edited(shift_irrelevant), prediction)),
    }
