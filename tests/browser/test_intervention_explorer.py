"""The intervention explorer of the feature-recovery article computes what the Python
experiment computes: for each student it offers (four fixed keys, three keys, learned
keys), the same latents from its seeded generator, the same edits of the latents and of
the query map along u, the student's query response, attention weights and prediction,
and both targets (the original one and the teacher's for the edited example) to 1e-9.
Its presets ask first and then show what their answers say, and the answers hold on
this build's run.

The arithmetic does not depend on the page's language, so the sweep runs once; the
widget's words (from the page) and its number formats are checked in every language,
its accessibility in both schemes on a desktop and on a phone."""

from __future__ import annotations

import json
import math
import re

import pytest
import torch
from playwright.sync_api import expect

from experiment.data import QUERY, mix, teacher
from experiment.interventions import (
    erase_payload,
    erase_query,
    shift_irrelevant,
    shift_query_map,
    shift_request,
)
from experiment.model import Student, mse
from sitebuild.claims.feature_recovery import SUBSTANTIAL_MSE
from sitebuild.numbers import format_value
from tests.browser import axe
from tests.browser.conftest import page_url
from tests.project import DEFAULT, FLOAT_PRECISION_MSE, LANGUAGES, TRANSLATIONS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGE = "feature-recovery/"
EXPLORER = ".intervention-explorer .explorer"
DRAW = f"{EXPLORER} .widget__controls .md-button--primary"
SCHEMES = ("light", "dark")
PHONE = {"width": 390, "height": 844}
FEATURES = ["q1", "q2", "q3", "p1", "p2", "p3", "n1", "n2", "n3"]
STUDENTS = ("four", "three", "learned")
PRESETS = ("eraseQ1", "eraseP2", "shiftP1")
EDITS = {"eraseQ1": lambda run: {"eraseQuery": 0}, "eraseP2": lambda run: {"erasePayload": 1},
         "shiftP1": lambda run: {"shiftFeature": 3, "shift": run["shift"]}}
# The controls, in the order the widget shows them.
SELECTS = {"student": 0, "eraseQuery": 1, "erasePayload": 2, "shiftFeature": 3}
RANGES = {"shift": 0, "alongU": 1}
NO_EDITS = {"eraseQuery": None, "erasePayload": None, "shiftFeature": "ignored", "shift": 0,
            "alongU": 0}


def as_tensor(rows) -> torch.Tensor:
    return torch.tensor(rows, dtype=torch.float64)


@pytest.fixture(scope="module")
def run(site):
    """This build's run, and for each student the explorer offers: the first seed's
    W_Q and W_V, the keys the student attends with and the keys of the teacher."""
    results = json.loads((site / "run" / "results.json").read_text(encoding="utf-8"))
    fixed = as_tensor(results["fixed_keys"])
    entries = {"four": (results["seeds"][0], fixed, fixed),
               "three": (results["variants"]["three_keys"]["seeds"][0], fixed[:3], fixed[:3]),
               "learned": (results["variants"]["learned_keys"]["seeds"][0], None, fixed)}
    students = {}
    for name, (seed, keys, teacher_keys) in entries.items():
        keys = as_tensor(seed["keys"]) if keys is None else keys
        students[name] = {"W_Q": as_tensor(seed["W_Q"]), "W_V": as_tensor(seed["W_V"]),
                          "keys": keys, "teacher_keys": teacher_keys, "seed": seed["seed"]}
    return {"results": results, "students": students, "R": as_tensor(results["mixing_matrix"]),
            "u": as_tensor(results["variants"]["three_keys"]["invisible_direction"]),
            "shift": results["config"]["shift"]}


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


def example_latents(number: int, records: int, query_scale: float) -> torch.Tensor:
    """Example NUMBER as the explorer draws it (maths.js's normals from mulberry32 of
    NUMBER): normals by Marsaglia's polar method, in pairs, (1 + records, 9), query
    scaled."""
    random, normals, count = mulberry32(number), [], (1 + records) * 9
    while len(normals) < count:
        u, v = 2 * random() - 1, 2 * random() - 1
        s = u * u + v * v
        if s >= 1 or s == 0:
            continue  # outside the unit disc: drawn again
        factor = math.sqrt(-2 * math.log(s) / s)
        normals += [u * factor, v * factor]
    latents = as_tensor(normals[:count]).reshape(1 + records, 9)
    latents[:, QUERY] *= query_scale
    return latents


