"""Print speed and memory figures of the site build; assert nothing.

    python benchmarks/bench_site.py

1. A clean `mkdocs build` (fresh experiment, figures, one notebook execution,
   three languages) of a copy of the project, with how its wall time splits
   between the computations (the notebook executes alongside them) and the rest
   of MkDocs, and the peak memory of the whole process tree (sampled every 20 ms).
2. `mkdocs serve` on that copy: the time from a prose edit to the end of the
   rebuild of every language, which must neither retrain nor re-execute a
   notebook.

Targets (2-core machine): clean build <= 30 s, prose edit <= 2.5 s,
peak memory <= 1.5 GB.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.project import copy_project  # noqa: E402

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


class PeakMemory(threading.Thread):
    """The largest sum of resident memory over a process and its descendants."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.peak = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            try:
                tree = [self.process, *self.process.children(recursive=True)]
                total = 0
                for member in tree:
                    with contextlib.suppress(psutil.Error):
                        total += member.memory_info().rss
                self.peak = max(self.peak, total)
            except psutil.Error:
                return
            time.sleep(0.02)


def clean_build(project: Path, site_dir: Path) -> None:
    # --verbose makes MkDocs and the plugins log what the split needs.
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--verbose",
               "--site-dir", str(site_dir)]
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=project, env=ENV, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    memory = PeakMemory(process.pid)
    memory.start()
    lines = []
    stamps = []
    for line in process.stdout:
        stamps.append(time.perf_counter() - start)
        lines.append(line)
    process.wait()
    memory.done.set()
    memory.join()
    total = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit("".join(lines[-40:]))
    computations = _span(lines, stamps, "Running computations", "Computations done")
    notebooks = _notebook_time(lines, stamps)
    print(f"clean build: {total:6.1f} s   (target <= 30 s)")
    print(f"  computations (experiment + examples):    {computations:4.1f} s")
    print(f"  notebook, one execution for 3 languages: {notebooks:4.1f} s (alongside them)")
    print(f"  MkDocs and everything else:              {total - computations:4.1f} s")
    print(f"peak memory of the build's process tree: {memory.peak / 2**30:5.2f} GB "
          "(target <= 1.5 GB)")


def _span(lines, stamps, begin: str, end: str) -> float:
    first = next(i for i, line in enumerate(lines) if begin in line)
    last = next(i for i, line in enumerate(lines) if end in line)
    return stamps[last] - stamps[first]


def _notebook_time(lines, stamps) -> float:
    """The notebook's one execution, as sitebuild.notebooks logs it (it overlaps the
    computations, so it is not part of the remainder either)."""
    times = [float(m[1]) for line in lines
             if (m := re.search(r"Notebook executed in ([0-9.]+) s", line))]
    return sum(times)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prose_edit(project: Path) -> None:
    port = _free_port()
    command = [sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dev-addr",
               f"127.0.0.1:{port}"]
    process = subprocess.Popen(command, cwd=project, env=ENV, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    output: list[str] = []
    reader = threading.Thread(target=lambda: output.extend(process.stdout), daemon=True)
    reader.start()
    try:
        _wait_for(output, re.compile(r"Serving on"), timeout=180)
        # The first edit warms the notebook cache of every language.
        timings = []
        for _attempt in range(4):
            page = project / "docs" / "attention.uk.md"
            mark = len(output)
            page.write_text(page.read_text(encoding="utf-8") + "\n", encoding="utf-8")
            start = time.perf_counter()
            _wait_for(output, re.compile(r"Reloading browsers|Documentation built"),
                      timeout=180, after=mark)
            timings.append(time.perf_counter() - start)
            time.sleep(1.0)
        reruns = sum("Running computations" in line for line in output)
        executions = sum("Executing the notebook" in line for line in output)
        print(f"serve, prose edit rebuilt in all languages: {min(timings[1:]):.2f} s best, "
              f"{max(timings[1:]):.2f} s worst of {len(timings) - 1} (target <= 2.5 s)")
        print(f"  first edit after start: {timings[0]:.2f} s; computations run: {reruns} "
              f"(1 expected, at start); notebooks executed: {executions}")
    finally:
        process.terminate()
        process.wait(timeout=30)


def _wait_for(output: list[str], pattern: re.Pattern, timeout: float, after: int = 0) -> None:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if any(pattern.search(line) for line in output[after:]):
            return
        time.sleep(0.02)
    sys.exit("timed out waiting for " + pattern.pattern + ":\n" + "".join(output[-30:]))


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        project = copy_project(Path(scratch) / "project")
        clean_build(project, Path(scratch) / "site")
        prose_edit(project)
        shutil.rmtree(Path(scratch) / "site", ignore_errors=True)


if __name__ == "__main__":
    main()
