"""What the trained maps read, measured on held-out examples and in the latent basis.

Mirrored in docs/assets/javascripts/playground-model.js: uniformAttentionMse() as
measure()'s uniform-attention MSE, invisibleDeparture() as departure().

Every function takes one seed's student and its held-out examples;
measure() turns what they measure into one dict of plain Python numbers.
"""

import itertools

import torch

from experiment import interventions
from experiment.data import NOISE, PAYLOAD, QUERY, Batch, mix, teacher
from experiment.model import Student, mse

# The maps the teacher implies: the query coordinates read the query latents, the
# value coordinates the payload latents, each with coefficient one. (9, 3) each.
INTENDED_QUERY = torch.eye(9, dtype=torch.float64)[:, QUERY]
INTENDED_VALUE = torch.eye(9, dtype=torch.float64)[:, PAYLOAD]


def key_differences(keys: torch.Tensor) -> torch.Tensor:
    """All differences keys[i] - keys[j], i < j: (pairs, 3).

    Softmax ignores a constant added to every score, so only score differences,
    q . (k_i - k_j), constrain the query.
    """
    pairs = itertools.combinations(range(len(keys)), 2)
    return torch.stack([keys[i] - keys[j] for i, j in pairs])


def key_difference_rank(keys: torch.Tensor) -> int:
    """How many query directions the keys pin down."""
    return int(torch.linalg.matrix_rank(key_differences(keys)))


def invisible_directions(keys: torch.Tensor) -> torch.Tensor:
    """Unit query directions (3 - rank, 3) orthogonal to every key difference: moving a
    query along them changes no score difference, so no prediction."""
    _, _, Vh = torch.linalg.svd(key_differences(keys))
    directions = Vh[key_difference_rank(keys):]
    # A fixed sign, so that reruns and seeds report the same direction.
    first_nonzero = (directions.abs() > 1e-12).to(torch.float64).argmax(dim=1)
    signs = torch.sign(directions.gather(1, first_nonzero[:, None]))
    return directions * signs


def data_statistics(latents: torch.Tensor, R: torch.Tensor) -> dict:
    """What the page says of the data, measured on the data as generated: the mean and
    standard deviation of each latent feature over every input (request and records) of
    `latents` (..., 1 + J, 9), by group, and how far R is from orthogonal."""
    z = latents.reshape(-1, latents.shape[-1])  # (every input, 9)
    mean, std = z.mean(dim=0), z.std(dim=0)
    groups = {"query": QUERY, "payload": PAYLOAD, "noise": NOISE}
    identity = torch.eye(len(R), dtype=R.dtype)
    return {
        "inputs": len(z),
        "latent_mean": {name: mean[group].tolist() for name, group in groups.items()},
        "latent_std": {name: std[group].tolist() for name, group in groups.items()},
        "largest_abs_mean": float(mean.abs().max()),
        "mixing_orthogonality_error": float((R @ R.T - identity).abs().max()),
    }


