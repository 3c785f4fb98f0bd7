"""Numbers print as each language writes them, and read back to the same value."""

import pytest

from sitebuild.numbers import (
    FormatError,
    format_items,
    format_list,
    format_range,
    format_value,
    format_vector,
)
from tests.printed_numbers import parse_number

LANGUAGES = ("en", "uk", "sv")


def test_english_writes_a_decimal_point_ukrainian_and_swedish_a_comma():
    assert format_value(0.3324, "fix3", "en") == "0.332"
    assert format_value(0.3324, "fix3", "uk") == "0,332"
    assert format_value(0.3324, "fix3", "sv") == "0,332"


def test_scientific_notation_uses_superscript_exponents_and_a_real_minus():
    assert format_value(1.304e-31, "sci2", "en") == "1.3\u00a0×\u00a010⁻³¹"
    assert format_value(-2.5e7, "sci2", "sv") == "−2,5\u00a0×\u00a010⁷"


def test_large_numbers_are_grouped_small_ones_are_not():
    assert format_value(4096, "int", "en") == "4096"
    assert format_value(123456, "int", "en") == "123,456"
    assert format_value(123456, "int", "uk") == "123\u202f456"


def test_grouping_starts_at_five_digits_after_rounding():
    assert format_value(1234.5, "fix1", "en") == "1234.5"
    assert format_value(-12345.5, "fix1", "sv") == "\u221212\u202f345,5"
    assert format_value(9999.96, "fix1", "en") == "10,000.0"  # rounds up into five digits


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("value", "style"), [
    (-1e-4, "fix3"), (-0.4, "fix0"), (-0.0, "fix2"), (-0.0, "sig2"), (-0.0, "sci2"),
    (-0.0, "plain"), (-0.0, "int"),
])
def test_no_number_is_printed_as_a_negative_zero(value, style, language):
    assert "\u2212" not in format_value(value, style, language)


def test_a_value_exactly_halfway_rounds_away_from_zero():
    assert format_value(0.125, "fix2", "en") == "0.13"
    assert format_value(-0.125, "fix2", "en") == "\u22120.13"
    assert format_value(2.5, "fix0", "en") == "3"
    assert format_value(0.25, "sig1", "en") == "0.3"
    assert format_value(1250.0, "sci2", "en") == "1.3\u00a0×\u00a010³"
    assert format_value(0.15, "fix1", "en") == "0.1"  # 0.15 is stored as 0.1499999…: no tie


def test_significant_digits_round_up_to_the_next_power_of_ten():
    assert format_value(99.96, "sig3", "en") == "100"
    assert format_value(0.09996, "sig2", "uk") == "0,1"
    assert format_value(9.96e5, "sci2", "en") == "1.0\u00a0×\u00a010⁶"


def test_vectors_separate_by_semicolon_where_the_comma_is_decimal():
    assert format_vector([0.75, 0.25], "sig2", "en") == "[0.75, 0.25]"
    assert format_vector([0.75, 0.25], "sig2", "sv") == "[0,75; 0,25]"


def test_items_in_a_sentence_end_with_the_languages_and():
    assert format_items([0, 1, 2], "int", "en") == "0, 1 and 2"
    assert format_items([0, 1, 2], "int", "uk") == "0, 1 і 2"
    assert format_items([0.1, 0.2, 0.3], "sig1", "sv") == "0,1; 0,2 och 0,3"
    assert format_items([4, 7], "int", "sv") == "4 och 7"
    assert format_items([4], "int", "en") == "4"
    assert format_list([0, 1, 2], "int", "en") == "0, 1, 2"  # an enumeration has no 'and'


def test_a_range_collapses_when_both_ends_print_the_same():
    assert format_range(0.139, 0.153, "fix3", "en") == "0.139–0.153"
    assert format_range(0.1391, 0.1392, "fix3", "en") == "0.139"


def test_a_range_of_scientific_numbers_cannot_read_as_a_minus_sign():
    low, high = "9\u00a0×\u00a010⁻³²", "4\u00a0×\u00a010⁻³¹"
    assert format_range(9e-32, 4e-31, "sci1", "en") == f"{low} to {high}"
    assert format_range(9e-32, 4e-31, "sci1", "sv") == f"{low}\u2009–\u2009{high}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("value", "style"), [
    (1.304e-31, "sci3"), (0.3324, "fix3"), (-12345.5, "fix1"), (0.75, "sig2"), (4096, "int"),
])
def test_printed_numbers_read_back(value, style, language):
    printed = format_value(value, style, language)
    assert parse_number(printed, language) == pytest.approx(value, rel=1e-2)


@pytest.mark.parametrize(("value", "style"), [
    (1.0, "fancy"), ("x", "fix2"), (float("nan"), "fix2"), (1.5, "int"), (True, "int"),
])
def test_bad_styles_and_values_are_refused(value, style):
    with pytest.raises(FormatError):
        format_value(value, style, "en")


def test_an_unknown_language_is_refused():
    with pytest.raises(FormatError):
        format_value(1.0, "fix1", "de")
