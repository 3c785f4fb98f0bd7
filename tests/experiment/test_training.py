"""The hand-written backward pass and Adam against PyTorch's, and a short run."""

import copy

import torch

from experiment import data
from experiment.config import Config
from experiment.model import Student, mse
from experiment.train import Adam, gradients, train_seed

CONFIG = Config()


def random_problem(seed=7, n=64):
    R = data.mixing_matrix(CONFIG.mixing_seed)
    rng = data.generator(seed, "training")
    examples = data.draw_examples(rng, n, R, CONFIG.query_scale)
    # Weights of order one, so that attention is far from uniform and every term matters.
    student = Student(torch.from_numpy(rng.standard_normal((9, 3))),
                      torch.from_numpy(rng.standard_normal((9, 3))))
    return student, examples


def test_hand_gradients_match_autograd():
    student, examples = random_problem()
    output = student(examples.request, examples.records)
    mse(output[0], examples.target).backward()
    with torch.no_grad():
        by_hand = gradients(output, examples.request, examples.records, examples.target)
    torch.testing.assert_close(by_hand[0], student.Wq.grad, rtol=1e-12, atol=1e-15)
    torch.testing.assert_close(by_hand[1], student.Wv.grad, rtol=1e-12, atol=1e-15)


def test_adam_is_torch_optim_adam():
    student, _ = random_problem()
    reference = copy.deepcopy(student)
    ours = Adam(student.parameters(), CONFIG.learning_rate, CONFIG.adam_betas, CONFIG.adam_eps)
    theirs = torch.optim.Adam(reference.parameters(), lr=CONFIG.learning_rate,
                              betas=CONFIG.adam_betas, eps=CONFIG.adam_eps,
                              foreach=False, fused=False)
    rng = data.generator(11, "training")
    for _ in range(30):
        grads = [torch.from_numpy(rng.standard_normal((9, 3))) for _ in range(2)]
        with torch.no_grad():
            ours.step(grads)
        for param, grad in zip(reference.parameters(), grads, strict=True):
            param.grad = grad.clone()
        theirs.step()
    for mine, reference_param in zip(student.parameters(), reference.parameters(), strict=True):
        assert torch.equal(mine, reference_param)  # bit for bit


def test_short_run_lowers_the_loss():
    config = Config(seeds=(0,), steps=50)
    R = data.mixing_matrix(config.mixing_seed)
    trained = train_seed(config, 0, R)
    trace = trained.loss_trace
    assert trace.shape == (50,) and trace.dtype == torch.float64
    assert torch.isfinite(trace).all()
    assert trace[-10:].mean() < trace[:10].mean() / 10


def test_training_is_repeatable_in_one_process():
    config = Config(seeds=(1,), steps=40)
    R = data.mixing_matrix(config.mixing_seed)
    first, second = train_seed(config, 1, R), train_seed(config, 1, R)
    assert torch.equal(first.loss_trace, second.loss_trace)
    assert torch.equal(first.student.Wq, second.student.Wq)
