"""Shared fixtures: the project root, and one real build of the site per test session."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "uk", "sv")
PAGES = ("", "attention/", "feature-recovery/", "notebook/")
# What a build needs from the project: a copy of these is a complete project.
PROJECT_PARTS = ("docs", "experiment", "examples", "sitebuild", "overrides", "mkdocs.yml",
                 "pyproject.toml")


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


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site as `make site` builds it, from the current code and pages."""
    site_dir = tmp_path_factory.mktemp("site")
    done = mkdocs_build(ROOT, site_dir)
    if done.returncode != 0:
        pytest.fail(f"mkdocs build failed:\n{done.stderr[-5000:]}")
    return site_dir


def page_file(site: Path, language: str, page: str) -> Path:
    prefix = "" if language == "en" else f"{language}/"
    return site / prefix / page / "index.html"