def intervene(latents: torch.Tensor, edits: dict) -> torch.Tensor:
    """experiment/interventions.py's edits, on one example (1 + J, 9), combined as the
    explorer combines them."""
    edited = latents
    if edits["eraseQuery"] is not None:
        edited = erase_query(edited, edits["eraseQuery"])
    if edits["erasePayload"] is not None:
        edited = erase_payload(edited, edits["erasePayload"])
    if edits["shiftFeature"] == "ignored":
        return shift_irrelevant(edited, edits["shift"])
    return shift_request(edited, edits["shiftFeature"], edits["shift"])


def largest_change(after: list[float], before: list[float]) -> float:
    return max(abs(a - b) for a, b in zip(after, before, strict=True))


def state(page) -> dict:
    return json.loads(page.get_attribute(EXPLORER, "data-state"))


def words(page) -> dict:
    return json.loads(page.locator("#site-language").text_content())["words"]["explorer"]


def small(x: float, language: str) -> str:
    """An error as the status line prints it: tiny ones in scientific notation."""
    return format_value(x, "sci2" if x != 0 and abs(x) < 1e-3 else "sig3", language)


def fill(template: str, **params) -> str:
    return template.format(**{key: str(value) for key, value in params.items()})


def rich(text: str) -> str:
    """TEXT as dom.js's rich() shows it, read back: "E_q" is E with a subscript q."""
    return re.sub(r"([A-Za-zŷ])_([A-Za-z0-9]+)", r"\1\2", text)


def first_example_that_changes_the_target(run: dict, start: int, edits: dict) -> int:
    """The example an erasing preset shows: the first from START on on which EDITS change
    the teacher's target of the three-keys student by 0.1 or more in some coordinate."""
    keys = run["students"]["three"]["teacher_keys"]
    for number in range(start, start + 100):
        latents = example_latents(number, 3, run["results"]["config"]["query_scale"])
        change = teacher(intervene(latents, edits)[None], keys) - teacher(latents[None], keys)
        if change.abs().max() >= 0.1:
            return number
    raise AssertionError("no example in a hundred on which the edits change the target")


def check_against_python(shown: dict, run: dict) -> None:
    student = run["students"][shown["student"]]
    records = len(student["teacher_keys"])
    latents = as_tensor(shown["latents"])
    expected = example_latents(shown["example"], records,
                               run["results"]["config"]["query_scale"])
    torch.testing.assert_close(latents, expected, rtol=0, atol=1e-12)
    edited = intervene(latents, shown["edits"])
    torch.testing.assert_close(as_tensor(shown["edited"]), edited, rtol=0, atol=1e-12)
    W_Q = shift_query_map(student["W_Q"], run["R"], run["u"], shown["edits"]["alongU"])
    original = Student(student["W_Q"], student["W_V"], student["keys"])
    shifted = Student(W_Q, student["W_V"], student["keys"])
    with torch.no_grad():
        request, records_mixed = mix(edited[None], run["R"])  # one example
        prediction = shifted(request, records_mixed)  # (1, 3)
        weights = shifted.attention(request)  # (1, J)
        before_request, before_records = mix(latents[None], run["R"])
        baseline = original(before_request, before_records)
        baseline_weights = original.attention(before_request)
        target = teacher(latents[None], student["teacher_keys"])
        counterfactual = teacher(edited[None], student["teacher_keys"])
    assert shown["seed"] == student["seed"]
    torch.testing.assert_close(as_tensor(shown["queryResponse"]), run["R"] @ W_Q, rtol=0,
                               atol=1e-9)
    assert shown["weights"] == pytest.approx(weights[0].tolist(), abs=1e-9)
    assert shown["baselineWeights"] == pytest.approx(baseline_weights[0].tolist(), abs=1e-9)
    assert shown["prediction"] == pytest.approx(prediction[0].tolist(), abs=1e-9)
    assert shown["baseline"] == pytest.approx(baseline[0].tolist(), abs=1e-9)
    assert shown["target"] == pytest.approx(target[0].tolist(), abs=1e-9)
    assert shown["counterfactual"] == pytest.approx(counterfactual[0].tolist(), abs=1e-9)
    assert shown["mse"] == pytest.approx(float(mse(prediction, target)), abs=1e-9)
    assert shown["mseTeacher"] == pytest.approx(float(mse(prediction, counterfactual)), abs=1e-9)
    assert shown["moved"] == pytest.approx(float(mse(prediction, baseline)), abs=1e-9)


