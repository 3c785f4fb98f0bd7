"""The bank model's figures write numbers as their page does: decimal commas and a
minus sign on the uk and sv pages, decimal points on the English one."""

from __future__ import annotations

import json
import re

import pytest
from matplotlib import rc_context
from matplotlib.text import Text

from examples import bank_figures
from examples.figures import THEMES, style

THEME = THEMES[""]


@pytest.fixture(scope="module")
def data(examples_dir):
    return json.loads((examples_dir / "examples.json").read_text(encoding="utf-8"))


def shown_texts(data, name: str, language: str) -> list[str]:
    with rc_context(style(THEME)):
        fig = bank_figures.DRAWINGS[name](data, language, THEME, bank_figures.ROLES[""])
        fig.draw_without_rendering()  # tick labels exist once drawn
    return [t.get_text() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]


@pytest.mark.parametrize("language", ["uk", "sv"])
def test_the_uk_and_sv_figures_write_decimal_commas_and_minus_signs(data, language):
    texts = [text for name in bank_figures.DRAWINGS for text in shown_texts(data, name, language)]
    assert any(re.search(r"\d,\d", text) for text in texts), "no decimals at all"
    assert [text for text in texts if re.search(r"\d\.\d", text)] == []
    assert [text for text in texts if re.search(r"-\d", text)] == []


def test_the_english_figures_write_decimal_points(data):
    texts = [text for name in bank_figures.DRAWINGS for text in shown_texts(data, name, "en")]
    assert any(re.search(r"\d\.\d", text) for text in texts), "no decimals at all"
    assert [text for text in texts if re.search(r"\d,\d", text)] == []


@pytest.mark.parametrize(("value", "language", "digits", "written"), [
    (0.5, "sv", None, "0,5"), (-1.0, "uk", None, "\N{MINUS SIGN}1"), (0.8, "en", 2, "0.80"),
    (-0.001, "uk", 2, "0,00"),  # rounds to zero: no sign
])
def test_number_writes_the_pages_way(value, language, digits, written):
    assert bank_figures.number(value, language, digits) == written
