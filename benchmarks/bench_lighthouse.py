"""Print Lighthouse's mobile scores for both articles; assert nothing.

    python benchmarks/bench_lighthouse.py [--site DIR]

Builds the site (or takes DIR, a built site), serves it on localhost with gzip
compression, as GitHub Pages serves it, and runs npm's `lighthouse` (mobile, its
default) in Debian's Chromium against the two articles. Lighthouse is not a
dependency of the site: it is installed with npm into a folder outside the
repository on first use (~/.cache/attention-explainer/lighthouse, or
$LIGHTHOUSE_DIR).

Goals: performance >= 95 on each article; accessibility, best practices and SEO 100.
The machine is shared: performance moves with its load, so run it more than once.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.project import copy_project, mkdocs_build  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
GOALS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
PAGES = ("attention/", "feature-recovery/")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
           "cumulative-layout-shift", "speed-index")
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".map")


class CompressingHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzip-compressed for clients that accept it (text types only)."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not urlsplit(self.path).path.endswith("/"):
                return super().send_head()  # the redirect to the trailing slash
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return _Body(body)

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


class _Body:
    def __init__(self, data: bytes):
        self.data = data

    def read(self, *args) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(CompressingHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def lighthouse_binary() -> Path:
    folder = Path(os.environ.get("LIGHTHOUSE_DIR",
                                 Path.home() / ".cache" / "attention-explainer" / "lighthouse"))
    binary = folder / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        print(f"installing npm's lighthouse into {folder} (once)", file=sys.stderr)
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund",
                        "--prefix", str(folder), "lighthouse"], check=True)
    return binary


def audit(binary: Path, url: str) -> dict:
    done = subprocess.run(
        [str(binary), url, "--quiet", "--output=json", "--output-path=stdout",
         f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"],
        env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True,
        check=False)
    if done.returncode != 0:
        sys.exit(f"lighthouse failed on {url}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def report(page: str, result: dict) -> None:
    scores = {name: round(result["categories"][name]["score"] * 100) for name in CATEGORIES}
    print(f"{page:18s} " + "  ".join(
        f"{name} {score}" + ("" if score >= GOALS[name] else f" (goal {GOALS[name]})")
        for name, score in scores.items()))
    audits = result["audits"]
    print(" " * 18 + " " + "  ".join(
        f"{name.replace('-', ' ')}: {audits[name]['displayValue']}" for name in METRICS))
    for category in CATEGORIES[1:]:
        for ref in result["categories"][category]["auditRefs"]:
            found = audits[ref["id"]]
            if ref["weight"] and found["score"] is not None and found["score"] < 1:
                print(" " * 18 + f" {category}: {found['title']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--runs", type=int, default=1, help="audits per page")
    args = parser.parse_args()
    binary = lighthouse_binary()
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            done = mkdocs_build(copy_project(Path(scratch) / "project"), site)
            if done.returncode != 0:
                sys.exit(done.stderr[-3000:])
        httpd, base = serve(site)
        try:
            version = subprocess.run([str(binary), "--version"], text=True,
                                     capture_output=True, check=False).stdout.strip()
            print(f"Lighthouse {version}, mobile, on a gzip-compressing local server "
                  "(a shared machine: performance varies with its load)")
            for page in PAGES:
                for _ in range(args.runs):
                    report(page, audit(binary, base + page))
        finally:
            httpd.shutdown()


if __name__ == "__main__":
    main()
