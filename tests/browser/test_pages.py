"""Every page in every language and both colour schemes, as Chromium shows it: no
error, no failed or foreign request, math on screen, no axe-core violation, and a
screenshot of each kept in artifacts/screenshots/."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import (
    SCREENSHOTS,
    all_visits,
    open_page,
    page_url,
    visit_id,
)
from tests.conftest import LANGUAGES, PAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# What TeX left on screen looks like: delimiters and control words of the articles.
RAW_TEX = r"\$\$|\\\(|\\\[|\\(?:frac|hat|sum|top|operatorname|sqrt|left|right|mathbb|begin)\b"

MATH_ON_SCREEN = """(pattern) => {
  const main = document.querySelector(".md-content");
  const leftovers = main.innerText.match(new RegExp(pattern, "g")) || [];
  const blocks = Array.from(main.querySelectorAll(".arithmatex"));
  const maths = Array.from(main.querySelectorAll("math"));
  return {
    leftovers,
    unrendered: blocks.filter((b) => !b.querySelector("math")).map((b) => b.textContent),
    maths: maths.length,
    invisible: maths.filter((m) => {
      const box = m.getBoundingClientRect();
      return box.width === 0 || box.height === 0;
    }).length,
  };
}"""


@pytest.fixture(scope="session")
def visits(browser, server):
    """Open each page once per scheme; record traffic, math, axe results and a screenshot."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    axe = Axe()
    recorded = {}
    for language, page, scheme in all_visits():
        opened, traffic = open_page(browser, page_url(server, language, page), scheme=scheme)
        name = visit_id(language, page, scheme)
        # The figures and widgets are filled in after load: let them settle.
        opened.wait_for_load_state("networkidle")
        recorded[name] = {
            "traffic": traffic,
            "scheme": opened.evaluate("document.body.dataset.mdColorScheme"),
            "math": opened.evaluate(MATH_ON_SCREEN, RAW_TEX),
            "axe": axe.run(opened).response["violations"],
        }
        opened.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)
        opened.context.close()
    return recorded


def visit_ids():
    return [visit_id(*visit) for visit in all_visits()]


@pytest.mark.parametrize("name", visit_ids())
def test_page_loads_without_console_errors_or_failed_requests(visits, name):
    traffic = visits[name]["traffic"]
    assert traffic.page_errors == []
    assert traffic.console_errors == []
    assert traffic.failed == []


@pytest.mark.parametrize("name", visit_ids())
def test_page_requests_nothing_from_another_host(visits, name):
    assert visits[name]["traffic"].hosts <= {"127.0.0.1", "data"}


@pytest.mark.parametrize("name", visit_ids())
def test_page_is_shown_in_the_scheme_the_reader_prefers(visits, name):
    expected = "slate" if name.endswith("-dark") else "default"
    assert visits[name]["scheme"] == expected


@pytest.mark.parametrize("name", visit_ids())
def test_math_is_rendered_and_no_raw_tex_is_on_screen(visits, name):
    math = visits[name]["math"]
    assert math["leftovers"] == [], "TeX source is visible"
    assert math["unrendered"] == [], "a formula was not turned into MathML"
    assert math["invisible"] == 0, "a formula takes up no space on screen"
    if "-attention-" in name or "-feature-recovery-" in name:
        assert math["maths"] > 0, "an article without formulas: did math rendering stop?"


@pytest.mark.parametrize("name", visit_ids())
def test_page_has_no_axe_violations(visits, name):
    violations = visits[name]["axe"]
    report = [
        f"{v['id']} ({v['impact']}): {v['help']}\n    "
        + "\n    ".join(node["target"][0] if isinstance(node["target"][0], str)
                        else str(node["target"]) for node in v["nodes"][:5])
        for v in violations
    ]
    assert violations == [], "\n".join(report)


def test_a_screenshot_of_every_page_in_both_schemes_is_kept(visits):
    expected = {f"{visit_id(*visit)}.png" for visit in all_visits()}
    assert len(expected) == len(LANGUAGES) * len(PAGES) * 2
    assert expected <= {path.name for path in SCREENSHOTS.glob("*.png")}
