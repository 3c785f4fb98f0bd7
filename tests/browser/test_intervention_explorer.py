"""The intervention explorer of the feature-recovery article computes what the Python
experiment computes: the same latents from its seeded generator, the same edits, and
the student's and the teacher's numbers to 1e-9, for every intervention it offers."""

from __future__ import annotations

import json
import math

import pytest
import torch
from axe_playwright_python.sync_playwright import Axe

from experiment.data import QUERY, mix, teacher
from experiment.interventions import erase_payload, erase_query, shift_irrelevant
from experiment.model import Student, mse
from sitebuild.numbers import format_value
from tests.project import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXPLORER = ".intervention-explorer .explorer"
LEGEND = {"en": "Interventions", "uk": "Втручання", "sv": "Ingrepp"}


@pytest.fixture(scope="module")
def run(site):
    results = json.loads((site / "run" / "results.json").read_text(encoding="utf-8"))
    seed = results["seeds"][0]
    as_tensor = lambda rows: torch.tensor(rows, dtype=torch.float64)  # noqa: E731
    return {
        "results": results,
        "student": Student(as_tensor(seed["W_Q"])[None], as_tensor(seed["W_V"])[None]),
        "R": as_tensor(results["mixing_matrix"]),
    }


def mulberry32(seed: int):
    """The explorer's uniform generator, bit for bit (32-bit unsigned arithmetic)."""
    state = seed & 0xFFFFFFFF

    def imul(a: int, b: int) -> int:
        return (a * b) & 0xFFFFFFFF

    def random() -> float:
        nonlocal state
        state = (state + 0x6D2B79F5) & 0xFFFFFFFF
        t = imul(state ^ (state >> 15), 1 | state)
        t = ((t + imul(t ^ (t >> 7), 61 | t)) & 0xFFFFFFFF) ^ t
        return (t ^ (t >> 14)) / 4294967296

    return random


def example_latents(number: int, query_scale: float) -> torch.Tensor:
    """Example NUMBER as the explorer draws it: Box–Muller normals, (5, 9), query scaled."""
    random, normals = mulberry32(number), []
    while len(normals) < 45:
        u1, u2 = 1 - random(), random()
        radius = math.sqrt(-2 * math.log(u1))
        normals += [radius * math.cos(2 * math.pi * u2), radius * math.sin(2 * math.pi * u2)]
    latents = torch.tensor(normals[:45], dtype=torch.float64).reshape(5, 9)
    latents[:, QUERY] *= query_scale
    return latents


def intervene(latents: torch.Tensor, edits: dict) -> torch.Tensor:
    """experiment/interventions.py's edits, on one example (5, 9), combined as the
    explorer combines them."""
    edited = latents
    if edits["eraseQuery"] is not None:
        edited = erase_query(edited, edits["eraseQuery"])
    if edits["erasePayload"] is not None:
        edited = erase_payload(edited, edits["erasePayload"])
    return shift_irrelevant(edited, edits["shift"])


def state(page) -> dict:
    return json.loads(page.get_attribute(EXPLORER, "data-state"))


def check_against_python(shown: dict, run: dict, language: str, page) -> None:
    latents = torch.tensor(shown["latents"], dtype=torch.float64)
    expected = example_latents(shown["example"], run["results"]["config"]["query_scale"])
    torch.testing.assert_close(latents, expected, rtol=0, atol=1e-12)
    edited = intervene(latents, shown["edits"])
    torch.testing.assert_close(torch.tensor(shown["edited"], dtype=torch.float64), edited,
                               rtol=0, atol=1e-12)
    with torch.no_grad():
        request, records = mix(edited[None, None], run["R"])  # one seed, one example
        prediction = run["student"](request, records)[0]  # (1, 3)
        weights = run["student"].attention(request)[0]  # (1, 4)
        target = teacher(latents[None])
    assert shown["weights"] == pytest.approx(weights[0].tolist(), abs=1e-9)
    assert shown["prediction"] == pytest.approx(prediction[0].tolist(), abs=1e-9)
    assert shown["target"] == pytest.approx(target[0].tolist(), abs=1e-9)
    assert shown["mse"] == pytest.approx(float(mse(prediction, target)), abs=1e-9)
    cells = page.locator(f"{EXPLORER} td.explorer__prediction").all_text_contents()
    assert cells == [format_value(p, "fix3", language) for p in shown["prediction"]]