def responses(student: Student, R: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """R @ W_Q and R @ W_V, (9, 3) each: since q = (zR) W_Q = z (R W_Q), row i is
    how each coordinate changes when latent feature i grows by one."""
    return R @ student.W_Q.detach(), R @ student.W_V.detach()


def score_map(query_response: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    """The map from the request's latents to its J scores, (..., 9, J), centred across
    keys: softmax ignores a constant shared by all J scores."""
    scores = query_response @ keys.mT / 3**0.5
    return scores - scores.mean(dim=-1, keepdim=True)


def component_along(query_response: torch.Tensor, directions: torch.Tensor) -> torch.Tensor:
    """The coefficients of R @ W_Q (9, 3) along the unit query `directions` (d, 3), per
    latent row: (9, d)."""
    return query_response @ directions.T


def split_along(query_response: torch.Tensor,
                directions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """R @ W_Q (9, 3) as the sum of the part that the loss sees, orthogonal to every
    unit query direction of `directions` (d, 3), and its part along them (rank d)."""
    along = component_along(query_response, directions) @ directions  # (9, 3)
    return query_response - along, along


def departure(query_response: torch.Tensor,
              directions: torch.Tensor) -> tuple[torch.Tensor, float]:
    """Split R @ W_Q minus the intended map into its coefficients along the unit
    query `directions` (d, 3), per latent row, (9, d), and the largest |entry| of
    what is left."""
    difference = query_response - INTENDED_QUERY  # (9, 3)
    along = difference @ directions.T  # (9, d)
    return along, largest(difference - along @ directions)


def largest(values: torch.Tensor) -> float:
    """The largest |entry| of `values`."""
    return float(values.abs().max())


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


def unexplained(q: torch.Tensor, V: torch.Tensor, z: torch.Tensor) -> list[float]:
    """1 - R² of the student's three query coordinates q (B, 3), against the request's
    query latents, and of its three value coordinates V (B, J, 3), against the
    records' payload latents, all records pooled; z (B, 1 + J, 9) are the latents."""
    pairs = [(q[:, i], z[:, 0, QUERY][:, i]) for i in range(3)]
    pairs += [(V[..., i], z[:, 1:, PAYLOAD][..., i]) for i in range(3)]
    return [unexplained_fraction(learned, intended) for learned, intended in pairs]


@torch.no_grad()
def predict(student: Student, latents: torch.Tensor, R: torch.Tensor) -> torch.Tensor:
    """The student's prediction (B, 3) for (possibly edited) latents (B, 1 + J, 9)."""
    return student(*mix(latents, R))


def teacher_example(examples: Batch, keys: torch.Tensor) -> dict:
    """The first of `examples` step by step through the teacher, as the page walks a
    reader through it: its latents, the request's query, its score against each key,
    the attention weights, each record's payload, and the target they make."""
    latents = examples.latents[0]                       # (1 + J, 9)
    query = latents[0, QUERY]                           # (3,)
    scores = query @ keys.T / 3**0.5                    # (J,): the teacher's scaling
    return {
        "latents": latents.tolist(),
        "query": query.tolist(),
        "scores": scores.tolist(),
        "weights": torch.softmax(scores, dim=-1).tolist(),
        "payloads": latents[1:, PAYLOAD].tolist(),      # (J, 3)
        "target": examples.target[0].tolist(),
    }


@torch.no_grad()
def intervene(student: Student, heldout: Batch, R: torch.Tensor, shift: float,
              keys: torch.Tensor) -> dict[str, torch.Tensor]:
    """Edit known latents, re-mix with the same R, and see what the prediction does.

    erase_*: MSE against the original target, one per feature (3,): the student
    depends on the feature. erase_*_vs_teacher: MSE against the teacher's target for
    the same edited latents (3,): the student uses the feature as the teacher does.
    shift_irrelevant: MSE between new and original predictions (0-dim).
    """
    z, original = heldout.latents, predict(student, heldout.latents, R)

    def erased(edit) -> tuple[torch.Tensor, torch.Tensor]:  # (3,) twice
        against_target, against_teacher = [], []
        for i in range(3):
            edited = edit(z, i)
            prediction = predict(student, edited, R)
            against_target.append(mse(prediction, heldout.target))
            against_teacher.append(mse(prediction, teacher(edited, keys)))
        return torch.stack(against_target), torch.stack(against_teacher)

    erase_query, erase_query_vs_teacher = erased(interventions.erase_query)
    erase_payload, erase_payload_vs_teacher = erased(interventions.erase_payload)
    shifted = predict(student, interventions.shift_irrelevant(z, shift), R)
    return {
        "erase_query": erase_query,
        "erase_payload": erase_payload,
        "shift_irrelevant": mse(shifted, original),
        "erase_query_vs_teacher": erase_query_vs_teacher,
        "erase_payload_vs_teacher": erase_payload_vs_teacher,
    }


@torch.no_grad()
def measure(student: Student, heldout: Batch, R: torch.Tensor, shift: float,
            keys: torch.Tensor) -> dict:
    """Every measurement of one seed's student trained against a teacher with `keys`,
    on that seed's held-out examples, as plain Python numbers."""
    query_response, value_response = responses(student, R)
    query_error = largest(query_response - INTENDED_QUERY)
    value_error = largest(value_response - INTENDED_VALUE)
    score_map_error = largest(score_map(query_response, student.keys)
                              - score_map(INTENDED_QUERY, keys))
    heldout_mse = mse(predict(student, heldout.latents, R), heldout.target)
    uniform = heldout.latents[..., 1:, PAYLOAD].mean(dim=-2)  # true payloads, weights 1/J
    uniform_mse = mse(uniform, heldout.target)
    intervened = intervene(student, heldout, R, shift, keys)
    q, V = student.queries(heldout.request), student.values(heldout.records)
    fractions = unexplained(q, V, heldout.latents)
    r2_query, r2_value = [1.0 - u for u in fractions[:3]], [1.0 - u for u in fractions[3:]]
    return {
        "query_response": query_response.tolist(),
        "value_response": value_response.tolist(),
        "response_error": {"query": query_error, "value": value_error},
        "max_response_error": max(query_error, value_error),
        "score_map_error": score_map_error,
        "heldout_mse": float(heldout_mse),
        "uniform_attention_mse": float(uniform_mse),
        "r2": {"query": r2_query, "value": r2_value},
        "min_r2": min(r2_query + r2_value),
        "max_unexplained": max(fractions),
        "interventions": {name: values.tolist() for name, values in intervened.items()},
    }
