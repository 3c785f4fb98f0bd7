"""The interventions' edits, and what they measure on a student known to be exact."""

import torch

from experiment import data, interventions, measure
from experiment.config import Config
from experiment.data import NOISE, PAYLOAD, QUERY
from sitebuild.claims.feature_recovery import FLOAT_PRECISION_MSE, SUBSTANTIAL_MSE
from tests.experiment.test_model import R, heldout, known_solution

CONFIG = Config()


def latents(n=8):
    return heldout(n=n).latents  # (n, 5, 9)


def changed(before, after) -> set[tuple[int, int]]:
    """(input, latent) positions where any example differs."""
    return {(i, j) for i, j in (before != after).any(dim=0).nonzero().tolist()}


def test_erasing_sets_one_feature_to_zero_its_mean_and_leaves_the_rest():
    z = latents()
    erased = interventions.erase_query(z, 1)
    assert changed(z, erased) == {(0, QUERY.start + 1)}
    assert (erased[..., 0, QUERY.start + 1] == 0).all()
    erased = interventions.erase_payload(z, 2)
    assert changed(z, erased) == {(record, PAYLOAD.start + 2) for record in range(1, 5)}
    assert (erased[..., 1:, PAYLOAD.start + 2] == 0).all()
    # Zero is the mean the features are drawn with.
    many = heldout(n=20000).latents
    assert many[..., PAYLOAD].mean().abs() < 0.02 and many[..., QUERY].mean().abs() < 0.02


def test_shifting_moves_exactly_what_the_teacher_ignores():
    z = latents()
    shifted = interventions.shift_irrelevant(z, CONFIG.shift)
    request_rows = {(0, j) for j in range(PAYLOAD.start, NOISE.stop)}
    record_rows = {(r, j) for r in range(1, 5)
                   for j in [*range(QUERY.start, QUERY.stop), *range(NOISE.start, NOISE.stop)]}
    assert changed(z, shifted) == request_rows | record_rows
    torch.testing.assert_close(shifted - z, (shifted != z).double() * CONFIG.shift)
    torch.testing.assert_close(data.teacher(shifted), data.teacher(z), rtol=0, atol=0)


def test_edits_return_copies():
    z = latents()
    before = z.clone()
    interventions.erase_query(z, 0)
    interventions.erase_payload(z, 0)
    interventions.shift_irrelevant(z, 1.0)
    assert torch.equal(z, before)


def test_an_exact_student_matches_the_teacher_under_every_edit():
    examples = heldout(n=256)
    measured = measure.intervene(known_solution(), examples, R, CONFIG.shift,
                                 data.fixed_keys)
    for name in ("erase_query_vs_teacher", "erase_payload_vs_teacher", "shift_irrelevant"):
        assert (measured[name] < FLOAT_PRECISION_MSE).all(), name
    # ... while against the original target, erasing a used feature costs accuracy.
    for name in ("erase_query", "erase_payload"):
        assert (measured[name] > SUBSTANTIAL_MSE).all(), name