def choose(page, **edits) -> dict:
    """Set the controls named in EDITS (student, and any of NO_EDITS' keys) and return
    the widget's state."""
    selects = page.locator(f"{EXPLORER} select")
    ranges = page.locator(f"{EXPLORER} input[type=range]")
    for name, value in edits.items():
        if name in SELECTS:
            selects.nth(SELECTS[name]).select_option("" if value is None else str(value))
        else:
            ranges.nth(RANGES[name]).fill(str(value))
    return state(page)


def reset(page) -> dict:
    page.locator(f"{EXPLORER} .widget__controls .md-button").nth(1).click()
    return state(page)


def test_explorer_computes_what_the_python_model_computes(open_site_page, run):
    page, traffic = open_site_page(DEFAULT, PAGE)
    page.wait_for_selector(EXPLORER)
    shift = run["shift"]
    sweep = [{}, {"eraseQuery": 0}, {"eraseQuery": 2}, {"erasePayload": 1},
             {"shift": shift}, {"shift": -2 * shift}, {"shiftFeature": 3, "shift": shift},
             {"shiftFeature": 8, "shift": -0.5}, {"alongU": 1}, {"alongU": -0.75},
             {"eraseQuery": 1, "erasePayload": 2, "shiftFeature": 4, "shift": shift,
              "alongU": 2}]  # several edits at once
    example = 1
    for student in STUDENTS:
        for _ in range(2):
            for edits in sweep:
                shown = choose(page, student=student, **{**NO_EDITS, **edits})
                assert (shown["student"], shown["example"]) == (student, example)
                assert shown["edits"] == {**NO_EDITS, **edits}
                check_against_python(shown, run)
            page.locator(DRAW).click()  # another example
            example += 1
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_the_three_keys_student_is_shown_first(open_site_page):
    page, _ = open_site_page(DEFAULT, PAGE)
    page.wait_for_selector(EXPLORER)
    shown = state(page)
    assert shown["student"] == "three" and len(shown["weights"]) == 3
    assert page.locator(f"{EXPLORER} table.explorer__chart").first.locator(
        "tbody tr").count() == 3


def test_erasing_moves_the_prediction_as_the_teachers_target_and_the_shift_moves_nothing(
        open_site_page, run):
    page, _ = open_site_page(DEFAULT, PAGE)
    page.wait_for_selector(EXPLORER)
    for student in STUDENTS:
        untouched = choose(page, student=student)
        assert untouched["mse"] < FLOAT_PRECISION_MSE  # on an example it never saw
        # The request's largest query feature: erasing one that is already near 0, its
        # mean, would barely change the example.
        request = untouched["latents"][0][:3]
        largest = max(range(3), key=lambda i: abs(request[i]))
        erased = choose(page, eraseQuery=largest)
        assert erased["mse"] > SUBSTANTIAL_MSE, student  # away from the original target ...
        assert erased["mseTeacher"] < FLOAT_PRECISION_MSE, student  # ... onto the teacher's
        assert reset(page)["edits"] == NO_EDITS
        shifted = choose(page, shift=run["shift"])
        assert shifted["moved"] < FLOAT_PRECISION_MSE, student
        # Not the article's thresholds: the rounding of one float64 sum (the teacher
        # ignores the shifted features) and the tolerance of this file's comparisons.
        assert shifted["counterfactual"] == pytest.approx(untouched["target"], abs=1e-12)
        assert shifted["prediction"] == pytest.approx(untouched["prediction"], abs=1e-9)
        reset(page)


def test_shifting_along_u_changes_the_heat_map_and_no_bar_only_with_three_keys(
        open_site_page, run):
    page, _ = open_site_page(DEFAULT, PAGE)
    page.wait_for_selector(EXPLORER)
    u = run["u"].tolist()
    for student in STUDENTS:
        before = choose(page, student=student, alongU=0)
        after = choose(page, alongU=1)
        moved = as_tensor(after["queryResponse"]) - as_tensor(before["queryResponse"])
        # u on every row of the heat map
        torch.testing.assert_close(moved, as_tensor([u] * 9), rtol=0, atol=1e-12)
        change = largest_change(after["weights"], before["weights"])
        if student == "three":  # every score moves alike: no weight, no prediction moves
            assert change < 1e-12 and after["moved"] < FLOAT_PRECISION_MSE
        else:  # a fourth key sees u
            assert change > 0.01 and after["moved"] > FLOAT_PRECISION_MSE, student
        printed = page.locator(f"{EXPLORER} table.heatmap td.heat").all_text_contents()
        assert printed == [format_value(x, "fix2", DEFAULT)
                           for row in after["queryResponse"] for x in row]
        reset(page)


