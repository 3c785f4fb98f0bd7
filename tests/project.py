"""What tests (and benchmarks) share: the project's layout, and how to build a copy of it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "uk", "sv")
PAGES = ("", "attention/", "feature-recovery/", "notebook/")
# What a build needs from the project: a copy of these is a complete project.
PROJECT_PARTS = ("docs", "experiment", "examples", "provenance", "sitebuild", "overrides",
                 "mkdocs.yml", "pyproject.toml")


def mkdocs_build(project: Path, site_dir: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of PROJECT into SITE_DIR, as a user runs it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=project, env=env, capture_output=True, text=True, check=False,
    )


def copy_project(destination: Path) -> Path:
    for part in PROJECT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, destination / part,
                            ignore=shutil.ignore_patterns("__pycache__", ".cache"))
        else:
            shutil.copy2(source, destination / part)
    return destination


def page_file(site: Path, language: str, page: str) -> Path:
    prefix = "" if language == "en" else f"{language}/"
    return site / prefix / page / "index.html"


def run_computation(package: str, *args: str) -> subprocess.CompletedProcess:
    """`python -m PACKAGE ARGS` in a fresh interpreter, as the site build runs it."""
    return subprocess.run([sys.executable, "-m", package, *args], cwd=ROOT,
                          capture_output=True, text=True, check=False)
