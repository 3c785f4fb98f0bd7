"""One line per figure: `{{ figure NAME "ALT" }}` places the light and dark twins with
one alt text, the twin with the page's decimal mark where the figure has one."""

from __future__ import annotations

import re

import pytest

import locales
from sitebuild.figures import PUBLISHED
from tests.project import LANGUAGES
from tests.sitebuild.test_shortcodes import faults, filled


def language_writing(decimal: str) -> str:
    found = [code for code in LANGUAGES if locales.record(code).numbers.decimal == decimal]
    if not found:
        pytest.skip(f"no language writes a decimal {decimal!r}")
    return found[0]


def values(*files: str) -> dict:
    return {PUBLISHED: {"files": list(files)}}


HEAT_MAP = values("heat.svg", "heat-dark.svg", "heat-comma.svg", "heat-comma-dark.svg")


def test_a_figure_is_its_light_and_dark_twin_with_one_alt_text():
    page = filled('{{ figure heat "A heat map: ones on the diagonal" }}', HEAT_MAP,
                     language_writing("."))
    assert page == ("![A heat map: ones on the diagonal](run/heat.svg#only-light)\n"
                    "![A heat map: ones on the diagonal](run/heat-dark.svg#only-dark)")


def test_a_decimal_comma_page_shows_the_comma_twins():
    page = filled('{{ figure heat "A heat map" }}', HEAT_MAP, language_writing(","))
    assert page == ("![A heat map](run/heat-comma.svg#only-light)\n"
                    "![A heat map](run/heat-comma-dark.svg#only-dark)")


def test_a_figure_without_decimals_is_the_same_file_on_every_page():
    for language in LANGUAGES:
        page = filled('{{ figure keys "Keys" }}', values("keys.svg", "keys-dark.svg"),
                         language)
        assert page == "![Keys](run/keys.svg#only-light)\n![Keys](run/keys-dark.svg#only-dark)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_lang_in_a_figure_name_is_the_page_language(language):
    published = values(f"bars-{language}.svg", f"bars-{language}-dark.svg")
    page = filled('{{ figure bars-LANG "Bars" }}', published, language)
    assert f"run/bars-{language}.svg#only-light" in page
    assert f"run/bars-{language}-dark.svg#only-dark" in page


STACKED = values("maps.svg", "maps-dark.svg", "maps-comma.svg", "maps-comma-dark.svg",
                 "maps-narrow.svg", "maps-narrow-dark.svg", "maps-narrow-comma.svg",
                 "maps-narrow-comma-dark.svg")


def test_a_figure_with_a_phone_layout_places_both_layouts_each_marked_with_its_class():
    page = filled('{{ figure maps "Maps" }}', STACKED, language_writing("."))
    assert page.splitlines() == [
        "![Maps](run/maps.svg#only-light){ .figure-wide }",
        "![Maps](run/maps-dark.svg#only-dark){ .figure-wide }",
        "![Maps](run/maps-narrow.svg#only-light){ .figure-narrow }",
        "![Maps](run/maps-narrow-dark.svg#only-dark){ .figure-narrow }"]


def test_a_decimal_comma_page_shows_the_phone_layout_with_commas_too():
    page = filled('{{ figure maps "Maps" }}', STACKED, language_writing(","))
    assert "run/maps-narrow-comma.svg#only-light){ .figure-narrow }" in page
    assert "run/maps-comma-dark.svg#only-dark){ .figure-wide }" in page
    assert "maps-narrow.svg" not in page and "maps.svg" not in page


def test_a_phone_layout_missing_its_dark_twin_is_an_error():
    published = values("maps.svg", "maps-dark.svg", "maps-narrow.svg")
    assert "published no maps-narrow-dark.svg" in faults('{{ figure maps "Maps" }}', published)


@pytest.mark.parametrize(("markdown", "message"), [
    ('{{ figure heat "A heat map" }}', r"published no heat\.svg, heat-dark\.svg"),
    ('{{ figure heat A heat map }}', "usage"),
    ('{{ figure "A heat map" }}', "usage"),
    ('{{ figure heat "a [link] in it" }}', "usage"),
])
def test_a_figure_the_runs_did_not_publish_or_a_malformed_line_fails(markdown, message):
    assert re.search(message, faults(markdown, values("other.svg"), LANGUAGES[0]))


def test_a_figure_with_a_light_twin_only_fails():
    assert re.search(r"heat-dark\.svg", faults('{{ figure heat "A heat map" }}',
                                                values("heat.svg"), LANGUAGES[0]))
