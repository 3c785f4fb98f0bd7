"""Numbers print as each language writes them, and read back to the same value.

The expected texts are written the English way ("12,345.5") and turned into each
language's signs by its record (locales/<code>.toml): what is
tested is the rule, for every language the site has."""

import pytest

import locales
from sitebuild.numbers import (
    FormatError,
    format_items,
    format_list,
    format_range,
    format_value,
    format_vector,
)
from tests.printed_numbers import parse_number
from tests.project import LANGUAGES

THIN_DASH = "\u2009\u2013\u2009"


def written(english: str, language: str) -> str:
    """ENGLISH's point and thousands comma in LANGUAGE's signs."""
    signs = locales.record(language).numbers
    return english.translate({ord("."): signs.decimal, ord(","): signs.group})


def separator(language: str) -> str:
    """Between numbers: a semicolon where the comma is the decimal sign."""
    return "; " if locales.record(language).numbers.decimal == "," else ", "


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_writes_its_records_decimal_sign(language):
    assert format_value(0.3324, "fix3", language) == written("0.332", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_scientific_notation_uses_superscript_exponents_and_a_real_minus(language):
    assert format_value(1.304e-31, "sci2", language) == written("1.3\u00a0×\u00a010⁻³¹", language)
    assert format_value(-2.5e7, "sci2", language) == written("−2.5\u00a0×\u00a010⁷", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_large_numbers_are_grouped_small_ones_are_not(language):
    assert format_value(4096, "int", language) == "4096"
    assert format_value(123456, "int", language) == written("123,456", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_grouping_starts_at_five_digits_after_rounding(language):
    assert format_value(1234.5, "fix1", language) == written("1234.5", language)
    assert format_value(-12345.5, "fix1", language) == written("\u221212,345.5", language)
    # rounds up into five digits
    assert format_value(9999.96, "fix1", language) == written("10,000.0", language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("value", "style"), [
    (-1e-4, "fix3"), (-0.4, "fix0"), (-0.0, "fix2"), (-0.0, "sig2"), (-0.0, "sci2"),
    (-0.0, "plain"), (-0.0, "int"),
])
def test_no_number_is_printed_as_a_negative_zero(value, style, language):
    assert "\u2212" not in format_value(value, style, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_value_exactly_halfway_rounds_away_from_zero(language):
    for value, style, english in (
        (0.125, "fix2", "0.13"), (-0.125, "fix2", "\u22120.13"), (2.5, "fix0", "3"),
        (0.25, "sig1", "0.3"), (1250.0, "sci2", "1.3\u00a0×\u00a010³"),
        (0.15, "fix1", "0.1"),  # 0.15 is stored as 0.1499999…: no tie
    ):
        assert format_value(value, style, language) == written(english, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_significant_digits_round_up_to_the_next_power_of_ten(language):
    assert format_value(99.96, "sig3", language) == "100"
    assert format_value(0.09996, "sig2", language) == written("0.1", language)
    assert format_value(9.96e5, "sci2", language) == written("1.0\u00a0×\u00a010⁶", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_vectors_separate_by_semicolon_where_the_comma_is_decimal(language):
    expected = "[" + separator(language).join(written(v, language) for v in ("0.75", "0.25")) + "]"
    assert format_vector([0.75, 0.25], "sig2", language) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_items_in_a_sentence_end_with_the_languages_and(language):
    and_ = locales.record(language).numbers.and_
    assert format_items([0, 1, 2], "int", language) == f"0, 1 {and_} 2"  # no decimals: commas
    tenths = separator(language).join(written(v, language) for v in ("0.1", "0.2"))
    assert format_items([0.1, 0.2, 0.3], "sig1", language) == \
        f"{tenths} {and_} {written('0.3', language)}"
    assert format_items([4, 7], "int", language) == f"4 {and_} 7"
    assert format_items([4], "int", language) == "4"
    assert format_list([0, 1, 2], "int", language) == "0, 1, 2"  # an enumeration has no 'and'


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_value_that_rounds_to_zero_reads_near_zero_and_no_other(language):
    assert format_value(9.3e-32, "zero2", language) == "\u2248\u00a00"
    assert format_value(-0.004, "zero2", language) == "\u2248\u00a00"
    assert format_value(0.006, "zero2", language) == written("0.01", language)
    assert format_value(0.33, "zero2", language) == written("0.33", language)
    assert format_range(1e-31, 6e-27, "zero2", language) == "\u2248\u00a00"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_range_collapses_when_both_ends_print_the_same(language):
    assert format_range(0.139, 0.153, "fix3", language) == written("0.139–0.153", language)
    assert format_range(0.1391, 0.1392, "fix3", language) == written("0.139", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_range_of_scientific_numbers_cannot_read_as_a_minus_sign(language):
    between = locales.record(language).numbers.scientific_range
    assert between.strip() and between != between.strip(), "a word or a dash, spaced"
    low, high = "9\u00a0×\u00a010⁻³²", "4\u00a0×\u00a010⁻³¹"
    assert format_range(9e-32, 4e-31, "sci1", language) == f"{low}{between}{high}"


def test_a_range_of_scientific_numbers_is_spelled_out_or_dashed_between_thin_spaces():
    for language in LANGUAGES:
        between = locales.record(language).numbers.scientific_range
        assert between == THIN_DASH or between.strip().isalpha(), (language, between)


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
        format_value(value, style, LANGUAGES[0])


def test_a_language_without_a_record_is_refused():
    with pytest.raises(FormatError):
        format_value(1.0, "fix1", "xx")