def set_shift(page, amount: float) -> None:
    page.locator(f"{EXPLORER} input[type=range]").fill(str(amount))


@pytest.mark.parametrize("language", LANGUAGES)
def test_explorer_computes_what_the_python_model_computes(open_site_page, run, language):
    page, traffic = open_site_page(language, "feature-recovery/")
    page.wait_for_selector(EXPLORER)
    selects = page.locator(f"{EXPLORER} select")
    shift = run["results"]["config"]["shift"]
    check_against_python(state(page), run, language, page)
    for feature in range(3):
        selects.nth(0).select_option(str(feature))
        check_against_python(state(page), run, language, page)
    selects.nth(0).select_option("")
    for feature in range(3):
        selects.nth(1).select_option(str(feature))
        check_against_python(state(page), run, language, page)
    selects.nth(1).select_option("")
    for amount in (shift, -shift, 2 * shift):
        set_shift(page, amount)
        check_against_python(state(page), run, language, page)
    selects.nth(0).select_option("1")  # all three at once
    selects.nth(1).select_option("2")
    check_against_python(state(page), run, language, page)
    page.locator(f"{EXPLORER} .md-button--primary").click()  # draw another example
    now = state(page)
    assert now["example"] == 2
    check_against_python(now, run, language, page)
    assert traffic.console_errors == [] and traffic.page_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_erasing_a_feature_moves_the_prediction_and_the_shift_does_not(
        open_site_page, run, language):
    page, _ = open_site_page(language, "feature-recovery/")
    page.wait_for_selector(EXPLORER)
    untouched = state(page)
    assert untouched["mse"] < 1e-20  # the trained student on an unseen example
    page.locator(f"{EXPLORER} select").nth(0).select_option("0")
    assert state(page)["mse"] > 1e-3
    page.locator(f"{EXPLORER} button").nth(1).click()  # reset
    set_shift(page, run["results"]["config"]["shift"])
    shifted = state(page)
    assert shifted["edits"]["shift"] == run["results"]["config"]["shift"]
    assert shifted["moved"] < 1e-20
    assert shifted["prediction"] == pytest.approx(untouched["prediction"], abs=1e-9)


@pytest.mark.parametrize("language", LANGUAGES)
def test_explorer_is_labelled_in_the_pages_language_and_works_from_the_keyboard(
        open_site_page, language):
    page, _ = open_site_page(language, "feature-recovery/")
    page.wait_for_selector(EXPLORER)
    assert page.locator(f"{EXPLORER} legend").text_content() == LEGEND[language]
    for control in page.locator(f"{EXPLORER} select, {EXPLORER} input").all():
        assert page.locator(f'label[for="{control.get_attribute("id")}"]').count() == 1
    page.locator(f"{EXPLORER} select").nth(1).focus()
    page.keyboard.press("ArrowDown")  # a closed <select> steps to the next option
    assert state(page)["edits"]["erasePayload"] == 0
    page.locator(f"{EXPLORER} input[type=range]").focus()
    page.keyboard.press("ArrowRight")
    assert state(page)["edits"]["shift"] == 0.5


@pytest.mark.parametrize("scheme", ("light", "dark"))
@pytest.mark.parametrize("language", LANGUAGES)
def test_explorer_with_edits_shown_has_no_axe_violations(open_site_page, language, scheme):
    page, _ = open_site_page(language, "feature-recovery/", scheme=scheme)
    page.locator(f"{EXPLORER} select").nth(0).select_option("1")
    set_shift(page, 5)
    assert page.locator(f"{EXPLORER} td.is-edited").count() > 0
    violations = Axe().run(page, context=".intervention-explorer").response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations] == []
