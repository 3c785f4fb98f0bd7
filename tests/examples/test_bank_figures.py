"""The bank model's figures write numbers as their page does: the decimal sign of the
language's record, and a minus sign."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from matplotlib import rc_context
from matplotlib.text import Annotation, Text

import locales
from examples import bank_figures
from examples.figures import THEMES, style
from tests.project import LANGUAGES

THEME = THEMES[""]


@pytest.fixture(scope="module")
def data(examples_dir):
    return json.loads((examples_dir / "examples.json").read_text(encoding="utf-8"))


def shown_texts(data, name: str, language: str) -> list[str]:
    with rc_context(style(THEME)):
        fig = bank_figures.DRAWINGS[name](data, language, THEME, bank_figures.ROLES[""])
        fig.draw_without_rendering()  # tick labels exist once drawn
    return [t.get_text() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_languages_figures_write_its_decimal_sign_and_minus_signs(data, language):
    decimal = locales.record(language).numbers.decimal
    other = {".": ",", ",": "."}[decimal]
    texts = [text for name in bank_figures.DRAWINGS for text in shown_texts(data, name, language)]
    assert any(re.search(rf"\d{re.escape(decimal)}\d", text) for text in texts), "no decimals"
    assert [text for text in texts if re.search(rf"\d{re.escape(other)}\d", text)] == []
    assert [text for text in texts if re.search(r"-\d", text)] == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("value", "digits", "written"), [
    (0.5, None, "0.5"), (-1.0, None, "\N{MINUS SIGN}1"), (0.8, 2, "0.80"),
    (-0.001, 2, "0.00"),  # rounds to zero: no sign
])
def test_number_writes_the_pages_way(value, language, digits, written):
    decimal = locales.record(language).numbers.decimal
    assert bank_figures.number(value, language, digits) == written.replace(".", decimal)


def _arrow_tips(fig) -> list[tuple[float, float]]:
    return [tuple(a.xy) for a in fig.findobj(Annotation) if a.arrow_patch is not None]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_basis_change_figure_draws_the_runs_new_query_and_keys_and_their_dot(data,
                                                                                  language):
    heads = data["heads"]
    s = data["bank"]["sentences"][language][1]
    for query in (heads["query_new"], [4.0, -1.0]):  # the run's, then a planted one
        planted = {**data, "heads": {**heads, "query_new": query}}
        with rc_context(style(THEME)):
            fig = bank_figures.basis_change(planted, language, THEME, bank_figures.ROLES[""])
        tips = _arrow_tips(fig)
        assert tuple(query) in tips
        assert {tuple(k) for k in heads["keys_new"][language]} <= set(tips)
        dot = sum(a * b for a, b in zip(query, heads["keys_new"][language][s["clue"]],
                                        strict=True))
        label = f"q · k = {bank_figures.number(dot, language, None)}"
        assert label in [t.get_text() for t in fig.findobj(Text)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_layer_figure_writes_the_runs_numbers_for_bank(data, language):
    """Every cell of the layer figure is a number of the run: h⁽¹⁾, h⁽²⁾, W_O, x, the added
    row and x′ (two decimals, the page's way), so a changed model changes the figure."""
    s = data["heads"]["sentences"][language][1]
    texts = shown_texts(data, "bank-layer", language)
    expected = [bank_figures.number(v, language) for key in ("h_1", "h_2", "x", "written",
                                                           "updated") for v in s[key]]
    expected += [bank_figures.number(v, language, None) for row in data["heads"]["W_O"]
                 for v in row]
    remaining = list(texts)
    for text in expected:
        assert text in remaining, text
        remaining.remove(text)


def test_the_widgets_colour_each_role_as_the_figures_do():
    """widgets.css repeats the bank figures' role colours as CSS variables (the
    calculator's words, arrows and sense plane): they must stay the same."""
    css = (Path(__file__).parents[2] / "docs/assets/stylesheets/widgets.css").read_text(
        encoding="utf-8")
    for scheme, suffix in (("default", ""), ("slate", "-dark")):
        block = re.search(rf'\[data-md-color-scheme="{scheme}"\] \{{([^}}]*--bank-[^}}]*)\}}',
                          css).group(1)
        shown = {name.replace("-", "_"): value.lower() for name, value in
                 re.findall(r"--bank-([a-z0-9-]+): (#[0-9A-Fa-f]{6})", block)}
        roles = bank_figures.ROLES[suffix]
        assert shown == {role: roles[role].lower() for role in shown}
        assert set(shown) == {"clue_1", "clue_2", "ambiguous", "query"}


def _texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


def _drawn(data, name: str, language: str):
    with rc_context(style(THEME)):
        return bank_figures.DRAWINGS[name](data, language, THEME, bank_figures.ROLES[""])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "plane"), [("bank-look-plane", 0), ("bank-sense-plane", 1)])
def test_the_plane_figures_place_every_word_at_its_embeddings_point(data, language, name,
                                                                    plane):
    fig = _drawn(data, name, language)
    marks = "," + locales.record(language).quote.format("")  # each word quoted, as the prose does
    labelled = {word.strip(marks) for text in _texts(fig) for word in text.split()}
    tokens = {t for s in data["bank"]["sentences"][language] for t in s["tokens"]}
    assert tokens <= labelled
    placed = {tuple(line.get_xydata()[0]) for line in fig.axes[0].get_lines()
              if line.get_marker() in bank_figures.MARKERS.values()}
    embeddings = data["bank"]["model"]["embeddings"]
    assert placed == {tuple(e[2 * plane: 2 * plane + 2]) for e in embeddings.values()}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_weights_figure_writes_the_runs_matrices(data, language):
    """Every cell is an entry of the run's W_Q, W_K or W_V, so a changed model changes
    the figure."""
    model = data["bank"]["model"]
    planted = {**data, "bank": {**data["bank"], "model": {**model, "W_Q": [
        [0.0, -2.5], [2.5, 0.0], [0.0, 0.0], [0.0, 0.0]]}}}
    for run in (data, planted):
        texts = _texts(_drawn(run, "bank-weights", language))
        for name in ("W_Q", "W_K", "W_V"):
            for value in (v for row in run["bank"]["model"][name] for v in row):
                text = bank_figures.number(value, language, None)
                assert text in texts, (name, text)
                texts.remove(text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_quarter_turn_figure_draws_every_words_look_arrow_and_query(data, language):
    """Each word's look coordinates and its query from the run are arrows, and each
    query's numbers are written beside it."""
    turned_back = [{**s, "Q": [[-q for q in query] for query in s["Q"]]}
                   for s in data["bank"]["sentences"][language]]
    planted = {**data, "bank": {**data["bank"], "sentences": {
        **data["bank"]["sentences"], language: turned_back}}}
    embeddings = data["bank"]["model"]["embeddings"]
    for run in (data, planted):
        fig = _drawn(run, "bank-quarter-turn", language)
        tips = set(_arrow_tips(fig))
        for s in run["bank"]["sentences"][language]:
            for role in s["roles"]:
                assert tuple(embeddings[role][:2]) in tips
        queries = {tuple(q) for s in run["bank"]["sentences"][language] for q in s["Q"]}
        assert queries == tips & queries
        for query in queries:
            assert bank_figures._vector(query, language) in _texts(fig)
