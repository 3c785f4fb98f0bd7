"""Session fixtures: one real build of the site, and one default run of each computation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.project import ROOT, mkdocs_build, run_computation


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site as `make site` builds it, from the current code and pages."""
    site_dir = tmp_path_factory.mktemp("site")
    done = mkdocs_build(ROOT, site_dir)
    if done.returncode != 0:
        pytest.fail(f"mkdocs build failed:\n{done.stderr[-5000:]}")
    return site_dir


def _computed(tmp_path_factory, package: str) -> Path:
    out = tmp_path_factory.mktemp(f"{package}-run")
    done = run_computation(package, "--out", str(out))
    if done.returncode != 0:
        pytest.fail(f"python -m {package} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return out


@pytest.fixture(scope="session")
def default_run_dir(tmp_path_factory) -> Path:
    """A full default `python -m experiment` run, figures included."""
    return _computed(tmp_path_factory, "experiment")


@pytest.fixture(scope="session")
def default_run(default_run_dir) -> dict:
    return json.loads((default_run_dir / "results.json").read_text())


@pytest.fixture(scope="session")
def examples_dir(tmp_path_factory) -> Path:
    return _computed(tmp_path_factory, "examples")


@pytest.fixture(scope="session")
def computed_values(default_run, examples_dir) -> dict:
    """The values a page sees: one namespace per computation, as the build names them."""
    examples = json.loads((examples_dir / "examples.json").read_text())
    return {"experiment": default_run, "examples": examples}
