"""Session fixtures: one real build of the site, and one default run of each computation.

The site build is the longest single step of the suite, and most of it is one process:
when a session has tests that need the site and tests that do not, the build starts as
soon as the tests are collected, and the tests that do not need it run first, beside it.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.project import ROOT, BackgroundBuild, run_computation

_EARLY_BUILD = pytest.StashKey[BackgroundBuild]()


def _needs_site(item) -> bool:
    return "site" in getattr(item, "fixturenames", ())


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected what will not run
def pytest_collection_modifyitems(config, items) -> None:
    later = [item for item in items if _needs_site(item)]
    first = [item for item in items if not _needs_site(item)]
    if later and first and not config.option.collectonly:
        items[:] = first + later
        config.stash[_EARLY_BUILD] = BackgroundBuild(ROOT, Path(tempfile.mkdtemp(prefix="site-")))


def pytest_unconfigure(config) -> None:
    build = config.stash.get(_EARLY_BUILD, None)
    if build is not None:
        build.stop()
        shutil.rmtree(build.site_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def site(request, tmp_path_factory) -> Path:
    """The site as `make site` builds it, from the current code and pages."""
    build = (request.config.stash.get(_EARLY_BUILD, None)
             or BackgroundBuild(ROOT, tmp_path_factory.mktemp("site")))
    code, output = build.wait()
    if code != 0:
        pytest.fail(f"mkdocs build failed:\n{output[-5000:]}")
    return build.site_dir


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
