"""The value-swap widget of the attention article: it starts from the build's numbers,
swapping two columns of W_V swaps the output and keeps the weights, the weights stay
a distribution, and without JavaScript the reader still gets the static table.

Its arithmetic does not depend on the page's language and is tested once; its words
and number formats are tested in every language."""

from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from sitebuild.numbers import format_value, format_vector
from tests.project import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDGET = ".value-swap .value-swap__widget"
SLIDER_LABEL = {"en": "Attention weight of position 1",
                "uk": "Вага уваги позиції 1",
                "sv": "Attentionandel för position 1"}


@pytest.fixture(scope="module")
def example(site):
    return json.loads((site / "run" / "examples.json").read_text(encoding="utf-8"))["value_swap"]


def state(page) -> dict:
    return json.loads(page.get_attribute(WIDGET, "data-state"))


def static_text(page, key: str) -> str:
    return page.locator(f'.value-swap span.value[data-key="{key}"]').first.text_content()


def weighted_sum(weights, values):
    return [sum(a * v[i] for a, v in zip(weights, values, strict=True)) for i in range(3)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_widget_starts_from_the_numbers_of_the_static_table(open_site_page, example, language):
    page, _ = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    assert page.locator(".value-swap table").first.is_hidden()  # the static one, replaced
    rows = page.locator(f"{WIDGET} tbody tr")
    assert rows.count() == len(example["weights"])
    for j in range(rows.count()):
        row = rows.nth(j)
        assert row.locator(".value-swap__weight .widget__number").text_content() == \
            static_text(page, f"examples.value_swap.weights.{j}")
        shown = [row.locator("input[type=text]").nth(i).input_value() for i in range(3)]
        assert shown == [format_value(v, "sig3", language) for v in example["values"][j]]
        assert row.locator("td").last.text_content() == \
            static_text(page, f"examples.value_swap.contributions.{j}")
    assert page.locator(f"{WIDGET} .value-swap__output").text_content() == \
        static_text(page, "examples.value_swap.output")


def test_swapping_two_columns_of_w_v_swaps_the_output_and_keeps_the_weights(
        open_site_page, example):
    page, traffic = open_site_page("en", "attention/")
    swap = page.locator(f"{WIDGET} button[aria-pressed]")
    swap.focus()
    page.keyboard.press("Enter")
    assert swap.get_attribute("aria-pressed") == "true"
    after = state(page)
    assert after["weights"] == example["weights"]
    assert after["output"] == pytest.approx(example["swapped_output"], abs=1e-12)
    assert after["values"] == [[v[1], v[0], v[2]] for v in example["values"]]
    assert page.locator(f"{WIDGET} .value-swap__output").text_content() == \
        static_text(page, "examples.value_swap.swapped_output")
    page.keyboard.press("Space")  # and back
    assert state(page)["output"] == pytest.approx(example["output"], abs=1e-12)
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_moving_one_weight_keeps_the_weights_a_distribution(open_site_page, example):
    page, _ = open_site_page("en", "attention/")
    slider = page.get_by_label(SLIDER_LABEL["en"])
    slider.focus()
    for _ in range(30):  # 0.1 -> 0.4 in steps of 0.01, from the keyboard
        page.keyboard.press("ArrowRight")
    now = state(page)
    assert now["weights"][0] == pytest.approx(0.4, abs=1e-12)
    assert sum(now["weights"]) == pytest.approx(1, abs=1e-12)
    # The others keep their proportions 2 : 3 : 4.
    rest = example["weights"][1:]
    assert now["weights"][1:] == pytest.approx([w * 0.6 / sum(rest) for w in rest], abs=1e-12)
    assert now["output"] == pytest.approx(weighted_sum(now["weights"], now["values"]), abs=1e-12)
    assert page.locator(f"{WIDGET} .value-swap__output").text_content() == \
        format_vector(now["output"], "sig3", "en")


@pytest.mark.parametrize("language", ("en", "sv"))  # a decimal point and a decimal comma
def test_typing_a_value_changes_its_contribution_and_the_output(open_site_page, language):
    page, _ = open_site_page(language, "attention/")
    field = page.locator(f"{WIDGET} tbody tr").nth(3).locator("input[type=text]").first
    field.fill(format_value(-2.5, "sig3", language))  # "−2.5" or "−2,5", as the page writes it
    now = state(page)
    assert now["values"][3][0] == -2.5
    assert now["contributions"][3][0] == pytest.approx(now["weights"][3] * -2.5, abs=1e-12)
    assert now["output"] == pytest.approx(weighted_sum(now["weights"], now["values"]), abs=1e-12)
    field.fill("not a number")
    assert field.get_attribute("aria-invalid") == "true"
    assert state(page)["values"][3][0] == -2.5


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_control_has_a_label_in_the_pages_language(open_site_page, language):
    page, _ = open_site_page(language, "attention/")
    expect(page.get_by_label(SLIDER_LABEL[language])).to_have_count(1)  # once mounted
    words = json.loads(page.locator(".value-swap script.widget-words").text_content())
    headers = page.locator(f"{WIDGET} thead th").all_inner_texts()  # the swap note is hidden
    assert headers == [words["position"], words["weight"], words["value"],
                       words["contribution"]]
    for control in page.locator(f"{WIDGET} input, {WIDGET} button").all():
        name = control.get_attribute("aria-label") or control.text_content()
        assert name and name.strip()


def test_without_javascript_the_static_table_remains(open_site_page, example):
    page, _ = open_site_page("en", "attention/", java_script_enabled=False)
    assert page.locator(".value-swap__widget").count() == 0
    table = page.locator(".value-swap table")
    assert table.is_visible()
    assert table.locator("tbody tr").count() == len(example["weights"])
    output = page.locator('.value-swap span.value[data-key="examples.value_swap.output"]')
    assert output.is_visible()


@pytest.mark.parametrize("scheme", ("light", "dark"))
def test_swapped_widget_has_no_axe_violations(open_site_page, scheme):
    page, _ = open_site_page("sv", "attention/", scheme=scheme)
    page.locator(f"{WIDGET} button[aria-pressed]").click()
    page.locator(f"{WIDGET} input[type=text]").first.fill("x")  # an invalid entry, marked
    violations = Axe().run(page, context=".value-swap").response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations] == []
