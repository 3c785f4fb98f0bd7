"""The four students trained on the same seeds, and what sets each apart.

- main: four fixed keys, the tetrahedron, which the teacher uses too.
- learned_keys: the teacher is unchanged, but the student learns its own four
  keys, starting from random ones. Queries and keys are then determined only up
  to a change of basis of the query space, and each seed settles on another.
- three_keys: three records per example, and the first three fixed keys for the
  teacher and the student. Their differences span only two query directions;
  the third changes no score difference, so nothing in the loss pins it down.

Every student of a seed starts from the same W_Q and W_V and, with the same
keys, trains on the same batches (data.STREAMS).
"""

from typing import NamedTuple

import numpy as np
import torch

from experiment import data, measure
from experiment.config import Config
from experiment.model import Student, initial_student


class Variant(NamedTuple):
    keys: torch.Tensor  # (J, 3): the teacher's keys, one record per key; the student's too
    learn_keys: bool  # ... unless it learns J keys of its own
    optimizer: str = "adam"  # or "sgd" (train.make_optimizer)


VARIANTS = {
    "main": Variant(data.fixed_keys, learn_keys=False),
    "learned_keys": Variant(data.fixed_keys, learn_keys=True),
    "three_keys": Variant(data.fixed_keys[:3], learn_keys=False),
    "three_keys_sgd": Variant(data.fixed_keys[:3], learn_keys=False, optimizer="sgd"),
}


def student_for(variant: Variant, config: Config, seed: int,
                rng: np.random.Generator) -> Student:
    """The untrained student of SEED; `rng` is its training stream."""
    keys = variant.keys
    if variant.learn_keys:  # random keys of the fixed keys' shape, from the seed's own stream
        drawn = data.generator(seed, "keys").standard_normal(variant.keys.shape)
        keys = torch.from_numpy(drawn) * config.key_init_scale  # (J, 3)
    return initial_student(rng, config.init_scale, keys, variant.learn_keys)


def has_invisible_direction(variant: Variant) -> bool:
    """Whether some query direction changes no score difference of VARIANT's keys."""
    return len(measure.invisible_directions(variant.keys)) > 0


def particulars(variant: Variant, student: Student, R: torch.Tensor,
                snapshots: dict[int, dict[str, torch.Tensor]],
                trace_steps: list[int]) -> dict:
    """What only this variant measures of one seed's student (empty for the main one);
    `snapshots` are its parameters after each recorded step, 0 (where it started) and,
    for a student with an invisible direction, each of `trace_steps` among them."""
    query_response, _ = measure.responses(student, R)
    if variant.learn_keys:
        # Non-zero: the student's query coordinates are an invertible mix of the intended ones.
        M = query_response[data.QUERY]  # (3, 3): the query features -> its query coordinates
        determinant = torch.linalg.det(M)
        # Scores see only q K^T up to a term shared by all keys, so with queries q M the
        # loss is as low with keys K M^-T + c, any c: the fixed keys in the student's
        # basis, shifted by the c that fits its keys best (their mean difference).
        keys = student.keys.detach()
        in_its_basis = data.fixed_keys @ torch.linalg.inv(M).T
        mapped = in_its_basis + (keys - in_its_basis).mean(dim=0)
        return {"keys": keys.tolist(), "query_block_determinant": float(determinant),
                "mapped_fixed_keys": mapped.tolist(),
                "mapped_key_error": measure.largest(keys - mapped)}
    if not has_invisible_direction(variant):
        return {}
    directions = measure.invisible_directions(variant.keys)  # (d, 3)
    along, elsewhere = measure.departure(query_response, directions)
    # Where the untrained map stood along the same direction: the gradient has no part
    # along it, so plain SGD leaves it there (three_keys_sgd) and Adam does not.
    along_at_start, _ = measure.departure(R @ snapshots[0]["W_Q"], directions)
    seen, unseen = measure.split_along(query_response, directions)
    trace = [measure.component_along(R @ snapshots[step]["W_Q"], directions).flatten()
             for step in trace_steps]  # (9,) each
    return {"invisible_departure": along.flatten().tolist(), "visible_departure": elsewhere,
            "initial_invisible_departure": along_at_start.flatten().tolist(),
            # how far training moved it
            "invisible_drift": measure.largest(along - along_at_start),
            "visible_query_response": seen.tolist(),
            "invisible_query_response": unseen.tolist(),
            "invisible_component_trace": [row.tolist() for row in trace]}
