"""The training playground of the feature-recovery article trains the article's student:
fed the same initial maps and the same batches, the page's trainer (written out in
playground-model.js, gradients by hand) and the experiment's own loop (autograd and
torch.optim.Adam or torch.optim.SGD) take the same steps, for every variant and both
optimisers; and the examples the page draws are mixed and labelled as data.py does.

The widget (playground-ui.js) trains four fixed keys to float64 rounding error on
held-out examples, stays answerable while it trains, shows with three keys that Adam
moves the invisible direction and SGD does not (the premise of the page's sentence of
what to try), refuses a bad input with a message and changes nothing else, works from
the keyboard, speaks each page's language, and has no axe violations."""

from __future__ import annotations

import copy
import json

import pytest
import torch
from playwright.sync_api import expect

from experiment import data, train
from experiment.config import Config
from experiment.variants import VARIANTS, student_for
from sitebuild.numbers import format_value
from tests.browser import axe
from tests.browser.conftest import open_page, page_url
from tests.project import DEFAULT, FLOAT_PRECISION_MSE, LANGUAGES, ROOT, TRANSLATIONS, site_words

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGE = "feature-recovery/"
# playground-model.js, imported in the page: the module the widget runs (one instance
# per page, whoever imports it).
MODEL = "(await import('/assets/javascripts/playground-model.js'))"
# The page's trainer and autograd sum in other orders: their steps differ by rounding,
# which Adam's division by each entry's own running scale amplifies once the gradient
# is itself rounding noise. Over the first fifty steps, far from that, they must agree.
STEPS = 50
RELATIVE = 1e-9
# The page's variants by experiment/variants.py's names.
PAGE_VARIANTS = {"main": "four", "learned_keys": "learned", "three_keys": "three"}
# The largest seed the widget takes (playground-ui.js).
MAX_SEED = 99999


