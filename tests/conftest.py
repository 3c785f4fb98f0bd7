"""Session fixtures: one real build of the site, and one default run of each computation.

The site build is the longest single step of the suite, and most of it is one process:
when a session has tests that need the site and tests that do not, the build starts
with the first test, and the tests that do not need it run first, beside it.

`make test` runs the suite in two pytest-xdist workers. They share these results as
xdist's documentation shows: in the run's common temporary folder, the first worker
to ask computes, under a file lock, and the other reads what it left there. The
site's build is started by whichever worker comes first and watched by a thread, so
that the other worker never waits for more than the build itself. Without xdist, the
same code runs in one process.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest
from filelock import FileLock

from tests.project import ROOT, BackgroundBuild, run_computation

_SITE_FIRST = pytest.StashKey[bool]()


def _needs_site(item) -> bool:
    return "site" in getattr(item, "fixturenames", ())


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected what will not run
def pytest_collection_modifyitems(config, items) -> None:
    """The order of the run: the tests with builds of their own, the other tests that do
    not need the site, and then those that do, the files marked long_file first. Under
    xdist (--dist loadfile --no-loadscope-reorder) each worker takes the next file in
    this order."""
    own = [item for item in items if item.get_closest_marker("own_build")]
    later = [item for item in items if _needs_site(item) and item not in own]
    first = [item for item in items if not _needs_site(item) and item not in own]
    # The longest file of a group first: the last file a worker takes is a short one.
    later.sort(key=lambda item: not item.get_closest_marker("long_file"))  # stable
    items[:] = own + first + later
    if later and (own or first) and not config.option.collectonly:
        config.stash[_SITE_FIRST] = True


def _shared(tmp_path_factory) -> Path:
    """The folder every worker of this run sees: the parent of a worker's own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


class SharedBuild:
    """The site built once for every worker, into FOLDER/site.

    The worker that creates FOLDER/site.started builds; a thread of its own writes
    FOLDER/site.json (exit code and output) when the build ends. Every worker waits
    for that file."""

    def __init__(self, folder: Path):
        self.site_dir = folder / "site"
        self._result = folder / "site.json"
        self._watcher: threading.Thread | None = None
        try:
            (folder / "site.started").touch(exist_ok=False)
        except FileExistsError:
            return  # another worker builds
        build = BackgroundBuild(ROOT, self.site_dir)
        self._watcher = threading.Thread(target=self._watch, args=(build,), daemon=True)
        self._watcher.start()

    def _watch(self, build: BackgroundBuild) -> None:
        code, output = build.wait()
        partial = self._result.with_suffix(".partial")
        partial.write_text(json.dumps({"code": code, "output": output}))
        partial.replace(self._result)  # whole, or not there

    def wait(self, timeout: float = 900) -> tuple[int, str]:
        """The build's exit code and output, once it has ended (in whichever worker)."""
        deadline = time.monotonic() + timeout
        while not self._result.exists():
            if time.monotonic() > deadline:
                return 1, f"no result of the site build in {self._result} after {timeout:g} s"
            time.sleep(0.1)
        result = json.loads(self._result.read_text())
        return result["code"], result["output"]

    def finish(self) -> None:
        """At the end of this worker's session: a build it started ends first."""
        if self._watcher is not None:
            self._watcher.join()


@pytest.fixture(scope="session", autouse=True)
def _site_build(request, tmp_path_factory):
    """Starts the site's build with the session when some selected test needs it."""
    if not request.config.stash.get(_SITE_FIRST, False):
        yield None
        return
    build = _start_site_build(tmp_path_factory)
    yield build
    build.finish()


def _start_site_build(tmp_path_factory) -> SharedBuild:
    folder = _shared(tmp_path_factory)
    with FileLock(folder / "site.lock"):
        return SharedBuild(folder)


@pytest.fixture(scope="session")
def site(_site_build, tmp_path_factory) -> Path:
    """The site as `make site` builds it, from the current code and pages."""
    build = _site_build or _start_site_build(tmp_path_factory)
    code, output = build.wait()
    if code != 0:
        pytest.fail(f"mkdocs build failed:\n{output[-5000:]}")
    return build.site_dir


def _computed(tmp_path_factory, package: str) -> Path:
    """OUT of one `python -m PACKAGE --out OUT` for the whole run, every worker's."""
    out = _shared(tmp_path_factory) / f"{package}-run"
    finished = out.with_suffix(".done")  # beside OUT: tests count the files in it
    with FileLock(out.with_suffix(".lock")):
        if not finished.exists():
            done = run_computation(package, "--out", str(out))
            if done.returncode != 0:
                pytest.fail(f"python -m {package} failed ({done.returncode}):\n"
                            f"{done.stderr[-3000:]}")
            finished.touch()
    return out


@pytest.fixture(scope="session")
def default_run_dir(site) -> Path:
    """The full default `python -m experiment` run that the site build made, as the site
    publishes it (beside the examples' files): the run behind the pages, not another."""
    return site / "run"


@pytest.fixture(scope="session")
def default_run(default_run_dir) -> dict:
    return json.loads((default_run_dir / "results.json").read_text())


@pytest.fixture(scope="session")
def examples_dir(tmp_path_factory) -> Path:
    return _computed(tmp_path_factory, "examples")


@pytest.fixture(scope="session")
def computed_values(default_run, default_run_dir) -> dict:
    """The values the pages saw: one namespace per computation, as the build names them."""
    examples = json.loads((default_run_dir / "examples.json").read_text())
    return {"experiment": default_run, "examples": examples}
