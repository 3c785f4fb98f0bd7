"""Numbers as a page in a given language prints them.

Styles name the precision a sentence needs:

    int     4096          grouped digits
    fixN    0.332         N decimals
    zeroN   ≈ 0           as fixN, but a value that rounds to zero reads ≈ 0
    sigN    0.75          N significant digits, trailing zeros dropped
    sciN    1.3 × 10⁻³¹   N significant digits in scientific notation
    plain   0.03          the shortest exact form, as Python's repr
    text    2.13.0+cpu    a string, unchanged
    short   3f9a1c0b2d4e  the first 12 characters of a string (a hash)

Each language's record (locales/<code>.toml, [numbers]) gives its decimal and
group signs: a point and a comma, or a comma and a narrow no-break space. Numbers
below 10 000 are not grouped (1200, 4096), as the languages' style guides allow.
Every language writes minus as U+2212, and never before a zero (-0.0001 is "0.000").
A value exactly halfway rounds away from zero (0.125 is "0.13"), as a reader
rounds by hand and as JavaScript's toFixed does.

docs/assets/javascripts/common.js prints the styles the widgets use (int, fix,
sig, sci) the same way, character for character (tests/browser/test_numbers.py).
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal, localcontext

import locales

MINUS = "\u2212"
TIMES = "\u00a0×\u00a010"  # no-break spaces keep "1.3 × 10⁻³¹" on one line
SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

# Every style with an example, for the message of an unknown one.
STYLES = ("int (4096), fixN (fix3: 0.332), zeroN (zero2: ≈ 0, else as fix2), sigN (sig2: 0.75), "
          "sciN (sci2: 1.3 × 10⁻³¹), plain (0.03), text (2.13.0+cpu), short (3f9a1c0b2d4e)")
_STYLE = re.compile(r"^(int|plain|text|short|(fix|zero|sig|sci)(\d{1,2}))$")
# zeroN: a value that rounds to zero at N decimals reads "≈ 0" rather than "0.00",
# which looks like an exact zero; any other value prints as fixN would.
NEAR_ZERO = "\u2248\u00a00"


class FormatError(ValueError):
    """An unknown style, or a value the style cannot print."""


def _shown(value) -> str:
    """VALUE for a message: a whole list of results would drown it."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _sequence(values, what: str) -> list:
    """VALUES if it is a non-empty list; a scalar, a mapping or an empty list is no
    vector, enumeration or matrix (and would print as nothing, or stop the build)."""
    if not isinstance(values, list | tuple):
        raise FormatError(f"needs {what}, got {_shown(values)}")
    if not values:
        raise FormatError(f"needs {what}, got an empty list")
    return list(values)


def _signs(language: str) -> locales.Numbers:
    try:
        return locales.record(language).numbers
    except locales.LanguageError as error:
        raise FormatError(f"unknown language {language!r}") from error


def format_value(value, style: str, language: str) -> str:
    _signs(language)
    match = _STYLE.match(style)
    if not match:
        raise FormatError(f"unknown number style {style!r}; the styles: {STYLES}")
    if style in ("text", "short"):
        if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
            raise FormatError(f"style {style!r} needs a non-empty string, got {_shown(value)}")
        return str(value) if style == "text" else str(value)[:12]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FormatError(f"style {style!r} needs a number, got {_shown(value)}")
    if not math.isfinite(value):
        raise FormatError(f"cannot print the non-finite number {value!r}")
    kind, digits = match.group(2), int(match.group(3) or 0)
    if style == "int":
        if value != int(value):
            raise FormatError(f"style 'int' needs a whole number, got {value!r}")
        return _localise(f"{int(value):,d}", language)
    if style == "plain":
        return _localise(repr(value), language)
    if kind in ("fix", "zero"):
        text = _localise(_rounded(value, f",.{digits}f"), language)
        if kind == "zero" and not any(c in "123456789" for c in text):
            return NEAR_ZERO
        return text
    if kind == "sig":
        if digits < 1:
            raise FormatError("sig needs at least one digit")
        return _localise(_significant(value, digits), language)
    return _scientific(value, max(digits, 1), language)


