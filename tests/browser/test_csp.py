"""The Content-Security-Policy of every page (sitebuild/csp.py), as Chromium enforces
it: a script from another host or port, an inline script or handler the build did not
emit, a worker from a blob: URL are refused; the site's own scripts, workers and
files load. (Every page in every language and scheme breaks none of its rules:
test_pages.py; the widget tests' console checks see any refusal while they are used.)"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from pathlib import Path

import pytest

from tests.browser.conftest import _QuietHandler
from tests.project import DEFAULT, TRANSLATIONS

pytestmark = pytest.mark.browser

INJECT = """(src) => new Promise((resolve) => {
  const script = document.createElement("script");
  script.type = "module";  // as the site's own scripts are
  script.src = src;
  script.onload = () => resolve("loaded");  // a property set by a script: no inline handler
  script.onerror = () => resolve("refused");
  document.head.append(script);
})"""


@contextlib.contextmanager
def other_origin(folder: Path, host: str):
    """FOLDER on http://HOST:PORT (a free port), and the paths it was asked for."""
    asked: list[str] = []

    class Recording(_QuietHandler):
        def do_GET(self):  # noqa: N802 - the base class's name
            asked.append(self.path)
            super().do_GET()

    httpd = http.server.ThreadingHTTPServer((host, 0), functools.partial(
        Recording, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{httpd.server_address[1]}", asked
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.mark.parametrize("host", ["127.0.0.2", "127.0.0.1"], ids=["other-host", "other-port"])
def test_a_script_from_another_origin_is_refused(open_site_page, tmp_path, host):
    (tmp_path / "x.js").write_text("window.__ran = true;\n", encoding="utf-8")
    with other_origin(tmp_path, host) as (origin, asked):
        page, traffic = open_site_page(TRANSLATIONS[-1], "attention/")
        assert page.evaluate(INJECT, f"{origin}/x.js") == "refused"
        assert page.evaluate(INJECT, "/assets/javascripts/common.js") == "loaded"
    assert page.evaluate("window.__ran") is None and asked == []
    refusals = page.evaluate("window.__cspViolations")
    assert len(refusals) == 1 and refusals[0].startswith(f"script-src-elem refused {origin}/x.js")
    assert any("Content Security Policy" in error for error in traffic.console_errors)


def test_an_inline_script_or_handler_the_build_did_not_emit_is_refused(open_site_page):
    page, _ = open_site_page(TRANSLATIONS[0], "")
    page.evaluate("""() => {
      const script = document.createElement("script");
      script.textContent = "window.__ran = 'script';";
      document.body.append(script);
      const button = document.createElement("button");
      button.setAttribute("onclick", "window.__ran = 'handler'");
      button.id = "injected";
      document.body.append(button);
    }""")
    page.locator("#injected").dispatch_event("click")
    assert page.evaluate("window.__ran") is None
    refused = [v.split(" ")[0] for v in page.evaluate("window.__cspViolations")]
    assert refused == ["script-src-elem", "script-src-attr"]


def test_a_worker_from_a_file_runs_and_one_from_a_blob_is_refused(open_site_page):
    page, _ = open_site_page(DEFAULT, "")
    outcome = page.evaluate("""() => {
      const start = (url) => new Promise((resolve) => {
        try {
          const worker = new Worker(url);
          worker.onmessage = (event) => resolve(`ran ${event.data}`);
          worker.onerror = () => resolve("refused");
        } catch (error) { resolve(`refused: ${error.name}`); }
      });
      const source = "postMessage(1 + 1);";
      return Promise.all([
        start(URL.createObjectURL(new Blob([source], {type: "text/javascript"}))),
        fetch("run/results.json").then((response) => response.json())
          .then((results) => typeof results.config.steps),
      ]);
    }""")
    assert outcome[0].startswith("refused") and outcome[1] == "number"
    assert [v.split(" ")[0] for v in page.evaluate("window.__cspViolations")] == ["worker-src"]
    # Material's search runs in a worker loaded from the site: test_search.py finds pages.
