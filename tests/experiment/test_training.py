"""Training: the plain loop, its optimisers, and the batches each student sees."""

import pytest
import torch

from experiment import data, measure, train
from experiment.config import Config
from experiment.model import mse
from experiment.variants import VARIANTS, student_for

CONFIG = Config()
R = data.mixing_matrix(CONFIG.mixing_seed)


def trained(variant: str, config: Config, seed: int = 0, snapshot_steps=()) -> train.Trained:
    rng = data.generator(seed, "training")
    student = student_for(VARIANTS[variant], config, seed, rng)
    return train.train(student, rng, config, R, VARIANTS[variant].keys, snapshot_steps,
                       VARIANTS[variant].optimizer)


def first_batch(variant: str, config: Config, seed: int = 0):
    """SEED's untrained student of VARIANT and the batch of its first step."""
    rng = data.generator(seed, "training")
    student = student_for(VARIANTS[variant], config, seed, rng)
    batch = data.draw_examples(rng, config.batch_size, R, config.query_scale,
                               VARIANTS[variant].keys)
    return student, batch


def test_the_optimiser_is_torchs_adam_with_its_defaults_and_the_configured_rate():
    run = trained("main", Config(seeds=(0,), steps=1))
    assert type(run.optimizer) is torch.optim.Adam
    defaults = torch.optim.Adam([torch.zeros(1)]).defaults
    assert run.optimizer.defaults == defaults | {"lr": CONFIG.learning_rate}
    trained_parameters = run.optimizer.param_groups[0]["params"]
    assert [id(p) for p in trained_parameters] == [id(run.student.W_Q), id(run.student.W_V)]


def test_a_step_follows_the_gradient_autograd_computes_for_the_forward_pass():
    # The loop differentiates whatever Student.forward computes: Adam's first update is
    # -lr * g / (|g| + eps) for the gradient g of the first batch's loss.
    config = Config(seeds=(3,), steps=1)
    student, batch = first_batch("main", config, seed=3)
    gradient, = torch.autograd.grad(mse(student(batch.request, batch.records), batch.target),
                                    student.W_Q)
    run = trained("main", config, seed=3)
    step = run.student.W_Q.detach() - student.W_Q.detach()
    eps = run.optimizer.defaults["eps"]
    torch.testing.assert_close(step, -config.learning_rate * gradient / (gradient.abs() + eps),
                               rtol=1e-12, atol=0)


def test_each_step_draws_the_next_batch_of_the_seeds_training_stream():
    # The first loss is the untrained student's on the batch drawn right after its maps.
    config = Config(seeds=(2,), steps=3)
    student, batch = first_batch("main", config, seed=2)
    with torch.no_grad():
        first = mse(student(batch.request, batch.records), batch.target)
    assert trained("main", config, seed=2).loss_trace[0] == first


def test_learned_keys_are_trained_too():
    run = trained("learned_keys", Config(seeds=(1,), steps=20), seed=1, snapshot_steps=(0,))
    assert run.student.keys.shape == (4, 3)
    assert [p.shape for p in run.optimizer.param_groups[0]["params"]] == [(9, 3), (9, 3), (4, 3)]
    assert not torch.equal(run.student.keys.detach(), run.snapshots[0]["keys"])


def test_short_run_lowers_the_loss():
    for seed in (0, 5):
        trace = trained("main", Config(seeds=(seed,), steps=50), seed=seed).loss_trace
        assert trace.shape == (50,) and trace.dtype == torch.float64
        assert torch.isfinite(trace).all()
        assert trace[-10:].mean() < trace[:10].mean() / 10


def test_training_is_repeatable_in_one_process():
    config = Config(seeds=(1,), steps=40)
    first, second = trained("main", config, seed=1), trained("main", config, seed=1)
    assert torch.equal(first.loss_trace, second.loss_trace)
    assert torch.equal(first.student.W_Q, second.student.W_Q)


def test_snapshots_hold_the_maps_after_the_given_numbers_of_steps():
    config = Config(seeds=(0,), steps=12)
    initial, _ = first_batch("main", config)
    run = trained("main", config, snapshot_steps=(0, 5, 12))
    assert sorted(run.snapshots) == [0, 5, 12]
    assert torch.equal(run.snapshots[0]["W_Q"], initial.W_Q.detach())
    assert torch.equal(run.snapshots[12]["W_Q"], run.student.W_Q.detach())
    shorter = trained("main", Config(seeds=(0,), steps=5))
    assert torch.equal(run.snapshots[5]["W_V"], shorter.student.W_V.detach())


def test_the_sgd_control_is_torchs_plain_sgd_on_the_three_keys_students_batches():
    config = Config(seeds=(0,), steps=30)
    sgd, adam = trained("three_keys_sgd", config), trained("three_keys", config)
    assert type(sgd.optimizer) is torch.optim.SGD
    assert (sgd.optimizer.defaults["lr"], sgd.optimizer.defaults["momentum"]) == (
        config.sgd_learning_rate, 0)
    # The same initial maps and the same batches: the first losses (before any update) agree.
    assert sgd.loss_trace[0] == adam.loss_trace[0]
    # Every step is W <- W - lr * gradient, for the gradient autograd gives.
    student, batch = first_batch("three_keys_sgd", config)
    start = student.W_Q.detach().clone()
    gradient, = torch.autograd.grad(mse(student(batch.request, batch.records), batch.target),
                                    student.W_Q)
    one_step = trained("three_keys_sgd", Config(seeds=(0,), steps=1))
    torch.testing.assert_close(one_step.student.W_Q.detach(),
                               start - config.sgd_learning_rate * gradient, rtol=0, atol=1e-15)


def test_the_query_gradient_has_no_part_along_the_invisible_direction():
    # Why plain SGD leaves that direction alone: R @ grad(W_Q) = z^T grad(q), and grad(q) . u
    # is a sum of score gradients over the keys, which softmax makes zero.
    u = measure.invisible_directions(VARIANTS["three_keys"].keys)[0]
    for seed in (0, 1, 2):
        student, batch = first_batch("three_keys", Config(seeds=(seed,), steps=1), seed)
        gradient, = torch.autograd.grad(
            mse(student(batch.request, batch.records), batch.target), student.W_Q)
        along = (R @ gradient) @ u  # (9,)
        assert along.abs().max() < 1e-15 < (R @ gradient).abs().max() * 1e-3


def test_an_unknown_optimiser_is_a_clear_error():
    student, _ = first_batch("main", Config(seeds=(0,), steps=1))
    with pytest.raises(ValueError, match="unknown optimiser 'lbfgs'"):
        train.make_optimizer("lbfgs", student, CONFIG)


def test_a_diverging_run_stops_before_it_writes_anything():
    rng = data.generator(0, "training")
    student = student_for(VARIANTS["main"], CONFIG, 0, rng)
    with pytest.raises(FloatingPointError, match="diverged"):
        train.train(student, rng, Config(seeds=(0,), steps=5, learning_rate=1e300), R)
