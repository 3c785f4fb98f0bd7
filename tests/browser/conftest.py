"""One Chromium for the session, the built site served on localhost, and one visit of
every page in both colour schemes, recorded as a reader's browser sees it."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.project import LANGUAGES, PAGES

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
]
SCHEMES = ("light", "dark")


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
    prefix = "" if language == "en" else f"{language}/"
    return f"{server}{prefix}{page}"


@dataclass
class Traffic:
    """What a page asked for and what went wrong, as the browser reports it."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # no answer (refused, aborted, blocked)
    http_errors: list[str] = field(default_factory=list)  # answered with status 400 or more
    hosts: set[str] = field(default_factory=set)

    def watch(self, page) -> None:
        page.on("console", lambda message: message.type == "error"
                and self.console_errors.append(f"{message.text} ({message.location})"))
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("request", lambda request: self.hosts.add(urlsplit(request.url).hostname
                                                          or urlsplit(request.url).scheme))
        page.on("requestfailed", lambda request: self.failed.append(
            f"{request.url}: {request.failure}"))
        page.on("response", lambda response: response.status >= 400
                and self.http_errors.append(f"{response.url}: HTTP {response.status}"))


def open_page(browser, url: str, *, scheme: str = "light", wait_until: str = "load",
              **context_options):
    """A fresh context (no stored palette or state) with URL loaded and its traffic watched."""
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900},
                                  **context_options)
    context.set_default_timeout(10_000)  # a widget that never appears fails in seconds
    page = context.new_page()
    traffic = Traffic()
    traffic.watch(page)
    if wait_until:
        page.goto(url, wait_until=wait_until)
    return page, traffic


@pytest.fixture
def open_site_page(browser, server):
    """Open a page of the served site; every context it made is closed afterwards."""
    contexts = []

    def opener(language: str, page: str, **options):
        opened, traffic = open_page(browser, page_url(server, language, page), **options)
        contexts.append(opened.context)
        return opened, traffic

    yield opener
    for context in contexts:
        context.close()


def all_visits():
    return [(language, page, scheme)
            for language in LANGUAGES for page in PAGES for scheme in SCHEMES]


def visit_id(language: str, page: str, scheme: str) -> str:
    return f"{language}-{page.strip('/') or 'home'}-{scheme}"
