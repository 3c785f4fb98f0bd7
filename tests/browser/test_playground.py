"""The training playground of the feature-recovery article trains the article's student:
fed the same initial maps and the same batches, the page's trainer (written out in
playground-model.js, gradients by hand) and the Python Student (autograd, with the
project's Adam or torch.optim.SGD) take the same steps, for every variant and both
optimisers; and the examples the page draws are mixed and labelled as data.py does."""

from __future__ import annotations

import json

import pytest
import torch

from experiment import data
from experiment.adam import Adam
from experiment.model import Student
from experiment.train import train_step
from experiment.variants import VARIANTS
from tests.browser.conftest import open_page, page_url

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGE = "feature-recovery/"
MODEL = "window.AttentionSite.playgroundModel"
# The page's trainer and autograd sum in other orders: their steps differ by rounding,
# which Adam's division by each entry's own running scale amplifies once the gradient
# is itself rounding noise. Over the first fifty steps, far from that, they must agree.
STEPS = 50
RELATIVE = 1e-9
# The page's variants by experiment/variants.py's names.
PAGE_VARIANTS = {"main": "four", "learned_keys": "learned", "three_keys": "three"}
# Plain SGD needs larger steps than Adam's; at 1 every variant trains to rounding error.
SGD_LEARNING_RATE = 1.0


@pytest.fixture(scope="module")
def run(site):
    return json.loads((site / "run" / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def page(browser, server):
    """One tab of the article for the arithmetic's tests, which do not change it."""
    tab, _ = open_page(browser, page_url(server, "en", PAGE))
    tab.wait_for_function(f"{MODEL} !== undefined")
    yield tab
    tab.context.close()


def python_training(run: dict, variant_name: str, optimiser: str, seed: int = 0):
    """The initial maps, STEPS batches and the Student of VARIANT_NAME, drawn by the
    experiment's own code from seed SEED's streams; and its optimiser."""
    config, variant = run["config"], VARIANTS[variant_name]
    R = torch.tensor(run["mixing_matrix"], dtype=torch.float64)
    rng = data.generator(seed, "training")
    scale = config["init_scale"]
    W_Q, W_V = (torch.from_numpy(rng.standard_normal((1, 9, 3))) * scale for _ in range(2))
    keys = variant.keys
    if variant.learn_keys:
        keys = torch.from_numpy(data.generator(seed, "keys").standard_normal((1, 4, 3)))
    batches = []
    for _ in range(STEPS):
        drawn = data.draw_examples([rng], config["batch_size"], R, config["query_scale"],
                                   variant.keys)
        batches.append((drawn.request, drawn.records, drawn.target))
    student = Student(W_Q.clone(), W_V.clone(), keys.clone(), variant.learn_keys)
    if optimiser == "adam":
        optimizer, lr = Adam(student.parameters(), lr=config["learning_rate"]), \
            config["learning_rate"]
    else:
        optimizer, lr = torch.optim.SGD(student.parameters(), lr=SGD_LEARNING_RATE), \
            SGD_LEARNING_RATE
    spec = {
        "W_Q": W_Q[0].tolist(), "W_V": W_V[0].tolist(),
        "keys": (keys[0] if variant.learn_keys else keys).tolist(),
        "learnKeys": variant.learn_keys,
        "optimiser": {"name": optimiser, "lr": lr, "betas": run["optimizer"]["betas"],
                      "eps": run["optimizer"]["eps"]},
        "batches": [{"request": r[0].tolist(), "records": x[0].tolist(), "target": y[0].tolist()}
                    for r, x, y in batches],
    }
    return spec, student, optimizer, batches


def assert_relatively_close(found, expected, what: str) -> None:
    """Every entry within RELATIVE of the largest |entry| of the expected value."""
    found = torch.tensor(found, dtype=torch.float64)
    size = float(expected.abs().max())
    torch.testing.assert_close(found, expected, rtol=0, atol=RELATIVE * size, msg=what)


@pytest.mark.parametrize("optimiser", ["adam", "sgd"])
@pytest.mark.parametrize("variant_name", list(PAGE_VARIANTS))
def test_the_pages_trainer_takes_the_python_students_steps(page, run, variant_name, optimiser):
    spec, student, optimizer, batches = python_training(run, variant_name, optimiser)
    steps = page.evaluate(f"(spec) => {MODEL}.trainOnBatches(spec)", spec)
    assert len(steps) == STEPS
    for number, (shown, batch) in enumerate(zip(steps, batches, strict=True), start=1):
        loss = float(train_step(student, optimizer, *batch)[0])
        where = f"{variant_name}, {optimiser}, step {number}"
        assert shown["loss"] == pytest.approx(loss, rel=RELATIVE, abs=0), where
        assert_relatively_close(shown["W_Q"], student.W_Q.detach()[0], f"{where}: W_Q")
        assert_relatively_close(shown["W_V"], student.W_V.detach()[0], f"{where}: W_V")
        if VARIANTS[variant_name].learn_keys:
            assert_relatively_close(shown["keys"], student.keys.detach()[0], f"{where}: keys")
    # The steps were steps: training moved the loss by orders of magnitude.
    assert steps[-1]["loss"] < 1e-2 * steps[0]["loss"]


@pytest.mark.parametrize("variant_name", ["main", "three_keys"])
def test_the_pages_examples_are_mixed_and_labelled_as_the_experiments(page, run, variant_name):
    keys = VARIANTS[variant_name].keys
    drawn = page.evaluate(
        f"([R, keys, scale]) => {MODEL}.examples(3, 'heldout', 64, R, keys, scale)",
        [run["mixing_matrix"], keys.tolist(), run["config"]["query_scale"]])
    latents = torch.tensor(drawn["latents"], dtype=torch.float64)  # (64, 1 + J, 9)
    assert latents.shape == (64, 1 + len(keys), 9)
    R = torch.tensor(run["mixing_matrix"], dtype=torch.float64)
    request, _ = data.mix(latents, R)
    torch.testing.assert_close(torch.tensor(drawn["request"], dtype=torch.float64), request,
                               rtol=0, atol=1e-12)
    torch.testing.assert_close(torch.tensor(drawn["target"], dtype=torch.float64),
                               data.teacher(latents, keys), rtol=0, atol=1e-12)
    # Every input's query latents are scaled, the others are not: their spreads differ
    # by the scale (sample standard deviations of 64 x 5 normals, to a few per cent).
    spread = latents.reshape(-1, 9).std(dim=0)
    ratio = spread[data.QUERY].mean() / spread[data.PAYLOAD.start:].mean()
    assert ratio == pytest.approx(run["config"]["query_scale"], rel=0.15)
