"""Numbers print as each language writes them, and read back to the same value."""

import pytest

from sitebuild.numbers import FormatError, format_range, format_value, format_vector, parse_number

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


def test_vectors_separate_by_semicolon_where_the_comma_is_decimal():
    assert format_vector([0.75, 0.25], "sig2", "en") == "[0.75, 0.25]"
    assert format_vector([0.75, 0.25], "sig2", "sv") == "[0,75; 0,25]"


def test_a_range_collapses_when_both_ends_print_the_same():
    assert format_range(0.139, 0.153, "fix3", "en") == "0.139–0.153"
    assert format_range(0.1391, 0.1392, "fix3", "en") == "0.139"


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
