"""Training: the plain autograd step, and seeds trained side by side as if alone."""

import torch

from experiment import data, measure, train
from experiment.adam import Adam
from experiment.config import Config
from experiment.model import mse
from experiment.sgd import SGD
from experiment.variants import VARIANTS, student_for
from tests.experiment.plain_loop import train_one_seed

CONFIG = Config()
R = data.mixing_matrix(CONFIG.mixing_seed)


def trained(variant: str, config: Config, snapshot_steps=()) -> train.Trained:
    rngs = [data.generator(seed, "training") for seed in config.seeds]
    student = student_for(VARIANTS[variant], config, rngs)
    return train.train(student, rngs, config, R, VARIANTS[variant].keys, snapshot_steps,
                       VARIANTS[variant].optimizer)


def test_the_optimiser_is_adam_with_torchs_defaults_and_the_configured_rate():
    # test_adam.py: this Adam takes torch.optim.Adam's steps, bit for bit.
    run = trained("main", Config(seeds=(0,), steps=1))
    assert type(run.optimizer) is Adam
    defaults = torch.optim.Adam([torch.zeros(1)]).defaults
    assert run.optimizer.lr == CONFIG.learning_rate
    assert (run.optimizer.betas, run.optimizer.eps) == (defaults["betas"], defaults["eps"])
    assert run.optimizer.params == [run.student.W_Q, run.student.W_V]


def test_a_step_follows_the_gradient_autograd_computes_for_the_forward_pass():
    # The training step differentiates whatever Student.forward computes: Adam's first
    # update is -lr * g / (|g| + eps) for the gradient g of the seeds' summed losses.
    config = Config(seeds=(3, 4), steps=1)
    rngs = [data.generator(seed, "training") for seed in config.seeds]
    student = student_for(VARIANTS["main"], config, rngs)
    start = student.W_Q.detach().clone()
    request, records, target = next(train.batches(rngs, config, R))
    gradient, = torch.autograd.grad(mse(student(request, records), target).sum(), student.W_Q)
    optimizer = torch.optim.Adam(student.parameters(), lr=config.learning_rate)
    train.train_step(student, optimizer, request, records, target)
    step = student.W_Q.detach() - start
    eps = optimizer.defaults["eps"]
    torch.testing.assert_close(step, -config.learning_rate * gradient / (gradient.abs() + eps),
                               rtol=1e-12, atol=0)


def test_seeds_trained_side_by_side_follow_the_trajectory_each_has_alone():
    # To rounding, not bit for bit: PyTorch's matrix kernels may add a seed's products in
    # another order when its slice of a batched tensor starts elsewhere in memory, so a
    # gradient can differ in its last bit. The trajectories stay within rounding.
    config = Config(seeds=(0, 1, 2), steps=300)
    together = trained("main", config)
    for i, seed in enumerate(config.seeds):
        alone = trained("main", Config(seeds=(seed,), steps=config.steps))
        torch.testing.assert_close(together.loss_trace[i], alone.loss_trace[0], rtol=1e-8, atol=0)
        torch.testing.assert_close(together.student.W_Q[i], alone.student.W_Q[0], rtol=0,
                                   atol=1e-12)
        torch.testing.assert_close(together.student.W_V[i], alone.student.W_V[0], rtol=0,
                                   atol=1e-12)


def test_batched_training_matches_the_plain_loop_a_reader_would_write():
    config = Config(seeds=(0, 1), steps=200)
    together = trained("main", config)
    for i, seed in enumerate(config.seeds):
        student, losses = train_one_seed(config, seed, R)
        torch.testing.assert_close(together.loss_trace[i], losses, rtol=1e-8, atol=0)
        torch.testing.assert_close(together.student.W_Q[i], student.W_Q[0], rtol=0, atol=1e-12)


def test_learned_keys_train_per_seed_too():
    config = Config(seeds=(0, 1), steps=100)
    together = trained("learned_keys", config)
    alone = trained("learned_keys", Config(seeds=(1,), steps=config.steps))
    assert together.student.keys.shape == (2, 4, 3)
    torch.testing.assert_close(together.student.keys[1], alone.student.keys[0], rtol=0,
                               atol=1e-12)


def test_short_run_lowers_the_loss_of_every_seed():
    run = trained("main", Config(seeds=(0, 5), steps=50))
    trace = run.loss_trace
    assert trace.shape == (2, 50) and trace.dtype == torch.float64
    assert torch.isfinite(trace).all()
    assert (trace[:, -10:].mean(dim=1) < trace[:, :10].mean(dim=1) / 10).all()