@pytest.fixture(scope="module")
def run(site):
    return json.loads((site / "run" / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def page(browser, server):
    """One tab of the article for the arithmetic's tests, which do not change it."""
    tab, _ = open_page(browser, page_url(server, DEFAULT, PAGE))
    tab.wait_for_selector(WIDGET)
    yield tab
    tab.context.close()


def python_training(run: dict, variant_name: str, optimiser: str, seed: int = 0):
    """What the page needs to take the steps of the experiment's own loop (train.train) for
    VARIANT_NAME from seed SEED's streams, with the run's settings: the initial maps and
    the STEPS batches that loop draws; and that loop's STEPS steps."""
    variant = VARIANTS[variant_name]
    settings = {name: tuple(value) if isinstance(value, list) else value
                for name, value in run["config"].items()}
    config = Config(**settings | {"seeds": (seed,), "steps": STEPS})
    R = torch.tensor(run["mixing_matrix"], dtype=torch.float64)
    rng = data.generator(seed, "training")
    student = student_for(variant, config, seed, rng)
    drawing = copy.deepcopy(rng)  # the stream from where the loop's first batch starts
    batches = [data.draw_examples(drawing, config.batch_size, R, config.query_scale,
                                  variant.keys) for _ in range(STEPS)]
    spec = {
        "W_Q": student.W_Q.tolist(), "W_V": student.W_V.tolist(),
        "keys": student.keys.tolist(),
        "learnKeys": variant.learn_keys,
        "optimiser": {"name": optimiser,
                      "lr": (config.learning_rate if optimiser == "adam"
                             else config.sgd_learning_rate),
                      "betas": run["optimizer"]["betas"], "eps": run["optimizer"]["eps"]},
        "batches": [{"request": b.request.tolist(), "records": b.records.tolist(),
                     "target": b.target.tolist()} for b in batches],
    }
    trained = train.train(student, rng, config, R, variant.keys,
                          tuple(range(1, STEPS + 1)), optimiser)
    return spec, trained


def fill(template: str, **params) -> str:
    return template.format(**{key: str(value) for key, value in params.items()})


def assert_relatively_close(found, expected, what: str) -> None:
    """Every entry within RELATIVE of the largest |entry| of the expected value."""
    found = torch.tensor(found, dtype=torch.float64)
    size = float(expected.abs().max())
    torch.testing.assert_close(found, expected, rtol=0, atol=RELATIVE * size, msg=what)


@pytest.mark.parametrize("optimiser", ["adam", "sgd"])
@pytest.mark.parametrize("variant_name", list(PAGE_VARIANTS))
def test_the_pages_trainer_takes_the_python_students_steps(page, run, variant_name, optimiser):
    spec, trained = python_training(run, variant_name, optimiser)
    steps = page.evaluate(f"async (spec) => {MODEL}.trainOnBatches(spec)", spec)
    assert len(steps) == STEPS
    for number, shown in enumerate(steps, start=1):
        loss, after = float(trained.loss_trace[number - 1]), trained.snapshots[number]
        where = f"{variant_name}, {optimiser}, step {number}"
        assert shown["loss"] == pytest.approx(loss, rel=RELATIVE, abs=0), where
        assert_relatively_close(shown["W_Q"], after["W_Q"], f"{where}: W_Q")
        assert_relatively_close(shown["W_V"], after["W_V"], f"{where}: W_V")
        if VARIANTS[variant_name].learn_keys:
            assert_relatively_close(shown["keys"], after["keys"], f"{where}: keys")
    # The steps were steps: training moved the loss by orders of magnitude.
    assert steps[-1]["loss"] < 1e-2 * steps[0]["loss"]


@pytest.mark.parametrize("variant_name", ["main", "three_keys"])
def test_the_pages_examples_are_mixed_and_labelled_as_the_experiments(page, run, variant_name):
    keys = VARIANTS[variant_name].keys
    drawn = page.evaluate(
        f"async ([R, keys, scale]) => {MODEL}.examples(3, 'heldout', 64, R, keys, scale)",
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


# ---- The widget -------------------------------------------------------------------

WIDGET = ".training-playground .playground"
SCHEMES = ("light", "dark")


def widget_state(page) -> dict:
    return page.evaluate(f"() => ({{...document.querySelector('{WIDGET}').dataset}})")


def said(page) -> str:
    return page.locator(f"{WIDGET} .widget__status").text_content()


def field(page, number: int):
    """The typed fields in order: seed, learning rate, steps."""
    return page.locator(f"{WIDGET} input[type=text]").nth(number)


def button(page, words: dict, key: str):
    return page.locator(f"{WIDGET} button", has_text=words[key]).first


def finished(page) -> dict:
    page.wait_for_function(
        f"() => {{ const w = document.querySelector('{WIDGET}');"
        " return w.dataset.running === 'false' && w.dataset.heldout !== undefined; }",
        timeout=60_000)
    return widget_state(page)


@pytest.fixture
def english(open_site_page):
    page, traffic = open_site_page(DEFAULT, PAGE)
    page.wait_for_selector(WIDGET)
    yield page, site_words()[DEFAULT]["playground"]
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_a_full_run_of_four_fixed_keys_reaches_float_precision_on_held_out_examples(
        english, run):
    page, words = english
    assert widget_state(page)["step"] == "0"
    button(page, words, "run").click()
    # The page answers while it trains: it shows the run part-way, and a pause stops it.
    page.wait_for_function(f"() => Number(document.querySelector('{WIDGET}').dataset.step)"
                           " > 0")
    state = finished(page)
    assert int(state["step"]) == run["config"]["steps"]
    assert float(state["heldout"]) < FLOAT_PRECISION_MSE
    assert float(state["loss"]) < FLOAT_PRECISION_MSE
    assert said(page) == fill(words["finished"], step=state["step"],
                              loss=format_value(float(state["loss"]), "sci2", DEFAULT),
                              heldout=format_value(float(state["heldout"]), "sci2", DEFAULT))
    # The heat maps show the intended maps: the identity in the query and payload rows.
    query = page.locator(f"{WIDGET} table").nth(0).locator("td.heat").all_text_contents()
    assert query == [format_value(1.0 if row == column else 0.0, "fix2", DEFAULT)
                     for row in range(9) for column in range(3)]


def test_a_pause_stops_the_run_part_way(english):
    page, words = english
    field(page, 2).fill("1200")
    button(page, words, "run").click()
    page.wait_for_function(f"() => Number(document.querySelector('{WIDGET}').dataset.step)"
                           " > 0")
    button(page, words, "pause").click()
    state = finished(page)
    assert 0 < int(state["step"]) < 1200
    page.wait_for_timeout(200)
    assert widget_state(page)["step"] == state["step"]  # it stays paused
    assert said(page).startswith(words["paused"].split("{")[0])


@pytest.mark.parametrize(("optimiser", "moves"), [("adam", True), ("sgd", False)])
def test_with_three_keys_adam_moves_the_invisible_direction_and_sgd_does_not(
        english, optimiser, moves):
    """The premise of the sentence of what to try, in the page's own training."""
    page, words = english
    page.locator(f"{WIDGET} select").nth(0).select_option("three")
    page.locator(f"{WIDGET} select").nth(1).select_option(optimiser)
    field(page, 2).fill("200")
    button(page, words, "run").click()
    state = finished(page)
    assert state["step"] == "200" and float(state["loss"]) < 1e-6
    moved = float(state["moved"])
    assert (moved > 0.01) if moves else (moved < 1e-12), moved


def test_a_bad_input_gets_a_message_and_changes_nothing_else(english, run):
    page, words = english
    for _ in range(3):
        button(page, words, "step").click()
    widget = page.locator(WIDGET)
    before = widget_state(page)
    tables = widget.locator("table").all_text_contents()
    values = [field(page, k).input_value() for k in range(3)]
    limit = run["config"]["steps"]
    bad = [(1, "0", "bad_lr"), (1, "fast", "bad_lr"), (2, str(limit + 1), "bad_steps"),
           (2, "12.5", "bad_steps"), (0, "-1", "bad_seed")]
    for number, text, key in bad:
        field(page, number).fill(text)
        field(page, number).press("Enter")
        message = fill(words[key], max=format_value(MAX_SEED if key == "bad_seed" else limit,
                                                    "int", DEFAULT))
        assert said(page) == message, text
        assert field(page, number).get_attribute("aria-invalid") == "true"
        for press in ("run", "step", "reset"):  # refused too, with the same message
            button(page, words, press).click()
            assert said(page) == message, (text, press)
        assert widget_state(page) == before, text
        assert widget.locator("table").all_text_contents() == tables, text
        others = [field(page, k).input_value() for k in range(3) if k != number]
        assert others == [v for k, v in enumerate(values) if k != number], text
        field(page, number).fill(values[number])  # put right: then it trains on
        field(page, number).press("Enter")
        assert field(page, number).get_attribute("aria-invalid") == "false"
    assert page.locator(f"{WIDGET} [role=status]").get_attribute("aria-live") == "polite"
    button(page, words, "step").click()
    assert widget_state(page)["step"] == "4"


def test_the_playground_works_from_the_keyboard(english):
    page, words = english
    variant = page.locator(f"{WIDGET} select").nth(0)
    variant.focus()
    page.keyboard.press("ArrowDown")  # a closed <select> steps to the next option
    assert variant.input_value() == "learned"
    assert page.locator(f"{WIDGET} table", has_text=words["learnedKeys"]).is_visible()
    button(page, words, "step").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert widget_state(page)["step"] == "2"
    page.keyboard.press("Shift+Tab")  # from Step back to Run
    page.keyboard.press("Enter")
    state = finished(page)
    assert int(state["step"]) > 2
    button(page, words, "reset").focus()
    page.keyboard.press("Enter")
    assert widget_state(page)["step"] == "0"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_playground_speaks_the_pages_language(open_site_page, language):
    page, traffic = open_site_page(language, PAGE)
    page.wait_for_selector(WIDGET)
    words = site_words()[language]["playground"]
    widget = page.locator(WIDGET)
    assert widget.locator(".widget__title").text_content() == words["title"]
    labels = widget.locator("label").all_text_contents()
    assert labels == [words[k] for k in ("variant", "optimiser", "seed", "learningRate", "steps")]
    for control in widget.locator("select, input").all():
        assert page.locator(f'label[for="{control.get_attribute("id")}"]').count() == 1
    assert widget.locator("option").all_text_contents() == [
        words[k] for k in ("four", "learned", "three", "adam", "sgd")]
    assert said(page) == fill(words["ready"], variant=words["four"], optimiser=words["adam"],
                              seed=0, lr=format_value(0.03, "sig6", language))
    # Its numbers in the page's format; before the first step, no loss is shown yet.
    hints = widget.locator(".widget__hint").all_text_contents()
    assert hints[0] == fill(words["seedHint"], max=format_value(MAX_SEED, "int", language))
    assert widget.locator(".playground__progress").text_content() == fill(
        words["progressStart"], step=0, steps=field(page, 2).input_value())
    # The sentence of what to try stays beside the widget; the static figure goes.
    assert page.locator(".training-playground .playground-try").is_visible()
    assert page.locator(".training-playground > figure").is_hidden()
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_without_javascript_the_runs_snapshots_remain(open_site_page):
    page, _ = open_site_page(DEFAULT, PAGE, java_script_enabled=False)
    assert page.locator(WIDGET).count() == 0
    expect(page.locator(".training-playground figure img").first).to_be_visible()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_playground_has_no_axe_violations(open_site_page, server, scheme, width):
    # A tab of its own: the pool's tabs keep the desktop's width.
    page, _ = open_site_page(TRANSLATIONS[0], PAGE, scheme=scheme, wait_until=None, fresh=True)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(page_url(server, TRANSLATIONS[0], PAGE))
    page.wait_for_selector(WIDGET)
    words = site_words()[TRANSLATIONS[0]]["playground"]
    page.locator(f"{WIDGET} select").nth(0).select_option("three")
    field(page, 1).fill("0")
    field(page, 1).press("Enter")  # a refused field and its message are checked too
    for _ in range(5):
        button(page, words, "step").click()
    assert page.locator(f"{WIDGET} [aria-invalid=true]").count() == 1
    assert axe.violations(page, ".training-playground") == []
    if width < 400:  # a phone: nothing wider than the page but the maps' own scroll box
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0


def test_the_heat_maps_take_the_colours_of_the_runs_figures():
    """playground.css's 21 levels are experiment/figures.py's colour maps at -1 ... 1."""
    from matplotlib import colors

    from experiment.figures import DARK, LIGHT, readable_on

    css = (ROOT / "docs/assets/stylesheets/playground.css").read_text(encoding="utf-8")
    blocks = {"light": css.split(":root {")[1].split("}")[0],
              "dark": css.split('[data-md-color-scheme="slate"] {')[1].split("}")[0]}
    for scheme, block in ((LIGHT, blocks["light"]), (DARK, blocks["dark"])):
        for k in range(-10, 11):
            name = f"m{-k}" if k < 0 else f"p{k}"
            colour = scheme.diverging((k + 10) / 20)
            ink = "#000000" if readable_on(colour) == "black" else "#ffffff"
            assert f"--diverging-{name}: {colors.to_hex(colour)};" in block, (scheme, k)
            assert f"--diverging-ink-{name}: {ink};" in block, (scheme, k)
