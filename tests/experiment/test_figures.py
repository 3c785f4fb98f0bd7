"""Figures hold symbols and numbers only, so one file per scheme serves every language
(and, for a figure that prints decimals, one more with decimal commas)."""

import re

import pytest
from matplotlib import rc_context
from matplotlib.text import Text

from drawing.style import DECIMAL_COMMA, with_decimal_mark
from experiment.figures import (
    FIGURES,
    LATENT_LABELS,
    LIGHT,
    NARROW_WIDTH,
    SCHEMES,
    SYMBOLS,
    style,
)

# A number as the figures print it: a minus (hyphen or U+2212), digits, a point, perhaps
# a superscript exponent (10⁻³⁰), or a vulgar fraction.
NUMBER = re.compile(r"^[-\u2212]?(\d+(\.\d+)?[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]*|¼)$")
# A one-letter symbol, perhaps with a subscript: s, t, q₁, aⱼ.
LETTER = re.compile(r"^[a-zA-Z][₀₁₂₃₄₅₆₇₈₉ⱼ]*$")
# Math text: $...$ with TeX commands, sub- and superscripts, digits and single letters;
# any run of two or more plain letters outside a command would be a word.
MATH = re.compile(r"^\$(?:\\[a-zA-Z]+|[^a-zA-Z$]|(?<![a-zA-Z\\])[a-zA-Z](?![a-zA-Z]))*\$$")
OPERATORS = {"=", "+", "·"}


def is_symbol_or_number(text: str) -> bool:
    """Whether TEXT holds nothing a reader would have to translate."""
    if text in SYMBOLS or MATH.match(text):
        return True
    return all(token in SYMBOLS or token in OPERATORS or NUMBER.match(token)
               or LETTER.match(token) for token in text.split())


@pytest.mark.parametrize("text", ["", "0.50", "-0.23", "\u22120.5", "1200", "10⁻³⁰", "10⁰",
                                  "q1", "n3", "MSE", "q₁", "s = 0", "t", "aⱼ = ¼",
                                  r"$R\,W_Q$", r"$\mathdefault{10^{-30}}$"])
def test_symbols_and_numbers_pass(text):
    assert is_symbol_or_number(text)


@pytest.mark.parametrize("text", ["step", "seed 0", "MSE (log)", "$step$", "loss", "Q1",
                                  "t steps", "q1–q3", "at t = 5"])
def test_words_fail(text):
    assert not is_symbol_or_number(text)


def built(name: str, run: dict, scheme, narrow: bool):
    """Figure NAME as write() draws it, in its phone layout if NARROW."""
    build = FIGURES[name].build
    return build(run, scheme, narrow=True) if narrow else build(run, scheme)


# Every figure in every layout it is drawn in.
LAYOUTS = [(name, False) for name in FIGURES] + [
    (name, True) for name in FIGURES if FIGURES[name].narrow]


def layout_id(case) -> str:
    return f"{case[0]}-narrow" if case[1] else case[0]


@pytest.mark.slow
@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda scheme: scheme.suffix or "light")
@pytest.mark.parametrize("case", LAYOUTS, ids=layout_id)
def test_figures_hold_no_words(default_run, case, scheme):
    with rc_context(style(scheme)):  # built and laid out as write() saves it
        fig = built(case[0], default_run, scheme, case[1])
        fig.draw_without_rendering()
    shown = [t.get_text() for t in fig.findobj(Text) if t.get_visible()]
    assert any(shown), "the figure shows no text at all: the check would be empty"
    assert [text for text in shown if not is_symbol_or_number(text)] == []


def shown_texts(fig) -> list[str]:
    fig.draw_without_rendering()
    return [t.get_text() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]


@pytest.mark.slow
@pytest.mark.parametrize("case", [case for case in LAYOUTS if FIGURES[case[0]].decimals],
                         ids=layout_id)
