"""Formulas become MathML at build time; TeX that cannot be rendered stops the build
and names the formula; the TeX stays, escaped, as the formula's text alternative."""

import pytest
from bs4 import BeautifulSoup

from sitebuild.mathml import MathError, render


def inline(tex_html: str) -> str:
    return f'<p>Before <span class="arithmatex">\\({tex_html}\\)</span> after.</p>'


def test_inline_and_display_formulas_become_mathml():
    page = render(inline("x^2") + '<div class="arithmatex">\\[\\frac{a}{b}\\]</div>')
    html = BeautifulSoup(page, "html.parser")
    assert [m["display"] for m in html.find_all("math")] == ["inline", "block"]
    assert html.select_one("div.math-display > math mfrac") is not None
    assert "arithmatex" not in page


@pytest.mark.parametrize("tex", [r"\frac{1}{", "x^", r"\left( x", r"\begin{matrix} 1"])
def test_tex_that_cannot_be_rendered_is_an_error_naming_it(tex):
    with pytest.raises(MathError, match="cannot render TeX") as error:
        render(inline(tex))
    assert repr(tex) in str(error.value)


def test_the_tex_is_the_formulas_text_alternative_escaped_once():
    # arithmatex leaves the TeX HTML-escaped in the page: a < b & "c".
    page = render(inline('a &lt; b \\&amp; "c"'))
    math = BeautifulSoup(page, "html.parser").find("math")
    assert math["alttext"] == 'a < b \\& "c"'
    assert page.count("<math") == 1 and 'alttext="a &lt; b' in page  # no raw < or " inside


def test_a_formula_and_what_follows_it_up_to_a_space_share_one_line():
    # A browser may break right after <math>, even before a comma or "'s".
    page = render('<p><span class="arithmatex">\\(E_q\\)</span>\'s row, '
                  '<span class="arithmatex">\\(u\\)</span>.<sup class="evidence">'
                  '<a>7</a></sup> and <span class="arithmatex">\\(x\\)</span> alone</p>')
    runs = BeautifulSoup(page, "html.parser").select("span.math-run")
    assert [run.get_text() for run in runs] == ["Eq's", "u.7"]
    assert all(run.find("math") for run in runs)
    assert "</math> alone" in page  # nothing follows it: no run


@pytest.mark.parametrize(("tex", "spaced"), [(r"\ln 3", True), (r"e^{\ln 3}", True),
                                             (r"\log x_1", True), (r"\ln(x)", False)])
def test_a_function_name_stands_a_thin_space_from_its_argument_as_in_tex(tex, spaced):
    name = BeautifulSoup(render(inline(tex)), "html.parser").find(
        "mi", string=lambda text: len(text) > 1)
    following = name.find_next_sibling()
    assert (following.name == "mspace") == spaced
    if spaced:
        assert following["width"] == "0.1667em"
