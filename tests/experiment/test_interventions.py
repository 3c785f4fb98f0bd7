"""The interventions' edits, and what they measure on a student known to be exact."""

import torch

from experiment import data, interventions, measure
from experiment.config import Config
from experiment.data import NOISE, PAYLOAD, QUERY
from experiment.measure import invisible_directions
from experiment.model import Student
from experiment.variants import VARIANTS
from sitebuild.claims.feature_recovery import SUBSTANTIAL_MSE
from tests.experiment.test_model import R, heldout, known_solution
from tests.project import FLOAT_PRECISION_MSE

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


def test_shifting_one_request_feature_moves_it_alone():
    z = latents()
    shifted = interventions.shift_request(z, PAYLOAD.start, CONFIG.shift)
    assert changed(z, shifted) == {(0, PAYLOAD.start)}
    torch.testing.assert_close(shifted - z, (shifted != z).double() * CONFIG.shift)


def test_edits_return_copies():
    z = latents()
    before = z.clone()
    interventions.erase_query(z, 0)
    interventions.erase_payload(z, 0)
    interventions.shift_irrelevant(z, 1.0)
    interventions.shift_request(z, 3, 1.0)
    W_Q = known_solution().W_Q.detach()
    W_Q_before = W_Q.clone()
    interventions.shift_query_map(W_Q, R, torch.ones(3, dtype=torch.float64), 1.0)
    assert torch.equal(z, before) and torch.equal(W_Q, W_Q_before)


def test_shifting_the_query_map_along_u_adds_u_to_every_row_of_its_response():
    (u,) = invisible_directions(VARIANTS["three_keys"].keys)
    W_Q = known_solution().W_Q.detach()
    shifted = interventions.shift_query_map(W_Q, R, u, 0.7)
    torch.testing.assert_close(R @ shifted - R @ W_Q, 0.7 * u.expand(9, 3), rtol=0,
                               atol=1e-15)


def test_along_u_the_shifted_map_moves_no_weight_with_three_keys_and_every_one_with_four():
    (u,) = invisible_directions(VARIANTS["three_keys"].keys)
    exact = known_solution()
    for keys, moves in ((VARIANTS["three_keys"].keys, False), (data.fixed_keys, True)):
        examples = heldout(n=64, keys=keys)
        before = Student(exact.W_Q.detach(), exact.W_V.detach(), keys)
        after = Student(interventions.shift_query_map(exact.W_Q.detach(), R, u, 1.0),
                        exact.W_V.detach(), keys)
        with torch.no_grad():
            change = (after.attention(examples.request)
                      - before.attention(examples.request)).abs().max()
        assert (change > 0.1) if moves else (change < 1e-13), (len(keys), float(change))


def test_an_exact_student_matches_the_teacher_under_every_edit():
    examples = heldout(n=256)
    measured = measure.intervene(known_solution(), examples, R, CONFIG.shift,
                                 data.fixed_keys)
    for name in ("erase_query_vs_teacher", "erase_payload_vs_teacher", "shift_irrelevant"):
        assert (measured[name] < FLOAT_PRECISION_MSE).all(), name
    # ... while against the original target, erasing a used feature costs accuracy.
    for name in ("erase_query", "erase_payload"):
        assert (measured[name] > SUBSTANTIAL_MSE).all(), name
