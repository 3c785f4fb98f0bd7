"""accessibility.js: Material's code-block navs become plain containers, a table wider
than the column takes focus and a name, and the script stops watching the page once
Material has mounted them (no observer of every DOM change for the page's life, which
the widgets' re-renders would wake again and again)."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import page_url
from tests.project import DEFAULT, TRANSLATIONS

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


# Each table box of the text: whether its table is wider than it, and what it offers a
# keyboard and a screen reader.
TABLE_BOXES = """() => Array.from(document.querySelectorAll('.md-typeset .md-typeset__scrollwrap'),
  (box) => ({ wide: box.scrollWidth > box.clientWidth, tabindex: box.getAttribute('tabindex'),
              role: box.getAttribute('role'), label: box.getAttribute('aria-label') }))"""


@pytest.mark.parametrize(("language", "page_path"), [(TRANSLATIONS[0], "attention/"),
                                                     (DEFAULT, "feature-recovery/")])
def test_on_a_phone_a_table_wider_than_the_column_takes_focus_and_a_name(
        open_site_page, server, language, page_path):
    page, _ = open_site_page(language, page_path, wait_until=None, fresh=True, device="phone")
    page.add_init_script(RECORD_OBSERVERS)
    page.goto(page_url(server, language, page_path), wait_until="networkidle")
    boxes = page.evaluate(TABLE_BOXES)
    words = json.loads(page.locator("#site-language").text_content())["words"]
    wide = [box for box in boxes if box["wide"]]
    assert wide, "no table wider than a phone: pick another page"
    assert all(box == {"wide": True, "tabindex": "0", "role": "group",
                       "label": words["accessibility"]["table"]} for box in wide), wide
    assert all(box["tabindex"] is None and box["role"] is None
               for box in boxes if not box["wide"])
    mine = [record for record in page.evaluate("window.__observers") if record["mine"]]
    assert [record for record in mine if not record["stopped"]] == [], mine
