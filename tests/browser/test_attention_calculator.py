"""The attention calculator of the attention article computes what
examples/two_positions.py computes: it starts as the worked example, and over a
sweep of representations, temperatures and the causal mask every stage agrees with
the Python head to 1e-9. The arithmetic does not depend on the page's language, so
the sweep runs once; words, number formats and accessibility are checked per
language and scheme."""

from __future__ import annotations

import json
import math

import pytest
from axe_playwright_python.sync_playwright import Axe

from examples import two_positions
from sitebuild.numbers import MINUS, format_value, format_vector
from tests.project import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDGET = ".attention-calculator .calculator"
STAGES = ("Q", "K", "V", "scores", "scaled", "masked", "exponentials", "weights",
          "weighted", "H")


@pytest.fixture(scope="module")
def example(site):
    return json.loads((site / "run" / "examples.json").read_text(encoding="utf-8"))[
        "two_positions"]


def state(page) -> dict:
    return json.loads(page.get_attribute(WIDGET, "data-state"))


def sliders(page):
    return page.locator(f"{WIDGET} input[type=range]")


def as_python(value):
    """The widget's JSON with −∞ (written as null) back as a float."""
    if value is None:
        return -math.inf
    if isinstance(value, list):
        return [as_python(v) for v in value]
    return value


def flat(nested) -> list:
    return [x for item in nested for x in flat(item)] if isinstance(nested, list) else [nested]


def close(found, wanted, tolerance: float) -> bool:
    """Nested lists of numbers equal within TOLERANCE, −∞ only where −∞ is expected."""
    found, wanted = flat(as_python(found)), flat(wanted)
    return len(found) == len(wanted) and all(
        a == b if math.isinf(b) else abs(a - b) <= tolerance
        for a, b in zip(found, wanted, strict=True))


def assert_matches_python(shown: dict) -> None:
    expected = two_positions.worked_example(shown["x"][0], shown["x"][1],
                                            shown["temperature"], shown["causal"])
    for name in STAGES:
        assert close(shown[name], expected[name].tolist(), 1e-9), (name, shown[name])


def set_inputs(page, x_1, x_2, temperature, causal):
    values = [*x_1, *x_2, temperature]
    for k, value in enumerate(values):
        sliders(page).nth(k).fill(str(value))
    checkbox = page.locator(f"{WIDGET} input[type=checkbox]")
    if checkbox.is_checked() != causal:
        checkbox.check() if causal else checkbox.uncheck()


SWEEP = [  # x_1, x_2, temperature, causal
    ((0.0, 1.0), (1.0, 0.0), 1.0, True),
    ((1.0, 1.0), (1.0, 0.0), 1.0, False),
    ((-2.0, 2.0), (2.0, -1.5), 0.25, False),
    ((-2.0, 2.0), (2.0, -1.5), 0.25, True),
    ((0.5, -0.3), (-1.2, 0.7), 4.0, False),
    ((0.0, 0.0), (0.0, 0.0), 2.5, True),
    ((1.7, -2.0), (0.1, 1.9), 0.6, False),
]


def test_calculator_starts_as_the_worked_example(open_site_page, example):
    page, traffic = open_site_page("en", "attention/")
    page.wait_for_selector(WIDGET)
    start = state(page)
    assert start["x"] == [example["x_1"], example["x_2"]]
    assert start["temperature"] == example["temperature"] and start["causal"] is False
    assert close(start["weights"], example["matrix"]["weights"], 1e-12)
    assert start["weights"][1] == pytest.approx(example["weights"], abs=1e-12)
    assert start["scaled"][1] == pytest.approx(example["scores"], abs=1e-12)
    assert start["exponentials"][1] == pytest.approx(example["exponentials"], abs=1e-12)
    assert start["H"][1] == pytest.approx(example["h_2"], abs=1e-12)
    assert_matches_python(start)
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_every_stage_agrees_with_the_python_head_over_a_sweep(open_site_page):
    page, traffic = open_site_page("en", "attention/")
    page.wait_for_selector(WIDGET)
    for x_1, x_2, temperature, causal in SWEEP:
        set_inputs(page, x_1, x_2, temperature, causal)
        shown = state(page)
        assert shown["x"] == [list(x_1), list(x_2)]
        assert (shown["temperature"], shown["causal"]) == (temperature, causal)
        assert_matches_python(shown)
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_the_causal_mask_hides_position_2_from_query_1_only(open_site_page, example):
    page, _ = open_site_page("en", "attention/")
    page.locator(f"{WIDGET} input[type=checkbox]").check()
    masked = state(page)
    assert masked["masked"][0][1] is None  # −∞
    assert close(masked["weights"], example["matrix"]["causal_weights"], 1e-12)
    page.locator(f"{WIDGET} button").click()  # back to the worked example
    assert state(page)["causal"] is False


def test_the_keyboard_moves_every_control(open_site_page, example):
    page, _ = open_site_page("en", "attention/")
    first = sliders(page).first
    first.focus()
    page.keyboard.press("ArrowRight")
    assert state(page)["x"][0][0] == pytest.approx(example["x_1"][0] + 0.1, abs=1e-12)
    temperature = sliders(page).nth(4)
    temperature.focus()
    page.keyboard.press("ArrowLeft")
    assert state(page)["temperature"] == pytest.approx(example["temperature"] - 0.05, abs=1e-12)
    page.locator(f"{WIDGET} input[type=checkbox]").focus()
    page.keyboard.press("Space")
    assert state(page)["causal"] is True
    assert_matches_python(state(page))


