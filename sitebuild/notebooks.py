"""The companion notebook: one execution per distinct code, shared by every language.

A notebook page is a Jupytext Markdown file (``notebook.md``, ``notebook.uk.md``,
``notebook.sv.md``): its prose differs by language, its code cells do not. An
execution is keyed on what can change its outputs: the code cells, the kernel,
and the source hash of the experiment it imports (provenance.source, the same
rule as the build's RunCache). Markdown is left out of the key, as jupyter-cache
does, so one execution fills all three pages; a language whose code differs
gets an execution of its own.

Executions start in the background (``NotebookCache.start``) as soon as the
build knows its sources, so that the kernel runs while the experiment and the
examples run in their own processes; a page waits for its result only when it
is built. The cache lives as long as the process: ``mkdocs build`` executes
afresh, ``mkdocs serve`` re-executes only when the key changes.

A failing cell fails the execution (nbclient with allow_errors=False): nothing
half-executed is ever shown or published.

Every figure has a dark twin. A notebook that draws figures says how in a cell
tagged ``parameters``, here ``dark = False``; once its execution has finished, the
build executes it again in the same kernel with ``dark = True``, running again only
the cells that ``dark`` can change (sitebuild.dark_execution). The first execution
is the one the page and the download print; the second contributes only its images.
"""

from __future__ import annotations

import atexit
import copy
import functools
import hashlib
import logging
import re
import shutil
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import jupyter_client
import jupytext
import nbclient
import nbformat
from nbclient.util import run_sync

from provenance.source import source_hash
from sitebuild import scratch
from sitebuild.dark_execution import SKIP_TAG, dark_variant, without_injected

IMPORTED_PACKAGE = "experiment"  # what the notebook imports; part of its key
TIMEOUT = 600  # seconds per cell: one seed trains in seconds, so this means hung
# Seconds for the kernel to answer its first request. nbclient's 60 s failed a build
# that started beside two others on a fresh clone (CI, 2 cores): a loaded machine is
# slow, not broken, so the kernel gets as long as a cell.
STARTUP_TIMEOUT = TIMEOUT
ANSI = re.compile(r"\x1b\[[0-9;]*m")
log = logging.getLogger("mkdocs.hooks.sitebuild")


class NotebookFailed(RuntimeError):
    """A cell raised, or the kernel could not start; the message names the cell."""


def is_notebook(text: str) -> bool:
    """A page whose front matter has a Jupytext kernelspec (cheap: no parsing)."""
    header = text.split("\n---", 1)[0] if text.startswith("---") else ""
    return "\njupyter:" in header and "kernelspec:" in header


def find(docs_dir: Path) -> list[Path]:
    """Every notebook page below DOCS_DIR, in every language."""
    return [path for path in sorted(Path(docs_dir).rglob("*.md"))
            if is_notebook(path.read_text(encoding="utf-8"))]


def read(path: Path) -> nbformat.NotebookNode:
    return jupytext.read(path, fmt="md")


def code_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def kernel_name(notebook: nbformat.NotebookNode) -> str:
    return notebook.metadata.get("kernelspec", {}).get("name", "python3")


def execution_key(notebook: nbformat.NotebookNode, root: Path,
                  package_hash: str | None = None) -> str:
    """sha256 over the kernel, every code cell and the imported package's source hash
    (PACKAGE_HASH, if the caller has it already)."""
    digest = hashlib.sha256()
    digest.update(kernel_name(notebook).encode() + b"\0")
    digest.update((package_hash or source_hash(root, IMPORTED_PACKAGE)).encode() + b"\0")
    for cell in code_cells(notebook):
        digest.update(cell.source.encode() + b"\0")
    return digest.hexdigest()


