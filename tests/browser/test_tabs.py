"""The pool of tabs (conftest.Tabs): a tab used again holds nothing of its last test."""

from __future__ import annotations

import pytest

from tests.browser.conftest import page_url
from tests.project import DEFAULT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_reused_tab_keeps_no_storage_cookie_route_or_listener_of_its_last_test(tabs, server):
    page, traffic, key = tabs.take("light", fresh=False)
    page.goto(page_url(server, DEFAULT, ""))
    page.evaluate("localStorage.setItem('probe', '1'); sessionStorage.setItem('probe', '1'); "
                  "document.cookie = 'probe=1; path=/'")
    page.route("**/*.css", lambda route: route.abort())
    tabs.give_back(page, traffic, key)

    again, fresh_traffic, key = tabs.take("light", fresh=False)
    assert again is page, "the pool opened a new tab: this test checks nothing"
    assert again.url == "about:blank"
    again.goto(page_url(server, DEFAULT, ""))
    assert again.evaluate("localStorage.getItem('probe')") is None
    assert again.evaluate("sessionStorage.getItem('probe')") is None
    assert "probe" not in again.evaluate("document.cookie")
    assert fresh_traffic.failed == [], "the last test's route still aborts requests"
    again.goto(server.replace("127.0.0.1", "localhost"))
    assert "localhost" not in traffic.hosts, "the last test's listeners still record"
    tabs.give_back(again, fresh_traffic, key)
