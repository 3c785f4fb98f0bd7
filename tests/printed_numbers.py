"""Reading back what sitebuild.numbers prints, as a reader would: tests only."""

from __future__ import annotations

import locales
from sitebuild.numbers import MINUS, NEAR_ZERO

_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def parse_number(text: str, language: str) -> float:
    """The number that format_value printed as TEXT for LANGUAGE."""
    signs = locales.record(language).numbers
    if text == NEAR_ZERO:  # zeroN: rounds to zero at N decimals
        return 0.0
    text = text.strip().replace(signs.group, "").replace("\u00a0", " ").replace(MINUS, "-")
    text = text.replace(signs.decimal, ".")
    if "×" not in text:
        return float(text)
    mantissa, power = (part.strip() for part in text.split("×"))
    return float(mantissa) * 10 ** int(power.removeprefix("10").translate(_DIGITS))
