"""The construction: what is trained, what the keys pin down, and a known exact solution."""

import torch

from experiment import data
from experiment.config import Config
from experiment.data import PAYLOAD, QUERY, fixed_keys
from experiment.measure import (
    invisible_directions,
    key_difference_rank,
    key_differences,
    responses,
)
from experiment.model import Student, initial_student, mse, trainable_parameters
from experiment.variants import VARIANTS, student_for

CONFIG = Config()
R = data.mixing_matrix(CONFIG.mixing_seed)


def heldout(n=512, seed=0, keys=fixed_keys) -> data.Batch:
    return data.draw_examples(data.generator(seed, "heldout"), n, R, CONFIG.query_scale, keys)


def known_solution() -> Student:
    # x = zR with R orthogonal, so x R^T = z: the first three columns of R^T read the
    # (already scaled) query latents, the middle three the payload latents.
    return Student(R.T[:, QUERY].clone(), R.T[:, PAYLOAD].clone())


def test_only_w_q_and_w_v_are_trainable():
    student = initial_student(data.generator(0, "training"), CONFIG.init_scale)
    shapes = {name: tuple(p.shape) for name, p in student.named_parameters()}
    assert shapes == {"W_Q": (9, 3), "W_V": (9, 3)}
    assert trainable_parameters(student) == 54
    assert list(student.buffers()) == []


def test_the_learned_keys_student_also_trains_four_keys_of_its_seed():
    config = Config(seeds=(0, 1))
    students = [student_for(VARIANTS["learned_keys"], config, s, data.generator(s, "training"))
                for s in config.seeds]
    for student in students:
        assert {name: tuple(p.shape) for name, p in student.named_parameters()} == {
            "W_Q": (9, 3), "W_V": (9, 3), "keys": (4, 3)}
        assert trainable_parameters(student) == 54 + 12
    assert not torch.equal(students[0].keys, students[1].keys)


def test_every_student_of_a_seed_starts_from_the_same_maps():
    config = Config(seeds=(4,))
    starts = [student_for(variant, config, 4, data.generator(4, "training"))
              for variant in VARIANTS.values()]
    for student in starts[1:]:
        assert torch.equal(student.W_Q, starts[0].W_Q)
        assert torch.equal(student.W_V, starts[0].W_V)
    other = student_for(VARIANTS["main"], config, 7, data.generator(7, "training"))
    assert not torch.equal(other.W_Q, starts[0].W_Q)


def test_forward_returns_the_prediction_and_attention_weights_come_from_their_own_method():
    batch = heldout(n=16)
    student = initial_student(data.generator(0, "training"), 1.0)
    prediction = student(batch.request, batch.records)
    assert isinstance(prediction, torch.Tensor) and prediction.shape == (16, 3)
    weights = student.attention(batch.request)
    assert weights.shape == (16, 4)
    torch.testing.assert_close(weights.sum(dim=-1), torch.ones(16, dtype=torch.float64))
    combined = (weights.unsqueeze(-1) * student.values(batch.records)).sum(dim=-2)
    torch.testing.assert_close(prediction, combined, rtol=0, atol=0)


def test_each_examples_prediction_depends_only_on_that_example():
    batch = heldout(n=32)
    student = initial_student(data.generator(0, "training"), 1.0)
    whole = student(batch.request, batch.records).detach()
    alone = student(batch.request[5:6], batch.records[5:6]).detach()
    torch.testing.assert_close(alone[0], whole[5], rtol=1e-14, atol=0)


def test_mixing_matrix_is_orthogonal_and_fixed_by_its_seed():
    assert R.shape == (9, 9) and R.dtype == torch.float64
    torch.testing.assert_close(R @ R.T, torch.eye(9, dtype=torch.float64), rtol=0, atol=1e-14)
    assert torch.equal(R, data.mixing_matrix(CONFIG.mixing_seed))
    assert not torch.equal(R, data.mixing_matrix(CONFIG.mixing_seed + 1))


def test_known_solution_reproduces_teacher_after_mixing():
    examples = heldout()
    student = known_solution()
    prediction = student(examples.request, examples.records)
    torch.testing.assert_close(prediction, examples.target, rtol=0, atol=1e-13)
    assert mse(prediction, examples.target) < 1e-28
    # Its responses in the latent basis are the intended identity blocks.
    query_response, value_response = responses(student, R)
    identity = torch.eye(9, dtype=torch.float64)
    torch.testing.assert_close(query_response, identity[:, QUERY], rtol=0, atol=1e-14)
    torch.testing.assert_close(value_response, identity[:, PAYLOAD], rtol=0, atol=1e-14)


def test_key_differences_span_three_query_directions():
    assert key_difference_rank(fixed_keys) == 3
    assert len(invisible_directions(fixed_keys)) == 0


def test_three_keys_leave_one_query_direction_invisible_to_every_score_difference():
    keys = VARIANTS["three_keys"].keys
    assert keys.shape == (3, 3) and key_difference_rank(keys) == 2
    (direction,) = invisible_directions(keys)
    torch.testing.assert_close(direction.norm(), torch.tensor(1.0, dtype=torch.float64))
    torch.testing.assert_close(key_differences(keys) @ direction, torch.zeros(3,
                               dtype=torch.float64), rtol=0, atol=1e-15)
    # Moving every query along it leaves the known solution's predictions unchanged.
    examples = heldout(n=64, keys=keys)
    student = Student(known_solution().W_Q.detach() + R.T[:, 6:7] * direction,
                      R.T[:, PAYLOAD].clone(), keys)
    torch.testing.assert_close(student(examples.request, examples.records), examples.target,
                               rtol=0, atol=1e-13)


def test_query_scale_sharpens_every_inputs_query_latents():
    examples = heldout(n=20000)
    spread = examples.latents.std(dim=0)  # (5, 9)
    torch.testing.assert_close(spread[:, QUERY].mean(), torch.tensor(CONFIG.query_scale,
                               dtype=torch.float64), rtol=0.02, atol=0)
    torch.testing.assert_close(spread[:, 3:].mean(), torch.tensor(1.0, dtype=torch.float64),
                               rtol=0.02, atol=0)
    torch.testing.assert_close(examples.request, examples.latents[..., 0, :] @ R)
    torch.testing.assert_close(examples.records, examples.latents[..., 1:, :] @ R)
    # The interventions re-mix with data.mix: the very same inputs.
    request, records = data.mix(examples.latents, R)
    assert torch.equal(request, examples.request) and torch.equal(records, examples.records)


def test_consecutive_draws_continue_one_stream():
    # Batch after batch, the training loop reads one stream: the same data as one draw.
    whole = data.draw_examples(data.generator(3, "training"), 300, R, CONFIG.query_scale)
    rng = data.generator(3, "training")
    first = data.draw_examples(rng, 128, R, CONFIG.query_scale)
    second = data.draw_examples(rng, 172, R, CONFIG.query_scale)
    assert torch.equal(whole.latents, torch.cat([first.latents, second.latents]))


def test_random_streams_differ():
    streams = [data.generator(seed, stream).standard_normal(10)
               for seed in (0, 1) for stream in data.STREAMS]
    for i, a in enumerate(streams):
        for b in streams[i + 1:]:
            assert not (a == b).any()
