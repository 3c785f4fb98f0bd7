"""What tests (and benchmarks) share: the project's layout, and how to build a copy of it."""

from __future__ import annotations

import functools
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

import locales

ROOT = Path(__file__).resolve().parent.parent
_ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


# The site's languages are its records (locales/<code>.toml), the default one first.
DEFAULT = locales.default_code()
LANGUAGES = (DEFAULT, *(code for code in locales.codes() if code != DEFAULT))
TRANSLATIONS = LANGUAGES[1:]
# What tests that compute outside the run (the explorer in the browser, short trainings)
# ask of an MSE at float precision: ten orders below any error a reader could call small.
FLOAT_PRECISION_MSE = 1e-20
PAGES = ("", "attention/", "feature-recovery/", "notebook/")
# What a build needs from the project: a copy of these is a complete project.
PROJECT_PARTS = ("docs", "experiment", "examples", "companion", "locales", "provenance",
                 "drawing", "atomicfile",
                 "sitebuild", "overrides", "mkdocs.yml", "pyproject.toml")

# Tests that build a project of their own (serve, failing builds): the suite starts
# them first (tests/conftest.py), so that their minutes overlap everything else.
OWN_BUILDS = pytest.mark.own_build


def _mkdocs_build_command(site_dir: Path) -> list[str]:
    return [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]


def mkdocs_build(project: Path, site_dir: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of PROJECT into SITE_DIR, as a user runs it."""
    return subprocess.run(_mkdocs_build_command(site_dir), cwd=project, env=_ENV,
                          capture_output=True, text=True, check=False)


class BackgroundBuild:
    """`mkdocs build --strict` of PROJECT into SITE_DIR, started now; wait() for its end."""

    def __init__(self, project: Path, site_dir: Path):
        self.site_dir = site_dir
        # A file, not a pipe that nobody reads while the tests run; closed by wait() or stop().
        self._output = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115
        self._process = subprocess.Popen(_mkdocs_build_command(site_dir), cwd=project, env=_ENV,
                                         stdout=self._output, stderr=subprocess.STDOUT, text=True)

    def wait(self) -> tuple[int, str]:
        """The exit code and everything the build printed."""
        code = self._process.wait()
        self._output.seek(0)
        printed = self._output.read()
        self._output.close()
        return code, printed

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            self._process.wait(timeout=30)
        self._output.close()


class Preview:
    """`mkdocs serve` of PROJECT on a free port, its log collected line by line."""

    def __init__(self, project: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--livereload",
             "--dev-addr", f"127.0.0.1:{self.port}"],
            cwd=project, env=_ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.log: list[str] = []
        threading.Thread(target=lambda: self.log.extend(self.process.stdout), daemon=True).start()

    def wait_for(self, pattern: str, after: int = 0, timeout: float = 240) -> None:
        """Until a line of the log after line AFTER matches PATTERN; raise if the
        rebuild fails, serve exits, or TIMEOUT seconds pass first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(re.search(pattern, line) for line in self.log[after:]):
                return
            if any("An error happened during the rebuild" in line for line in self.log[after:]):
                break
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        raise TimeoutError(f"no {pattern!r} in the log:\n{''.join(self.log[-40:])}")

    def rebuild_after(self, edit) -> float:
        """Make EDIT; the seconds until the browsers are told to reload."""
        mark = len(self.log)
        start = time.perf_counter()
        edit()
        self.wait_for(r"Reloading browsers", after=mark)
        return time.perf_counter() - start

    def page(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}") as response:
            return response.read().decode("utf-8")

    def count(self, text: str) -> int:
        return sum(text in line for line in self.log)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def copy_project(destination: Path) -> Path:
    for part in PROJECT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, destination / part,
                            ignore=shutil.ignore_patterns("__pycache__", ".cache"))
        else:
            shutil.copy2(source, destination / part)
    return destination


def page_suffix(language: str) -> str:
    """What LANGUAGE's pages add to a page's name: page.md, page.uk.md."""
    return "" if language == DEFAULT else f".{language}"


def url_prefix(language: str) -> str:
    """Where LANGUAGE's pages are published: the default's at the root, others in CODE/."""
    return "" if language == DEFAULT else f"{language}/"


def page_file(site: Path, language: str, page: str) -> Path:
    return site / url_prefix(language) / page / "index.html"


def run_computation(package: str, *args: str) -> subprocess.CompletedProcess:
    """`python -m PACKAGE ARGS` in a fresh interpreter, as the site build runs it."""
    return subprocess.run([sys.executable, "-m", package, *args], cwd=ROOT,
                          capture_output=True, text=True, check=False)


@functools.cache
def mkdocs_config():
    """mkdocs.yml as MkDocs reads it (load_config: its !ENV resolved, its plugins'
    settings validated), read once per session."""
    from mkdocs.config import load_config

    return load_config(str(ROOT / "mkdocs.yml"))


def i18n_languages() -> list[dict]:
    """The language entries of mkdocs.yml's i18n plugin; the default one with the
    site's `extra`, which the others' entries update."""
    config = mkdocs_config()
    languages = [dict(language) for language in config.plugins["i18n"].config.languages]
    return [dict(language, extra=dict(config.extra)) if language["default"] else language
            for language in languages]


def site_url() -> str:
    """mkdocs.yml's site_url."""
    return mkdocs_config().site_url


def site_words() -> dict[str, dict]:
    """The words of the site's own scripts per language: each record's [words]."""
    return {code: locales.record(code).words for code in LANGUAGES}
