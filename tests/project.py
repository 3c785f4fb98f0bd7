"""What tests (and benchmarks) share: the project's layout, and how to build a copy of it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

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


class _ConfigLoader(yaml.SafeLoader):
    """mkdocs.yml as plain data: its tags (!ENV, !!python/...) read as None."""


_ConfigLoader.add_multi_constructor("!", lambda loader, suffix, node: None)
_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def site_words() -> dict[str, dict]:
    """The words of the site's own scripts per language, as mkdocs.yml gives them:
    English in extra.site_words, the other languages in their plugins: i18n entries."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_ConfigLoader)
    i18n = next(plugin["i18n"] for plugin in config["plugins"]
                if isinstance(plugin, dict) and "i18n" in plugin)
    words = {}
    for language in i18n["languages"]:
        extra = config["extra"] if language.get("default") else language.get("extra") or {}
        words[language["locale"]] = extra.get("site_words")
    return words