@pytest.mark.parametrize("preset", PRESETS)
def test_each_preset_asks_first_then_shows_what_its_answer_says(open_site_page, run, preset):
    page, traffic = open_site_page(DEFAULT, PAGE)
    page.wait_for_selector(EXPLORER)
    said = words(page)
    choose(page, student="four", alongU=1)  # a preset starts from the three-keys student
    button = page.locator(f"{EXPLORER} .explorer__presets .widget__buttons .md-button")
    button.nth(PRESETS.index(preset)).click()
    box = page.locator(f"{EXPLORER} .explorer__question")
    apply = box.locator(".md-button")
    expect(box).to_be_visible()
    shift = format_value(run["shift"], "sig3", DEFAULT)
    assert box.locator(".explorer__ask").text_content() == rich(
        fill(said[f"{preset}Question"], shift=shift))
    assert box.locator(".explorer__answer").text_content() == ""  # asked, not yet answered
    untouched = state(page)
    assert (untouched["student"], untouched["edits"]) == ("three", NO_EDITS)
    applied = {**NO_EDITS, **EDITS[preset](run)}
    expected = (1 if preset == "shiftP1"  # a shift changes no target: the reader's example
                else first_example_that_changes_the_target(run, 1, applied))
    assert untouched["example"] == expected
    expect(apply).to_be_focused()
    apply.click()
    expect(apply).to_be_hidden()
    assert box.locator(".explorer__answer").text_content() == rich(
        fill(said[f"{preset}Answer"], shift=shift))
    shown = state(page)
    assert shown["edits"] == applied and shown["example"] == expected
    check_against_python(shown, run)
    weights_moved = largest_change(shown["weights"], shown["baselineWeights"])
    response = shown["queryResponse"]
    if preset == "eraseQ1":
        assert max(abs(x - (i == 0)) for i, x in enumerate(response[0])) > 0.05  # not E_q's
        assert weights_moved > 0.01 and shown["mseTeacher"] < FLOAT_PRECISION_MSE
    elif preset == "eraseP2":
        assert weights_moved == 0 and shown["counterfactual"][1] == 0
        assert shown["prediction"][1] == pytest.approx(0, abs=1e-9)
        for i in (0, 2):
            assert shown["prediction"][i] == pytest.approx(shown["baseline"][i], abs=1e-9)
    else:
        assert max(abs(x) for x in response[3]) > 0.05  # row p1 is not zero ...
        assert weights_moved < 1e-12  # ... and moves no weight
    assert reset(page)["preset"] is None
    expect(box).to_be_hidden()
    assert traffic.console_errors == [] and traffic.page_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_explorer_speaks_the_pages_language_and_prints_its_numbers(open_site_page, run,
                                                                    language):
    page, traffic = open_site_page(language, PAGE)
    page.wait_for_selector(EXPLORER)
    said = words(page)
    shown = choose(page, eraseQuery=1, shift=run["shift"])
    explorer = page.locator(EXPLORER)
    assert explorer.locator(".widget__title").text_content() == \
        f"{said['title']} · {fill(said['example'], n=1)}"
    assert explorer.locator(".widget__intro").text_content() == \
        fill(said["intro"], seed=run["results"]["seeds"][0]["seed"])
    assert explorer.locator(".explorer__presets-title").text_content() == said["presets"]
    shift = format_value(run["shift"], "sig3", language)
    presets = explorer.locator(".explorer__presets .widget__buttons .md-button")
    assert presets.all_text_contents() == [fill(said[name], shift=shift) for name in PRESETS]
    assert explorer.locator("legend").text_content() == said["controls"]
    labels = explorer.locator("label").all_text_contents()
    assert labels == [said[key] for key in ("student", "eraseQuery", "erasePayload",
                                            "shiftFeature", "shift", "alongU")]
    for control in explorer.locator("select, input").all():
        assert page.locator(f'label[for="{control.get_attribute("id")}"]').count() == 1
    options = explorer.locator("select").nth(0).locator("option").all_text_contents()
    assert options == [said[name] for name in STUDENTS]
    options = explorer.locator("select").nth(3).locator("option").all_text_contents()
    assert options == [said["shiftIgnored"]] + [fill(said["shiftOne"], feature=name)
                                                for name in FEATURES[3:]]
    charts = explorer.locator("table.explorer__chart")
    assert charts.locator("caption").all_text_contents() == [said["weights"], said["outputs"]]
    assert charts.nth(0).locator("tbody th").all_text_contents() == [
        fill(said["record"], j=j) for j in range(1, 4)]
    legend = charts.nth(1).locator(".explorer__legend-item").all_text_contents()
    assert legend == [said["prediction"], said["counterfactual"], said["before"]]
    printed = charts.nth(1).locator(".explorer__value").all_text_contents()
    assert printed == [format_value(x, "fix2", language) for i in range(3)
                       for x in (shown["prediction"][i], shown["counterfactual"][i],
                                 shown["baseline"][i])]
    printed = charts.nth(0).locator(".explorer__value").all_text_contents()
    assert printed == [format_value(x, "fix2", language)
                       for pair in zip(shown["weights"], shown["baselineWeights"], strict=True)
                       for x in pair]
    assert explorer.locator(".widget__status").text_content() == fill(
        said["status"], original=small(shown["mse"], language),
        teacher=small(shown["mseTeacher"], language), moved=small(shown["moved"], language))
    summary = explorer.locator(".explorer__latents summary")
    assert summary.text_content() == fill(said["latents"], count=36)
    summary.click()
    rows = explorer.locator('table[data-table="latents"] tbody th').all_text_contents()
    assert rows == [said["request"]] + [fill(said["record"], j=j) for j in range(1, 4)]
    edited = explorer.locator("td.is-edited")
    assert edited.count() > 0 and edited.first.get_attribute("title") == said["edited"]
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_explorer_works_from_the_keyboard(open_site_page):
    page, _ = open_site_page(DEFAULT, PAGE)
    page.wait_for_selector(EXPLORER)
    page.locator(f"{EXPLORER} select").nth(SELECTS["erasePayload"]).focus()
    page.keyboard.press("ArrowDown")  # a closed <select> steps to the next option
    assert state(page)["edits"]["erasePayload"] == 0
    page.locator(f"{EXPLORER} input[type=range]").nth(RANGES["alongU"]).focus()
    page.keyboard.press("ArrowRight")
    assert state(page)["edits"]["alongU"] == 0.25
    page.locator(DRAW).focus()
    page.keyboard.press("Enter")
    assert state(page)["example"] == 2
    page.locator(f"{EXPLORER} .explorer__presets .md-button").first.focus()
    page.keyboard.press("Enter")  # a preset: its question, the focus on its apply button
    page.keyboard.press("Enter")
    assert state(page)["applied"] is True