class Running:
    """The kernels of a cache's executions that run now; once stop_all() has been
    called, no execution starts or goes on."""

    def __init__(self) -> None:
        self._kernels: set = set()
        self._lock = threading.Lock()
        self.stopped = False

    def add(self, kernel) -> None:
        with self._lock:
            if self.stopped:
                raise NotebookFailed("the notebook's execution was stopped")
            self._kernels.add(kernel)

    def check(self, kernel) -> None:
        """Raise NotebookFailed if KERNEL has been stopped (it may have been killed
        before its process existed, while it started)."""
        with self._lock:
            if kernel not in self._kernels:
                raise NotebookFailed("the notebook's execution was stopped")

    def discard(self, kernel) -> None:
        with self._lock:
            self._kernels.discard(kernel)

    def stop_all(self) -> None:
        with self._lock:
            self.stopped = True
            kernels, self._kernels = list(self._kernels), set()
        for kernel in kernels:
            stop(kernel)


def execute(notebook: nbformat.NotebookNode, cwd: Path, running: Running | None = None,
            ) -> tuple[nbformat.NotebookNode, nbformat.NotebookNode | None]:
    """Executed copies of NOTEBOOK and of its dark variant (None if it has no
    parameters cell), run in CWD (the project root, so that they import the
    project's own packages): NOTEBOOK in a fresh kernel, then the variant in the
    same kernel. Raise NotebookFailed at the first failing cell of either, or when
    RUNNING has stopped it."""
    started = time.perf_counter()
    # Ours, not a client's: a client that owns its kernel shuts it down when it is done.
    kernel = jupyter_client.AsyncKernelManager(kernel_name=kernel_name(notebook))
    running = Running() if running is None else running
    running.add(kernel)
    try:
        try:
            run_sync(kernel.start_kernel)(cwd=str(cwd))
        except Exception as error:  # no such kernel, or it died at once
            raise NotebookFailed(f"the notebook's kernel could not start: "
                                 f"{type(error).__name__}: {_tail(str(error))}") from None
        running.check(kernel)  # a stop while it started found no process to kill
        executed = _run(notebook, kernel, cwd)
        first_done = time.perf_counter()
        running.check(kernel)
        twin = dark_variant(notebook, executed)
        executed_twin = None if twin is None else _run(twin, kernel, cwd, skip_tag=SKIP_TAG)
        log.info("Notebook executed in %.1f s (its dark twin, if any, %.1f s of it)",
                 time.perf_counter() - started, time.perf_counter() - first_done)
    finally:
        running.discard(kernel)
        if kernel.has_kernel:
            run_sync(kernel.shutdown_kernel)(now=True)
    return executed, executed_twin


def stop(kernel: jupyter_client.AsyncKernelManager) -> None:
    """Kill KERNEL's process from another thread: its execution fails within a second
    (nbclient checks that the kernel is alive) and cleans up in its own thread."""
    process = getattr(kernel.provisioner, "process", None)  # LocalProvisioner's Popen
    if process is not None and process.poll() is None:
        process.kill()


def _run(notebook: nbformat.NotebookNode, kernel: jupyter_client.AsyncKernelManager,
         cwd: Path, skip_tag: str | None = None) -> nbformat.NotebookNode:
    """An executed copy of NOTEBOOK in KERNEL, its cells tagged SKIP_TAG left as
    they are."""
    executed = copy.deepcopy(notebook)
    skipping = {} if skip_tag is None else {"skip_cells_with_tag": skip_tag}
    client = nbclient.NotebookClient(
        executed, km=kernel, timeout=TIMEOUT, startup_timeout=STARTUP_TIMEOUT, allow_errors=False,
        resources={"metadata": {"path": str(cwd)}}, **skipping)
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        raise NotebookFailed(f"a notebook cell failed:\n{_tail(str(error))}") from None
    except Exception as error:  # the kernel died or never started, a cell timed out
        raise NotebookFailed(f"the notebook could not be executed: "
                             f"{type(error).__name__}: {_tail(str(error))}") from None
    finally:
        if client.kc is not None:
            client.kc.stop_channels()
        # nbclient leaves its exit-time cleanup registered when the kernel dies while the
        # client connects (stop()); at exit it would fail on the manager it has let go.
        atexit.unregister(client._cleanup_kernel)
    return executed


