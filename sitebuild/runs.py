"""The computations behind the pages, run in fresh interpreters.

A computation is a package run as ``python -m PACKAGE --out DIR``; it writes one
JSON file (results, or an executed notebook) and possibly figures into DIR. The
site build runs every computation once per change of its source, never once per language: the cache
key is the package's source hash (provenance.source), so a prose edit reuses the run
and a code edit repeats it.
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from provenance.source import project_imports, source_folders, source_hash
from sitebuild import scratch

PROJECT_ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("mkdocs.hooks.sitebuild")


@dataclass(frozen=True)
class Computation:
    package: str  # python -m PACKAGE --out DIR; also its namespace in a page:
    # {{ num experiment.seeds.0.seed int }}
    output: str  # the JSON file it writes into DIR

    root: Path = PROJECT_ROOT  # where `python -m PACKAGE` is run
    # A run that takes longer is stopped, and the build fails naming it: a computation
    # that hangs must not hang `mkdocs build` or `serve` with it. Ten times what the
    # slowest takes on the development machine.
    timeout: float = 600.0

    @property
    def imports(self) -> tuple[str, ...]:
        """The project's packages it imports, part of its source: read from its code."""
        return project_imports(self.root, self.package)

    def source_hash(self) -> str:
        """The cache key: the package's source, its imports' and provenance/ (the rule of
        provenance.source, by which a computation records its own hash)."""
        return source_hash(self.root, self.package, *self.imports)

    def watched_paths(self) -> list[Path]:
        """What `mkdocs serve` watches for this computation: the folders its source hash
        reads, so that every edit that changes the key starts a rebuild."""
        return source_folders(self.root, self.package, *self.imports)


def computations(root: Path = PROJECT_ROOT) -> tuple[Computation, ...]:
    """What the pages of the project at ROOT (the folder of mkdocs.yml) are computed from."""
    return (
        Computation(package="experiment", output="results.json", root=root),
        Computation(package="examples", output="examples.json", root=root),
        Computation(package="companion", output="companion.ipynb", root=root),
    )


def watched_paths(computations) -> list[str]:
    """Every folder that one of COMPUTATIONS is keyed on, once (mkdocs.yml's `watch`
    gets them in on_config: a list written by hand there would drift from the key)."""
    return sorted({str(path) for c in computations for path in c.watched_paths()})


class RunFailed(RuntimeError):
    """A computation exited non-zero, was interrupted, or wrote no valid output."""


@dataclass
class Run:
    computation: Computation
    source_hash: str
    out_dir: Path
    data: dict = field(repr=False)

    def files(self) -> list[Path]:
        return sorted(p for p in self.out_dir.iterdir() if p.is_file())


def execute(computation: Computation, source_hash: str) -> Run:
    """Run COMPUTATION in a fresh interpreter into a new folder; raise RunFailed."""
    # Outside docs/ (a write there makes `mkdocs serve` rebuild forever) and
    # outside the project, so that a crashed build leaves nothing to clean.
    out_dir = scratch.folder(computation.package)
    command = [sys.executable, "-m", computation.package, "--out", str(out_dir)]
    try:
        done = subprocess.run(command, cwd=computation.root, capture_output=True, text=True,
                              check=False, timeout=computation.timeout)
    except subprocess.TimeoutExpired:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise RunFailed(f"`python -m {computation.package}` did not finish within "
                        f"{computation.timeout:g} s and was stopped") from None
    if done.returncode != 0:
        shutil.rmtree(out_dir, ignore_errors=True)
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-25:])
        raise RunFailed(
            f"`python -m {computation.package}` failed with exit code {done.returncode}:\n{tail}"
        )
    try:
        data = json.loads((out_dir / computation.output).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise RunFailed(f"`python -m {computation.package}` wrote no valid "
                        f"{computation.output}: {error}") from error
    return Run(computation, source_hash, out_dir, data)


class RunCache:
    """The latest successful run of each computation, kept for this process.

    ``mkdocs build`` is a new process, so it always runs fresh; ``mkdocs serve``
    keeps one process, so a rebuild repeats only what changed.
    """

    def __init__(self, computations: tuple[Computation, ...]) -> None:
        self.computations = computations
        self._runs: dict[str, Run] = {}
        self._failures: dict[str, tuple[str, str]] = {}  # name -> (source hash, message)
        self.executions = 0  # how many runs this cache started: a figure for tests

    def refresh(self) -> dict[str, Run]:
        """Re-run what changed since the last call (in parallel); raise RunFailed.

        A failure is remembered with its source hash, so the other languages of
        the same build report it without running the same broken code again.
        """
        stale = self._stale()
        failures = self._remembered_failures(stale)
        to_run = {c: h for c, h in stale.items() if c.package not in failures}
        if to_run:
            failures.update(self._run(to_run))
        if failures:
            raise RunFailed("\n\n".join(failures.values()))
        return dict(self._runs)

    def _stale(self) -> dict[Computation, str]:
        """The computations whose source changed since their last run, with the new hash."""
        stale = {}
        for computation in self.computations:
            new_hash = computation.source_hash()
            current = self._runs.get(computation.package)
            if current is None or current.source_hash != new_hash:
                stale[computation] = new_hash
        return stale

    def _remembered_failures(self, stale: dict[Computation, str]) -> dict[str, str]:
        """Messages of the STALE computations that already failed with the same source."""
        remembered = {}
        for computation, new_hash in stale.items():
            failed = self._failures.get(computation.package)
            if failed and failed[0] == new_hash:
                remembered[computation.package] = failed[1]
        return remembered

    def _run(self, to_run: dict[Computation, str]) -> dict[str, str]:
        """Run TO_RUN side by side; keep each success, remember each failure.

        A failed computation's previous run is dropped: its old numbers must not
        stay in use. Returns the failures' messages by name.
        """
        started = time.perf_counter()
        log.info("Running computations: %s", ", ".join(f"python -m {c.package}" for c in to_run))
        self.executions += len(to_run)
        failures = {}
        with ThreadPoolExecutor(max_workers=len(to_run)) as pool:
            futures = {c: pool.submit(execute, c, h) for c, h in to_run.items()}
            for computation, future in futures.items():
                try:
                    self._replace(future.result())
                    self._failures.pop(computation.package, None)
                except RunFailed as error:
                    self._drop(computation.package)
                    self._failures[computation.package] = (to_run[computation], str(error))
                    failures[computation.package] = str(error)
        log.info("Computations done in %.1f s", time.perf_counter() - started)
        return failures

    def _replace(self, run: Run) -> None:
        self._drop(run.computation.package)
        self._runs[run.computation.package] = run

    def _drop(self, name: str) -> None:
        old = self._runs.pop(name, None)
        if old is not None:
            shutil.rmtree(old.out_dir, ignore_errors=True)

    def clear(self) -> None:
        for name in list(self._runs):
            self._drop(name)