def test_without_javascript_the_note_and_the_tables_remain(open_site_page):
    page, _ = open_site_page(DEFAULT, PAGE, java_script_enabled=False)
    assert page.locator(EXPLORER).count() == 0
    expect(page.locator(".intervention-explorer p")).to_be_visible()


@pytest.mark.parametrize("width", [1280, PHONE["width"]])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_explorer_with_everything_shown_fits_and_has_no_axe_or_csp_violations(
        open_site_page, server, scheme, width):
    # A tab of its own: the pool's tabs keep the desktop's width.
    page, traffic = open_site_page(TRANSLATIONS[-1], PAGE, scheme=scheme, wait_until=None,
                                   fresh=True)
    page.set_viewport_size({"width": width, "height": PHONE["height"]})
    page.goto(page_url(server, TRANSLATIONS[-1], PAGE))
    page.wait_for_selector(EXPLORER)
    page.locator(f"{EXPLORER} .explorer__presets .md-button").nth(2).click()
    page.locator(f"{EXPLORER} .explorer__question .md-button").click()
    choose(page, eraseQuery=1, alongU=1)
    page.locator(f"{EXPLORER} .explorer__latents summary").click()
    assert page.locator(f"{EXPLORER} td.is-edited").count() > 0
    assert page.locator(f"{EXPLORER} .explorer__bar").first.bounding_box()["width"] > 0
    assert axe.violations(page, ".intervention-explorer") == []
    assert page.evaluate("window.__cspViolations") == []
    if width < 400:  # a phone: nothing wider than the page but the tables' own scroll boxes
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
    assert traffic.console_errors == [] and traffic.page_errors == []
