"""The construction: what is trained, what the keys pin down, and a known exact solution."""

import torch

from experiment import data
from experiment.config import Config
from experiment.data import PAYLOAD, QUERY, fixed_keys
from experiment.measure import key_difference_rank, responses
from experiment.model import Student, initial_student, mse
from experiment.train import optimizer_for

CONFIG = Config()


def heldout(n=512, seed=0):
    R = data.mixing_matrix(CONFIG.mixing_seed)
    examples = data.draw_examples(data.generator(seed, "heldout"), n, R, CONFIG.query_scale)
    return R, examples


def test_only_wq_and_wv_are_trainable():
    student = initial_student(data.generator(0, "training"), CONFIG.init_scale)
    shapes = {name: tuple(p.shape) for name, p in student.named_parameters()}
    assert shapes == {"Wq": (9, 3), "Wv": (9, 3)}
    assert sum(p.numel() for p in student.parameters()) == 54
    assert list(student.buffers()) == []
    # ... and the optimiser updates exactly those two tensors.
    trained = optimizer_for(student, CONFIG).params
    assert len(trained) == 2
    assert trained[0] is student.Wq and trained[1] is student.Wv


def test_mixing_matrix_is_orthogonal_and_fixed_by_its_seed():
    R = data.mixing_matrix(CONFIG.mixing_seed)
    assert R.shape == (9, 9) and R.dtype == torch.float64
    torch.testing.assert_close(R @ R.T, torch.eye(9, dtype=torch.float64), rtol=0, atol=1e-14)
    assert torch.equal(R, data.mixing_matrix(CONFIG.mixing_seed))
    assert not torch.equal(R, data.mixing_matrix(CONFIG.mixing_seed + 1))


def test_known_solution_reproduces_teacher_after_mixing():
    # x = zR with R orthogonal, so x R^T = z: the first three columns of R^T read the
    # (already scaled) query latents, the middle three the payload latents.
    R, examples = heldout()
    student = Student(R.T[:, QUERY].clone(), R.T[:, PAYLOAD].clone())
    prediction = student(examples.request, examples.records)[0]
    torch.testing.assert_close(prediction, examples.target, rtol=0, atol=1e-13)
    assert mse(prediction, examples.target) < 1e-28
    # Its responses in the latent basis are the intended identity blocks.
    query_response, value_response = responses(student, R)
    identity = torch.eye(9, dtype=torch.float64)
    torch.testing.assert_close(query_response, identity[:, QUERY], rtol=0, atol=1e-14)
    torch.testing.assert_close(value_response, identity[:, PAYLOAD], rtol=0, atol=1e-14)


def test_key_differences_span_three_query_directions():
    assert key_difference_rank(fixed_keys) == 3
    # Three keys give only two independent score differences: one query
    # direction would stay undetermined.
    assert key_difference_rank(fixed_keys[:3]) == 2


def test_query_scale_sharpens_every_inputs_query_latents():
    R, examples = heldout(n=20000)
    spread = examples.latents.std(dim=0)  # (5, 9)
    torch.testing.assert_close(spread[:, QUERY].mean(), torch.tensor(CONFIG.query_scale,
                               dtype=torch.float64), rtol=0.02, atol=0)
    torch.testing.assert_close(spread[:, 3:].mean(), torch.tensor(1.0, dtype=torch.float64),
                               rtol=0.02, atol=0)
    torch.testing.assert_close(examples.request, examples.latents[:, 0] @ R)
    torch.testing.assert_close(examples.records, examples.latents[:, 1:] @ R)
    # The interventions re-mix with data.mix: the very same inputs.
    request, records = data.mix(examples.latents, R)
    assert torch.equal(request, examples.request) and torch.equal(records, examples.records)


def test_consecutive_draws_continue_one_stream():
    # train.STEPS_PER_DRAW is a speed setting only: drawing in pieces gives the same data.
    R = data.mixing_matrix(CONFIG.mixing_seed)
    whole = data.draw_examples(data.generator(3, "training"), 300, R, CONFIG.query_scale)
    rng = data.generator(3, "training")
    first = data.draw_examples(rng, 128, R, CONFIG.query_scale)
    second = data.draw_examples(rng, 172, R, CONFIG.query_scale)
    assert torch.equal(whole.latents, torch.cat([first.latents, second.latents]))


def test_training_and_heldout_streams_differ():
    a = data.generator(0, "training").standard_normal(10)
    b = data.generator(0, "heldout").standard_normal(10)
    c = data.generator(1, "training").standard_normal(10)
    assert not (a == b).any() and not (a == c).any()
