"""The three students trained on the same seeds, and what sets each apart.

- main: four fixed keys, the tetrahedron, which the teacher uses too.
- learned_keys: the teacher is unchanged, but the student learns its own four
  keys, starting from random ones. Queries and keys are then determined only up
  to a change of basis of the query space, and each seed settles on another.
- three_keys: three records per example, and the first three fixed keys for the
  teacher and the student. Their differences span only two query directions;
  the third changes no score difference, so nothing in the loss pins it down.

Every student of a seed starts from the same W_Q and W_V and, with four records,
trains on the same batches (data.STREAMS).
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
    optimizer: str = "adam"  # or "sgd" (train.OPTIMIZERS)


VARIANTS = {
    "main": Variant(data.fixed_keys, learn_keys=False),
    "learned_keys": Variant(data.fixed_keys, learn_keys=True),
    "three_keys": Variant(data.fixed_keys[:3], learn_keys=False),
    "three_keys_sgd": Variant(data.fixed_keys[:3], learn_keys=False, optimizer="sgd"),
}


def student_for(variant: Variant, config: Config, rngs: list[np.random.Generator]) -> Student:
    """The untrained student of every seed of config; `rngs` are their training streams."""
    keys = variant.keys
    if variant.learn_keys:  # random keys of the fixed keys' shape, from each seed's own stream
        keys = torch.stack([
            torch.from_numpy(data.generator(seed, "keys").standard_normal(variant.keys.shape))
            for seed in config.seeds
        ]) * config.key_init_scale  # (S, J, 3)
    return initial_student(rngs, config.init_scale, keys, variant.learn_keys)


def particulars(variant: Variant, student: Student, R: torch.Tensor,
                initial_W_Q: torch.Tensor) -> list[dict]:
    """What only this variant measures, one dict per seed (empty for the main one);
    `initial_W_Q` (S, 9, 3) is where the student started."""
    query_response, _ = measure.responses(student, R)
    if variant.learn_keys:
        learned_keys = student.keys.detach()  # (S, J, 3)
        # Non-zero: the student's query coordinates are an invertible mix of the intended ones.
        determinants = torch.linalg.det(query_response[:, data.QUERY])  # (S,)
        return [{"keys": keys.tolist(), "query_block_determinant": float(determinant)}
                for keys, determinant in zip(learned_keys, determinants, strict=True)]
    directions = measure.invisible_directions(variant.keys)  # (d, 3)
    if len(directions) == 0:
        return [{} for _ in query_response]
    along, elsewhere = measure.departure(query_response, directions)
    # Where the untrained map stood along the same direction: the gradient has no part
    # along it, so plain SGD leaves it there (three_keys_sgd) and Adam does not.
    along_at_start, _ = measure.departure(R @ initial_W_Q, directions)
    drift = measure.largest(along - along_at_start)  # how far training moved it, per seed
    return [{"invisible_departure": a.flatten().tolist(), "visible_departure": e,
             "initial_invisible_departure": a0.flatten().tolist(), "invisible_drift": d}
            for a, e, a0, d in zip(along, elsewhere, along_at_start, drift, strict=True)]
