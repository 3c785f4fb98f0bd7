"""accessibility.js: Material's code-block navs become plain containers, and the script
stops watching the page once they have (no observer of every DOM change for the page's
life, which the widgets' re-renders would wake again and again)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import page_url
from tests.project import DEFAULT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Every MutationObserver that accessibility.js makes, what it watches, and whether it stopped.
RECORD_OBSERVERS = """(() => {
  const Original = window.MutationObserver;
  window.__observers = [];
  window.MutationObserver = class extends Original {
    constructor(callback) {
      super(callback);
      this.record = { mine: /accessibility\\.js/.test(new Error().stack), targets: [],
                      stopped: false };
      window.__observers.push(this.record);
    }
    observe(target, options) {
      this.record.targets.push(target.className || target.nodeName);
      super.observe(target, options);
    }
    disconnect() {
      this.record.stopped = true;
      super.disconnect();
    }
  };
})();"""


def test_code_navs_are_plain_and_nothing_is_watched_afterwards(open_site_page, server):
    page, _ = open_site_page(DEFAULT, "feature-recovery/", wait_until=None, fresh=True)
    page.add_init_script(RECORD_OBSERVERS)
    page.goto(page_url(server, DEFAULT, "feature-recovery/"), wait_until="networkidle")
    navs = page.locator("nav.md-code__nav")
    assert navs.count() > 0, "no code block on the page: pick another page"
    assert page.locator("nav.md-code__nav:not([role='none'])").count() == 0
    mine = [record for record in page.evaluate("window.__observers") if record["mine"]]
    assert [record for record in mine if not record["stopped"]] == [], mine
    assert {target for record in mine for target in record["targets"]} <= {"md-content"}, mine