def test_a_decimal_comma_twin_writes_every_decimal_with_a_comma(default_run, case):
    name, narrow = case
    with rc_context(style(LIGHT)):
        points = shown_texts(built(name, default_run, LIGHT, narrow))
        commas = shown_texts(with_decimal_mark(built(name, default_run, LIGHT, narrow),
                                               DECIMAL_COMMA))
    decimal = re.compile(r"\d[.,]\d")
    assert any(decimal.search(text) for text in points), "it prints no decimals at all"
    assert [text for text in commas if re.search(r"\d\.\d", text)] == []
    assert commas == [text.replace(".", ",") for text in points]  # nothing else changes


@pytest.mark.slow
def test_the_figure_marked_without_decimals_prints_none(default_run):
    for name in (name for name in FIGURES if not FIGURES[name].decimals):
        with rc_context(style(LIGHT)):
            shown = shown_texts(FIGURES[name].build(default_run, LIGHT))
        assert [text for text in shown if re.search(r"\d\.\d", text)] == [], name


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name in FIGURES if FIGURES[name].narrow])
def test_a_phone_layout_stacks_the_same_panels_in_one_column(default_run, name):
    with rc_context(style(LIGHT)):
        wide, narrow = (built(name, default_run, LIGHT, layout) for layout in (False, True))
        wide_texts, narrow_texts = shown_texts(wide), shown_texts(narrow)
    assert set(narrow_texts) == set(wide_texts)  # the same numbers and symbols
    assert narrow.get_figwidth() <= NARROW_WIDTH < wide.get_figwidth()
    # The panels (not the colour bar, which is far narrower or lower) one above another.
    panels = [ax.get_position() for ax in narrow.axes if ax.get_label() != "<colorbar>"]
    assert len(panels) > 1
    for upper, lower in zip(sorted(panels, key=lambda box: -box.y0), sorted(
            panels, key=lambda box: -box.y0)[1:], strict=False):
        assert lower.y1 <= upper.y0 + 1e-9, "two panels side by side"


@pytest.mark.slow
def test_printed_entries_take_a_minus_sign_not_a_hyphen(default_run):
    with rc_context(style(LIGHT)):
        shown = shown_texts(FIGURES["three_keys_query_response"].build(default_run, LIGHT))
    assert any(text.startswith("\N{MINUS SIGN}") for text in shown)
    assert not any(text.startswith("-") for text in shown)


def results_when_measured(run: dict, variant: str) -> dict:
    """RUN as it stood when VARIANT's numbers were in: the painter draws a variant's
    figures from that, while the later variants still train."""
    from experiment.variants import VARIANTS  # (imports torch, which the others need not)

    order = list(VARIANTS)
    measured = order[:order.index(variant) + 1]
    partial = {key: value for key, value in run.items()
               if key not in ("variants", "files", "timing")}
    variants = {name: run["variants"][name] for name in measured if name != "main"}
    return partial | ({"variants": variants} if variants else {})


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FIGURES))
def test_each_figure_is_drawn_from_what_is_measured_when_its_variant_is(default_run, name):
    # The course along u needs the SGD control as well as the three-keys student.
    with rc_context(style(LIGHT)):
        FIGURES[name].build(results_when_measured(default_run, FIGURES[name].variant), LIGHT)


@pytest.mark.slow
def test_the_three_keys_figures_draw_the_recorded_split_and_course(default_run):
    three = default_run["variants"]["three_keys"]
    with rc_context(style(LIGHT)):
        split = FIGURES["three_keys_split"].build(default_run, LIGHT)
        course = FIGURES["three_keys_along_u"].build(default_run, LIGHT)
    images = [image.get_array() for ax in split.axes for image in ax.get_images()]
    assert [image.tolist() for image in images] == [
        three["seeds"][0]["visible_query_response"], three["seeds"][0]["invisible_query_response"]]
    panels = [ax for ax in course.axes if ax.get_title()]
    assert [ax.get_title() for ax in panels] == list(LATENT_LABELS)
    for row, ax in enumerate(panels):  # the Adam line of each row is its recorded course
        adam = next(line for line in ax.get_lines() if line.get_label() == "Adam")
        assert list(adam.get_xdata()) == three["trace_steps"]
        assert list(adam.get_ydata()) == [step[row] for step in
                                          three["seeds"][0]["invisible_component_trace"]]
