"""Each page loads the modules of the widgets it holds and no others (site.js imports a
widget's module only when the page holds the widget's element): the home page loads no
widget at all, and every page the fixes to Material's page that every page needs."""

from __future__ import annotations

from pathlib import PurePosixPath
from urllib.parse import urlsplit

import pytest

from tests.project import LANGUAGES, PAGES

pytestmark = pytest.mark.browser

# What every page loads: the entry, Material's fixes, and what they import.
EVERY_PAGE = {"site.js", "accessibility.js", "search-counts.js", "search-typing.js", "common.js",
              "dom.js"}
FIGURES = {"figure-viewer.js"}
BANK = {"bank-model.js", "maths.js", "run-files.js", "sense-plane.js"}
WIDGETS = {
    "": set(),
    "attention/": {"attention-calculator.js", "value-swap.js"} | BANK | FIGURES,
    "feature-recovery/": {"intervention-explorer.js", "explorer-views.js", "playground-ui.js",
                          "playground-model.js", "playground-views.js", "maths.js",
                          "run-files.js"} | FIGURES,
    "notebook/": FIGURES,
}
# Once a page has loaded them: the widgets mounted, the figures turned into buttons.
SETTLED = {
    "": "document.querySelector('.md-search-result')",
    "attention/": "document.querySelectorAll('.attention-calculator.is-enhanced,"
                  " .value-swap.is-enhanced').length === 2",
    "feature-recovery/": "document.querySelectorAll('.intervention-explorer.is-enhanced,"
                         " .training-playground.is-enhanced').length === 2",
    "notebook/": "document.querySelector('.figure-open')",
}
# Material's own scripts, in the same folder.
MATERIAL = ("bundle.", "workers/", "lunr/")


def our_scripts(page) -> set[str]:
    """The site's scripts that PAGE's document asked for, by file name."""
    urls = page.evaluate("""() => performance.getEntriesByType("resource")
      .map((entry) => entry.name)""")
    folder = "/assets/javascripts/"
    names = set()
    for url in urls:
        path = urlsplit(url).path
        if folder in path:
            inside = path.split(folder, 1)[1]
            if not inside.startswith(MATERIAL):
                names.add(PurePosixPath(inside).name)
    return names


def test_the_pages_listed_here_are_the_sites():
    assert set(WIDGETS) == set(SETTLED) == set(PAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_loads_no_widget_script(open_site_page, language):
    page, traffic = open_site_page(language, "", wait_until="networkidle")
    page.wait_for_function(f"() => {SETTLED['']}")
    assert our_scripts(page) == EVERY_PAGE
    assert traffic.page_errors == [] and traffic.console_errors == []


@pytest.mark.parametrize("page_name", [name for name in WIDGETS if name])
def test_each_page_loads_the_modules_of_its_own_widgets_and_no_others(open_site_page,
                                                                      page_name):
    page, traffic = open_site_page(LANGUAGES[-1], page_name, wait_until="networkidle")
    page.wait_for_function(f"() => {SETTLED[page_name]}")
    assert our_scripts(page) == EVERY_PAGE | WIDGETS[page_name]
    assert traffic.page_errors == [] and traffic.console_errors == []
