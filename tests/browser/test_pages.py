"""Every page in every language and both colour schemes, on a desktop and on a phone,
as Chromium shows it: no error, no failed or foreign request, no refusal of its
Content-Security-Policy, math on screen, no axe-core violation (on a phone, tables and
formulas wider than the column scroll, and must take focus). (For a person to look at
them: `make screenshots`, tools/screenshots.py.)"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import (
    DEVICES,
    all_visits,
    open_page,
    page_url,
    visit_id,
)
from tests.project import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.long_file]

# What TeX left on screen looks like: delimiters and control words of the articles.
RAW_TEX = r"\$\$|\\\(|\\\[|\\(?:frac|hat|sum|top|operatorname|sqrt|left|right|mathbb|begin)\b"

MATH_ON_SCREEN = """(pattern) => {
  const main = document.querySelector(".md-content");
  const leftovers = main.innerText.match(new RegExp(pattern, "g")) || [];
  const blocks = Array.from(main.querySelectorAll(".arithmatex"));
  // A widget replaces its static table (and the formulas in it) with a live one.
  const maths = Array.from(main.querySelectorAll("math")).filter((m) => !m.closest("[hidden]"));
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


# Started from a timer, so that evaluate() returns at once and the tabs check in parallel.
AXE_START = """(options) => {
  window.__axe = null;
  setTimeout(() => axe.run(document, options)
    .then((results) => { window.__axe = results.violations; }), 0);
}"""


@pytest.fixture(scope="session")
def visits(browser, server):
    """Open each page once per scheme; record traffic, math and axe results.

    The eight visits of one language on one device run side by side, each in its own
    context: they load together, and axe-core checks them together, which halves the
    suite's time on two cores."""
    axe_script = Axe().axe_script
    recorded = {}
    for language, device in ((language, device) for language in LANGUAGES
                             for device in DEVICES):
        opened = {}
        for _, page, scheme, _ in (visit for visit in all_visits()
                                   if visit[0] == language and visit[3] == device):
            tab, traffic = open_page(browser, None, scheme=scheme, wait_until=None,
                                     device=device)
            tab.goto(page_url(server, language, page), wait_until="commit")
            opened[visit_id(language, page, scheme, device)] = (tab, traffic)
        for tab, _ in opened.values():
            # Widgets and figures are filled in after load: let every request finish.
            tab.wait_for_load_state("networkidle")
            # site.js's fixes to Material's page (the search dialog's name) come first.
            tab.wait_for_function("() => 'siteStarted' in document.documentElement.dataset")
            tab.evaluate(axe_script)
            tab.evaluate(AXE_START, {"resultTypes": ["violations"]})
        for name, (tab, traffic) in opened.items():
            # A function, not an expression: Playwright evaluates an expression with eval(),
            # which the pages' Content-Security-Policy refuses.
            tab.wait_for_function("() => window.__axe !== null", timeout=60_000)
            recorded[name] = {
                "traffic": traffic,
                "scheme": tab.evaluate("document.body.dataset.mdColorScheme"),
                "math": tab.evaluate(MATH_ON_SCREEN, RAW_TEX),
                "axe": tab.evaluate("window.__axe"),
                "csp": tab.evaluate("window.__cspViolations"),
            }
            tab.context.close()
    return recorded


def visit_ids():
    return [visit_id(*visit) for visit in all_visits()]


@pytest.mark.parametrize("name", visit_ids())
def test_page_loads_without_console_errors_or_failed_requests(visits, name):
    traffic = visits[name]["traffic"]
    assert traffic.page_errors == []
    assert traffic.console_errors == []
    assert traffic.failed == []
    assert traffic.http_errors == []


@pytest.mark.parametrize("name", visit_ids())
def test_page_breaks_no_rule_of_its_content_security_policy(visits, name):
    assert visits[name]["csp"] == []


@pytest.mark.parametrize("name", visit_ids())
def test_page_requests_nothing_from_another_host(visits, name):
    assert visits[name]["traffic"].hosts <= {"127.0.0.1", "data"}


@pytest.mark.parametrize("name", visit_ids())
def test_page_is_shown_in_the_scheme_the_reader_prefers(visits, name):
    expected = "slate" if name.removesuffix("-phone").endswith("-dark") else "default"
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

