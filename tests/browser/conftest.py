"""One Chromium for the session, the built site served on localhost, tabs that the
tests share, and the list of every page in both colour schemes on a desktop and on a
phone (all_visits), which test_pages.py visits and records as a reader's browser sees
it."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.project import LANGUAGES, PAGES, url_prefix

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
]
SCHEMES = ("light", "dark")
# The screens a page is checked on: a desktop's window, and a phone's (an iPhone 12 to
# 15's 390 CSS pixels), where tables and formulas are wider than the column.
DEVICES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
# Every tab records the Content-Security-Policy's refusals (sitebuild/csp.py) from the
# start of each page; Chromium also logs each as a console error, which the tests
# that use a widget check.
CSP_RECORDER = """window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => window.__cspViolations.push(
  `${event.effectiveDirective} refused ${event.blockedURI || "inline"} `
  + `(${event.sourceFile}:${event.lineNumber}) ${event.sample}`));"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@contextlib.contextmanager
def serving(site: Path):
    """SITE on http://127.0.0.1:PORT/, on a free port, stopped at the end."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture(scope="session")
def server(site):
    """The built site, served for the session."""
    with serving(site) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def page_url(server: str, language: str, page: str) -> str:
    prefix = url_prefix(language)
    return f"{server}{prefix}{page}"


@dataclass
class Traffic:
    """What a page asked for and what went wrong, as the browser reports it."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # no answer (refused, aborted, blocked)
    http_errors: list[str] = field(default_factory=list)  # answered with status 400 or more
    hosts: set[str] = field(default_factory=set)
    _listeners: dict = field(default_factory=dict, repr=False)

    def watch(self, page) -> None:
        self._listeners = {
            "console": lambda message: message.type == "error"
            and self.console_errors.append(f"{message.text} ({message.location})"),
            "pageerror": lambda error: self.page_errors.append(str(error)),
            "request": lambda request: self.hosts.add(urlsplit(request.url).hostname
                                                      or urlsplit(request.url).scheme),
            "requestfailed": lambda request: self.failed.append(
                f"{request.url}: {request.failure}"),
            "response": lambda response: response.status >= 400
            and self.http_errors.append(f"{response.url}: HTTP {response.status}"),
        }
        for event, listener in self._listeners.items():
            page.on(event, listener)

    def unwatch(self, page) -> None:
        for event, listener in self._listeners.items():
            page.remove_listener(event, listener)


def new_tab(browser, scheme: str, device: str = "desktop", **context_options):
    """The one tab of a fresh context (no stored palette or state), nothing loaded, with
    the window of DEVICE."""
    context = browser.new_context(color_scheme=scheme, viewport=DEVICES[device],
                                  **context_options)
    context.set_default_timeout(10_000)  # a widget that never appears fails in seconds
    context.add_init_script(CSP_RECORDER)
    return context.new_page()


def open_page(browser, url: str, *, scheme: str = "light", wait_until: str = "load",
              **context_options):
    """A fresh context (new_tab) with URL loaded and its traffic watched."""
    page = new_tab(browser, scheme, **context_options)
    traffic = Traffic()
    traffic.watch(page)
    if wait_until:
        page.goto(url, wait_until=wait_until)
    return page, traffic


class Tabs:
    """Tabs kept open for the session and reused, one set per scheme and context options.

    Opening a tab costs Chromium about a second of CPU more than loading a page in
    one already open (a new renderer sets up and compiles the theme's scripts again):
    most of the browser tests' time, before this pool. A tab given back is emptied
    before its next use, so that it shows a page as a reader's browser does on
    coming back (the HTTP cache stays warm): no document (about:blank), no storage
    or cookies of the site, no routes, no listeners, the mouse up in a corner. A test
    that changes a tab in ways this cannot undo (an init script, a CDP session) asks
    for a fresh one, which is closed afterwards. test_pages.py checks every page in
    fresh contexts: a reader's first visit."""

    def __init__(self, browser, origin: str):
        self.browser, self.origin = browser, origin
        self._free: dict[str, list] = {}

    def take(self, scheme: str, fresh: bool, **options):
        key = repr((scheme, sorted(options.items())))
        free = [] if fresh else self._free.setdefault(key, [])
        page = free.pop() if free else new_tab(self.browser, scheme, **options)
        traffic = Traffic()
        traffic.watch(page)
        return page, traffic, (None if fresh else key)

    def give_back(self, page, traffic: Traffic, key: str | None) -> None:
        if key is None or page.is_closed():
            page.context.close()
            return
        traffic.unwatch(page)
        try:
            page.unroute_all(behavior="ignoreErrors")
            page.mouse.up()  # a test that failed mid-drag
            page.mouse.move(0, 0)  # nothing hovered
            # Session storage needs nothing: the next page's is new (test_tabs.py).
            page.goto("about:blank")
            session = page.context.new_cdp_session(page)
            session.send("Storage.clearDataForOrigin",  # local storage, cookies, caches...
                         {"origin": self.origin, "storageTypes": "all"})
            session.detach()
        except Exception:  # a tab that cannot be emptied is not used again
            page.context.close()
            return
        self._free[key].append(page)

    def close(self) -> None:
        for pages in self._free.values():
            for page in pages:
                page.context.close()


@pytest.fixture(scope="session")
def tabs(browser, server):
    pool = Tabs(browser, server.rstrip("/"))
    yield pool
    pool.close()


@pytest.fixture
def open_site_page(tabs, server):
    """Open a page of the served site in a tab of the pool (Tabs), watched for traffic;
    fresh=True: in a new context of its own. The tabs go back to the pool afterwards."""
    taken = []

    def opener(language: str, page: str, *, scheme: str = "light", wait_until: str = "load",
               fresh: bool = False, **options):
        tab, traffic, key = tabs.take(scheme, fresh, **options)
        taken.append((tab, traffic, key))
        if wait_until:
            tab.goto(page_url(server, language, page), wait_until=wait_until)
        return tab, traffic

    yield opener
    for tab, traffic, key in taken:
        tabs.give_back(tab, traffic, key)


def all_visits():
    return [(language, page, scheme, device)
            for language in LANGUAGES for device in DEVICES for page in PAGES
            for scheme in SCHEMES]


def visit_id(language: str, page: str, scheme: str, device: str = "desktop") -> str:
    """en-attention-dark, or en-attention-dark-phone on a phone."""
    return f"{language}-{page.strip('/') or 'home'}-{scheme}" + (
        "" if device == "desktop" else f"-{device}")