def test_training_is_repeatable_in_one_process():
    config = Config(seeds=(1,), steps=40)
    first, second = trained("main", config), trained("main", config)
    assert torch.equal(first.loss_trace, second.loss_trace)
    assert torch.equal(first.student.W_Q, second.student.W_Q)


def test_snapshots_hold_the_maps_after_the_given_numbers_of_steps():
    config = Config(seeds=(0, 1), steps=12)
    rngs = [data.generator(seed, "training") for seed in config.seeds]
    initial = student_for(VARIANTS["main"], config, rngs).W_Q.detach().clone()
    run = trained("main", config, snapshot_steps=(0, 5, 12))
    assert sorted(run.snapshots) == [0, 5, 12]
    assert torch.equal(run.snapshots[0][0], initial)
    assert torch.equal(run.snapshots[12][0], run.student.W_Q.detach())
    shorter = trained("main", Config(seeds=(0, 1), steps=5))
    assert torch.equal(run.snapshots[5][1], shorter.student.W_V.detach())


def test_the_sgd_control_is_torchs_plain_sgd_on_the_three_keys_students_batches():
    config = Config(seeds=(0, 1), steps=30)
    sgd, adam = trained("three_keys_sgd", config), trained("three_keys", config)
    # test_sgd.py: this SGD takes torch.optim.SGD's steps, bit for bit.
    assert type(sgd.optimizer) is SGD
    assert (sgd.optimizer.lr, sgd.optimizer.momentum) == (config.sgd_learning_rate, 0)
    # The same initial maps and the same batches: the first losses (before any update) agree.
    torch.testing.assert_close(sgd.loss_trace[:, 0], adam.loss_trace[:, 0], rtol=0, atol=0)
    # Every step is W <- W - lr * gradient, for the gradient autograd gives.
    rngs = [data.generator(seed, "training") for seed in config.seeds]
    student = student_for(VARIANTS["three_keys_sgd"], config, rngs)
    start = student.W_Q.detach().clone()
    request, records, target = next(train.batches(rngs, config, R, VARIANTS["three_keys"].keys))
    gradient, = torch.autograd.grad(mse(student(request, records), target).sum(), student.W_Q)
    train.train_step(student, torch.optim.SGD(student.parameters(), lr=config.sgd_learning_rate),
                     request, records, target)
    torch.testing.assert_close(student.W_Q.detach(), start - config.sgd_learning_rate * gradient,
                               rtol=0, atol=1e-15)


def test_the_query_gradient_has_no_part_along_the_invisible_direction():
    # Why plain SGD leaves that direction alone: R @ grad(W_Q) = z^T grad(q), and grad(q) . u
    # is a sum of score gradients over the keys, which softmax makes zero.
    config = Config(seeds=(0, 1, 2), steps=1)
    keys = VARIANTS["three_keys"].keys
    rngs = [data.generator(seed, "training") for seed in config.seeds]
    student = student_for(VARIANTS["three_keys"], config, rngs)
    request, records, target = next(train.batches(rngs, config, R, keys))
    gradient, = torch.autograd.grad(mse(student(request, records), target).sum(), student.W_Q)
    u = measure.invisible_directions(keys)[0]
    along = (R @ gradient) @ u  # (S, 9)
    assert along.abs().max() < 1e-15 < (R @ gradient).abs().max() * 1e-3


def test_students_trained_on_one_stream_end_where_each_would_alone():
    # results.py trains the three-keys student and its SGD control on one draw of their
    # batches: each must be bit for bit what it is when trained on its own.
    config = Config(seeds=(0, 2), steps=40)
    keys = VARIANTS["three_keys"].keys
    students = []
    for name in ("three_keys", "three_keys_sgd"):
        rngs = [data.generator(seed, "training") for seed in config.seeds]
        students.append(student_for(VARIANTS[name], config, rngs))
    together = train.train_on_one_stream(students, ["adam", "sgd"], rngs, config, R, keys,
                                         snapshot_steps=(0, 40))
    for name, run in zip(("three_keys", "three_keys_sgd"), together, strict=True):
        alone = trained(name, config, snapshot_steps=(0, 40))
        assert torch.equal(run.loss_trace, alone.loss_trace), name
        assert torch.equal(run.student.W_Q, alone.student.W_Q), name
        assert torch.equal(run.snapshots[0][0], alone.snapshots[0][0]), name
    assert not torch.equal(together[0].student.W_Q, together[1].student.W_Q)