def test_dragging_a_point_in_the_plane_moves_that_representation(open_site_page, example):
    page, traffic = open_site_page("en", "attention/")
    plane = page.locator(f"{WIDGET} .calculator__plane")
    plane.scroll_into_view_if_needed()
    box = plane.bounding_box()
    scale = box["width"] / 4.8  # the plane shows [-2.4, 2.4] on each axis

    def at(x, y):  # plane coordinates (y up) to the screen
        return box["x"] + (x + 2.4) * scale, box["y"] + (2.4 - y) * scale

    page.mouse.move(*at(*example["x_2"]))
    page.mouse.down()
    page.mouse.move(*at(-1.5, 0.5), steps=5)
    page.mouse.up()
    # Chromium hands pointer moves to the page with its next frames, which on a busy
    # machine can come after mouse.up() has returned: give the drag time to arrive.
    page.wait_for_function(
        "(s) => { const [x, y] = JSON.parse(document.querySelector(s).dataset.state).x[1];"
        " return Math.abs(x + 1.5) < 0.11 && Math.abs(y - 0.5) < 0.11; }", arg=WIDGET)
    moved = state(page)
    assert moved["x"][0] == example["x_1"]
    assert moved["x"][1] == pytest.approx([-1.5, 0.5], abs=0.11)  # on the 0.1 grid
    assert all(abs(v * 10 - round(v * 10)) < 1e-9 for v in moved["x"][1])
    assert_matches_python(moved)
    assert sliders(page).nth(2).input_value() == str(moved["x"][1][0])
    assert traffic.console_errors == [] and traffic.page_errors == []


def shown_cells(page) -> list[list[list[str]]]:
    """The text of every table cell the calculator shows, table by table, row by row."""
    return page.eval_on_selector_all(
        f"{WIDGET} table.calculator__matrix",
        "tables => tables.map(t => Array.from(t.tBodies[0].rows, row =>"
        " Array.from(row.querySelectorAll('td'), cell => cell.textContent)))")


def printed(value, language: str) -> str:
    """A number, a vector, or a one-number vector (d_k = 1) as the calculator prints it."""
    if isinstance(value, list):
        return (printed(value[0], language) if len(value) == 1
                else format_vector(value, "sig3", language))
    return f"{MINUS}∞" if value == -math.inf else format_value(value, "sig3", language)


def python_cells(x_1, x_2, temperature, causal, language: str) -> list[list[list[str]]]:
    """What the calculator should print, from examples/two_positions.py: the vectors per
    position, the five stages, position 2's a_2j v_j and h_2, and the head output H."""
    head = {name: v.tolist() for name, v in
            two_positions.worked_example(x_1, x_2, temperature, causal).items()}
    X = [list(x_1), list(x_2)]
    tables = [[[X[i], head["Q"][i], head["K"][i], head["V"][i]] for i in range(2)]]
    tables += [head[name] for name in ("scores", "scaled", "masked", "exponentials", "weights")]
    tables += [[*head["weighted"][1], head["H"][1]], head["H"]]
    return [[[printed(value, language) for value in row] for row in table] for table in tables]


@pytest.mark.parametrize("language", ("en", "uk"))
def test_the_cells_a_reader_sees_are_the_python_heads_numbers(open_site_page, language):
    page, traffic = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    for x_1, x_2, temperature, causal in (SWEEP[2], SWEEP[3], SWEEP[6]):
        set_inputs(page, x_1, x_2, temperature, causal)
        assert shown_cells(page) == python_cells(x_1, x_2, temperature, causal, language)
    assert traffic.console_errors == [] and traffic.page_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_widget_speaks_the_pages_language(open_site_page, language):
    page, traffic = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    words = json.loads(page.locator(".attention-calculator script.widget-words")
                       .text_content())
    assert page.locator(f"{WIDGET} .widget__title").text_content() == words["title"]
    for control in page.locator(f"{WIDGET} input[type=range]").all():
        assert control.get_attribute("aria-label")
    shown = state(page)
    status = page.locator(f"{WIDGET} .widget__status").text_content()
    assert format_vector(shown["weights"][1], "sig3", language) in status
    assert traffic.console_errors == [] and traffic.page_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_javascript_the_worked_examples_matrix_remains(open_site_page, language):
    page, _ = open_site_page(language, "attention/", java_script_enabled=False)
    assert page.locator(".calculator").count() == 0
    matrix = page.locator(".attention-calculator table.heatmap")
    assert matrix.is_visible()
    assert matrix.locator("tbody tr").count() == 2


@pytest.mark.parametrize("scheme", ("light", "dark"))
def test_calculator_has_no_axe_violations(open_site_page, scheme):
    page, _ = open_site_page("uk", "attention/", scheme=scheme)
    page.wait_for_selector(WIDGET)
    page.locator(f"{WIDGET} input[type=checkbox]").check()  # −∞ and zero weights shown
    violations = Axe().run(page, context=".attention-calculator").response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations] == []