def _tail(text: str, lines: int = 30) -> str:
    return "\n".join(ANSI.sub("", text).strip().splitlines()[-lines:])


def with_outputs(source: nbformat.NotebookNode,
                 executed: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """SOURCE (a language's notebook) with the outputs of EXECUTED, cell by cell.

    Both have the same code cells (they share the execution key); Markdown,
    cell metadata (such as an image's alt text) and raw cells stay SOURCE's.
    """
    result = copy.deepcopy(source)
    mine, theirs = code_cells(result), code_cells(executed)
    if [c.source for c in mine] != [c.source for c in theirs]:
        raise ValueError("the executed notebook has other code cells than this language's")
    for cell, done in zip(mine, theirs, strict=True):
        cell.outputs = copy.deepcopy(done.outputs)
        cell.execution_count = done.execution_count
    result.metadata["language_info"] = copy.deepcopy(executed.metadata.get("language_info", {}))
    return result


@dataclass
class Source:
    """One language's notebook as read for this build, and the key of its execution."""

    path: Path
    notebook: nbformat.NotebookNode
    key: str


class NotebookCache:
    """The executions of this process, by key; each runs once, in the background.

    Only the keys of the current sources are kept: under ``mkdocs serve`` a
    code edit replaces the execution, a prose edit keeps it.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="notebook")
        # key -> the future of (its execution, its dark twin's or None: no figures to twin)
        self._executions: dict[str, Future] = {}
        self._sources: dict[Path, Source] = {}
        self._running = Running()  # the kernels of the executions running now
        self.executions = 0  # how many executions this cache started: a figure for tests

    def start(self, paths: list[Path]) -> None:
        """Read PATHS, and start executing every key not yet executed or running."""
        package_hash = source_hash(self.root, IMPORTED_PACKAGE)
        self._sources = {}
        for path in paths:
            notebook = read(path)
            self._sources[Path(path)] = Source(Path(path), notebook,
                                               execution_key(notebook, self.root, package_hash))
        current = {source.key for source in self._sources.values()}
        for key in set(self._executions) - current:
            self._executions.pop(key).cancel()
        for source in self._sources.values():
            if source.key not in self._executions:
                self.executions += 1
                names = [p.name for p, s in self._sources.items() if s.key == source.key]
                log.info("Executing the notebook for %s (code %s)", ", ".join(names),
                         source.key[:12])
                self._executions[source.key] = self._pool.submit(
                    execute, source.notebook, self.root, self._running)

    def paths(self) -> list[Path]:
        return list(self._sources)

    def has(self, path) -> bool:
        return path is not None and Path(path) in self._sources

    def source(self, path: Path) -> Source:
        return self._sources[Path(path)]

    def result(self, path: Path) -> nbformat.NotebookNode:
        """PATH's notebook with the outputs of its execution (waits for it);
        raise NotebookFailed if the execution failed."""
        source = self.source(path)
        return with_outputs(source.notebook, self._executions[source.key].result()[0])

    def dark_result(self, path: Path) -> nbformat.NotebookNode | None:
        """PATH's notebook with the outputs of its dark execution (waits for it), or
        None if it has no parameters cell; raise NotebookFailed if it failed."""
        source = self.source(path)
        dark = self._executions[source.key].result()[1]
        return None if dark is None else with_outputs(source.notebook, without_injected(dark))

    def close(self) -> None:
        """Stop what still runs (after a failed or interrupted build nothing will read
        it), and wait for its thread to clean up."""
        self._running.stop_all()
        self._pool.shutdown(wait=True, cancel_futures=True)


@functools.cache
def output_dir() -> Path:
    """Where this process writes the notebook's published files: outside docs/ (a
    write there makes `mkdocs serve` rebuild forever), removed when it exits."""
    folder = scratch.folder("notebook")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Path(folder)
