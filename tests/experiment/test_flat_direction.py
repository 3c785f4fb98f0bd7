"""The sketch of a loss flat along u shows what its caption says: SGD's path never
moves along u, Adam's does, and both end on the valley floor."""
from __future__ import annotations

import numpy as np
import torch

from experiment import figures

ADAM = torch.optim.Adam([torch.zeros(1)]).defaults  # the run uses torch's Adam


def _paths():
    return figures._sketch_paths(ADAM["betas"], ADAM["eps"])


def test_sgd_steps_straight_downhill_and_never_along_u():
    u, _, paths = _paths()
    along = paths["SGD"] @ u
    assert np.abs(along - along[0]).max() < 1e-12


def test_adam_lands_elsewhere_along_the_floor():
    u, _, paths = _paths()
    along = paths["Adam"] @ u
    # visibly elsewhere: a tenth of the sketch's start distance from the floor
    assert abs(along[-1] - along[0]) > 0.1 * abs(figures.VALLEY_START[0])


def test_both_paths_end_on_the_floor():
    _, n, paths = _paths()
    for path in paths.values():
        assert abs(path[-1] @ n) < 0.05 * abs(path[0] @ n)