def _significant(value: float, digits: int) -> str:
    if value == 0:
        return "0"
    decimals = max(digits - 1 - math.floor(math.log10(abs(value))), 0)
    text = _rounded(value, f",.{decimals}f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _scientific(value: float, digits: int, language: str) -> str:
    if value == 0:
        return "0"
    mantissa, exponent = _rounded(value, f".{digits - 1}e").split("e")
    exponent = int(exponent)
    if exponent == 0:
        return _localise(mantissa, language)
    power = str(exponent).translate(SUPERSCRIPT)
    return f"{_localise(mantissa, language)}{TIMES}{power}"


def _rounded(value: float, spec: str) -> str:
    """VALUE formatted by SPEC (",.3f", ".2e"), a value exactly halfway rounded away from zero.

    Decimal(value) is the float's exact binary value, so only a true tie (0.125,
    not 0.1 + 0.2) rounds differently from Python's own round-half-even.
    """
    with localcontext(rounding=ROUND_HALF_UP):
        return format(Decimal(value), spec)


def _localise(text: str, language: str) -> str:
    """Turn Python's '1,234.5' or '-0.5' into the language's own signs."""
    if not any(digit in text for digit in "123456789"):
        text = text.lstrip("-")  # a value rounded to zero has no sign
    grouped = sum(c.isdigit() for c in text.partition(".")[0]) > 4
    signs = _signs(language)
    return text.translate({ord(","): signs.group if grouped else None,
                           ord("."): signs.decimal, ord("-"): MINUS})


def format_range(low, high, style: str, language: str) -> str:
    """'0.139–0.153', or one number when both ends print the same."""
    low_text, high_text = (format_value(v, style, language) for v in (low, high))
    if low_text == high_text:
        return low_text
    # Between two scientific numbers a bare dash would bind to the exponent, and even a
    # spaced one reads as a minus sign after a negative power: the record says what
    # stands between them (a word, "to", or a dash between thin spaces).
    scientific = "×" in low_text + high_text
    dash = _signs(language).scientific_range if scientific else "\u2013"
    return f"{low_text}{dash}{high_text}"


def _separator(language: str) -> str:
    """A comma between numbers, or a semicolon where the comma is the decimal sign."""
    return "; " if _signs(language).decimal == "," else ", "


def format_list(values, style: str, language: str) -> str:
    """'0, 1, 2': an enumeration, as after 't ='."""
    texts = [format_value(v, style, language) for v in _sequence(values, "a list of values")]
    decimals = any(_signs(language).decimal in t for t in texts)
    return (_separator(language) if decimals else ", ").join(texts)


def format_items(values, style: str, language: str) -> str:
    """'0, 1 and 2': the items of a sentence, the last two joined by the language's 'and'."""
    texts = [format_value(v, style, language) for v in _sequence(values, "a list of values")]
    decimals = any(_signs(language).decimal in t for t in texts)
    head = (_separator(language) if decimals else ", ").join(texts[:-1])
    return f"{head} {_signs(language).and_} {texts[-1]}" if head else "".join(texts)


def format_vector(values, style: str, language: str) -> str:
    """'[0.75, 0.25]', or '[0,75; 0,25]' where the decimal sign is a comma."""
    values = _sequence(values, "a vector (a list of numbers)")
    return "[" + _separator(language).join(format_value(v, style, language) for v in values) + "]"


def format_matrix(rows, style: str, language: str) -> str:
    rows = _sequence(rows, "a matrix (a list of rows)")
    texts = [format_vector(r, style, language) for r in rows]
    if len({len(r) for r in rows}) > 1:
        raise FormatError(f"needs a matrix, got rows of lengths {[len(r) for r in rows]}")
    return "[" + _separator(language).join(texts) + "]"
