"""Print speed and memory figures of the site build; assert nothing.

    python benchmarks/bench_site.py [--pairs 3] [--baseline ee98185] [--no-serve]

1. A clean `mkdocs build --strict` of a copy of the project, against the build of
   commit BASELINE (by default the first edition) in the same run. The two copies
   build in turn, baseline then current, PAIRS times, so that the machine's load
   falls on both alike; printed: every time, both medians and their ratio (the
   targets: benchmarks/README.md). For the current project also: how its
   last build splits between the computations (the notebook's one execution is
   one of them), mkdocs-jupyter's rendering of its three pages and the rest of
   MkDocs, the peak memory of the build's process tree (sampled every 20 ms), and
   the CPU time of each build's process tree: divided by the cores, the least wall
   time in which a build spending that much CPU could end.
2. `mkdocs serve` on the copy: the rebuild of every language after a prose edit
   (no computation and no notebook runs again), and after a code edit of the
   experiment (the experiment and the notebook run again).

Both builds run with this .venv's packages, each from its own copy of the project,
so that each imports its own experiment/ and sitebuild/.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.project import Preview, copy_project  # noqa: E402

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
BASELINE = "ee98185"


class TreeSampler(threading.Thread):
    """The largest sum of resident memory over a process and its descendants, and the
    CPU seconds each member had used when last seen: a split by process, not a total
    (what a member uses after its last sample, or a member that lives less than one
    round of samples, is missed; the total comes from getrusage)."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.peak = 0
        self.cpu: dict[int, tuple[str, float]] = {}  # pid -> (part, user + system seconds)
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            try:
                tree = [self.process, *self.process.children(recursive=True)]
                total = 0
                for member in tree:
                    with contextlib.suppress(psutil.Error):
                        total += member.memory_info().rss
                        used = member.cpu_times()
                        # Named again at every sample (between fork and exec a child has
                        # its parent's command line) while it has one (an ended child,
                        # not yet waited for, has none).
                        command = member.cmdline()
                        part = _part(command) if command else \
                            self.cpu.get(member.pid, ("mkdocs",))[0]
                        self.cpu[member.pid] = (part, used.user + used.system)
                self.peak = max(self.peak, total)
            except psutil.Error:
                return
            time.sleep(0.02)

    def cpu_by_part(self) -> dict[str, float]:
        parts: dict[str, float] = {}
        for part, seconds in self.cpu.values():
            parts[part] = parts.get(part, 0.0) + seconds
        return parts


def _part(command: list[str]) -> str:
    """What the process of a build with COMMAND is: MkDocs, a computation, the
    experiment's figure workers (or multiprocessing's resource tracker), the notebook's
    kernel."""
    if "ipykernel_launcher" in command:
        return "notebook kernel"
    if any("resource_tracker" in word for word in command):
        return "resource tracker"
    if any("multiprocessing" in word for word in command):
        return "figure workers"
    for package in ("experiment", "examples", "companion"):
        if package in command:
            return package
    return "mkdocs"


@dataclass
class Build:
    seconds: float
    peak_memory: int  # bytes
    cpu_seconds: float  # user + system of the whole process tree
    cpu_by_part: dict[str, float]  # sampled: mkdocs, each computation, ...
    lines: list[str]  # what the build printed (--verbose)
    stamps: list[float]  # seconds from the start to each line


def clean_build(project: Path) -> Build:
    """`mkdocs build --strict` of PROJECT with nothing left from an earlier build."""
    site_dir = project / "site"
    for leftover in (site_dir, project / ".cache"):
        shutil.rmtree(leftover, ignore_errors=True)
    # --verbose makes MkDocs and the plugins log what the split needs.
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--verbose",
               "--site-dir", str(site_dir)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=project, env=ENV, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    sampler = TreeSampler(process.pid)
    sampler.start()
    lines, stamps = [], []
    for line in process.stdout:
        stamps.append(time.perf_counter() - start)
        lines.append(line)
    process.wait()
    seconds = time.perf_counter() - start
    sampler.done.set()
    sampler.join()
    # Every process of the tree but multiprocessing's resource tracker (which uses
    # next to nothing) is waited for by its parent, so its CPU time adds up here.
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if process.returncode != 0:
        sys.exit(f"the build of {project} failed:\n" + "".join(lines[-40:]))
    return Build(seconds, sampler.peak, cpu, sampler.cpu_by_part(), lines, stamps)


def export_commit(commit: str, destination: Path) -> Path | None:
    """The project as it was at COMMIT, or None where this is no git checkout with it."""
    done = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT,
                          capture_output=True, check=False)
    if done.returncode != 0:
        return None
    destination.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        archive.extractall(destination, filter="data")
    return destination


def compare_builds(current: Path, baseline: Path | None, commit: str, pairs: int) -> None:
    times: dict[str, list[float]] = {"baseline": [], "current": []}
    cpu: dict[str, list[float]] = {"baseline": [], "current": []}
    last = None
    for _ in range(pairs):
        if baseline is not None:
            build = clean_build(baseline)
            times["baseline"].append(build.seconds)
            cpu["baseline"].append(build.cpu_seconds)
        last = clean_build(current)
        times["current"].append(last.seconds)
        cpu["current"].append(last.cpu_seconds)
    for name, seconds in times.items():
        if seconds:
            listed = ", ".join(f"{s:.1f}" for s in seconds)
            print(f"clean build, {name:8}: median {statistics.median(seconds):5.1f} s  ({listed})")
    if times["baseline"]:
        ratio = statistics.median(times["current"]) / statistics.median(times["baseline"])
        print(f"  current / {commit}: {ratio:.2f}x  (builds alternated, {pairs} pairs)")
    else:
        print(f"  no baseline: {commit} is not in this checkout's git history")
    computations = _span(last, "Running computations", "Computations done")
    print(f"  last current build: computations {computations:.1f} s (the notebook's execution "
          f"among them), its 3 pages rendered {_conversion_time(last):.1f} s, "
          f"wall {last.seconds:.1f} s")
    print(f"  peak memory of its process tree: {last.peak_memory / 2**30:.2f} GB "
          "(target <= 1.5 GB)")
    print_cpu_bound(cpu, times, last, computations, commit)


def print_cpu_bound(cpu: dict[str, list[float]], times: dict[str, list[float]],
                    last: Build, computations: float, commit: str) -> None:
    """The CPU seconds of each build, and the least wall time they allow: a build that
    spends that much CPU cannot take less than it shared perfectly over the cores.
    (How a build splits its work changes its CPU time too: each process imports its
    libraries, and processes side by side slow one another.)"""
    cores = len(os.sched_getaffinity(0))
    for name, seconds in cpu.items():
        if seconds:
            listed = ", ".join(f"{s:.1f}" for s in seconds)
            print(f"CPU of a clean build, {name:8}: median {statistics.median(seconds):5.1f} s "
                  f"({listed}; user + system of the process tree)")
    parts = ", ".join(f"{part} {seconds:.1f}" for part, seconds in
                      sorted(last.cpu_by_part.items(), key=lambda item: -item[1]))
    print(f"  last current build by process (sampled): {parts}")
    baseline = statistics.median(times["baseline"]) if times["baseline"] else None

    def against_baseline(seconds: float) -> str:
        return f", {seconds / baseline:.2f}x the {commit} build's median wall time" \
            if baseline else ""

    spent = statistics.median(cpu["current"])
    print(f"  on {cores} cores a build with this much CPU cannot take less than "
          f"{spent / cores:.1f} s{against_baseline(spent / cores)}")
    # MkDocs alone: before the computations start, and after they end (the pages need
    # their results). The rest of the CPU time at best fills every core.
    alone = last.seconds - computations
    least = alone + (last.cpu_seconds - alone) / cores
    print(f"  with MkDocs alone before and after the computations, as in the last build "
          f"({alone:.1f} s), it cannot take less than {least:.1f} s"
          f"{against_baseline(least)}")


def _span(build: Build, begin: str, end: str) -> float:
    first = next((i for i, line in enumerate(build.lines) if begin in line), None)
    last = next((i for i, line in enumerate(build.lines) if end in line), None)
    return 0.0 if first is None or last is None else build.stamps[last] - build.stamps[first]


def _conversion_time(build: Build) -> float:
    """mkdocs-jupyter rendering the notebook pages, once per language: from each
    'Converting notebook' line to the next line MkDocs prints after it."""
    lines, stamps = build.lines, build.stamps
    total = 0.0
    for i, line in enumerate(lines):
        if "Converting notebook" in line and i + 1 < len(lines):
            following = next((j for j in range(i + 1, len(lines))
                              if "Kernel is running" not in lines[j]), i + 1)
            total += stamps[following] - stamps[i]
    return total


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def serve_rebuilds(project: Path) -> None:
    preview = Preview(project)
    try:
        preview.wait_for(r"Serving on", timeout=300)
        page = sorted((project / "docs").glob("attention.*.md"))[0]  # a translation
        # The first edit after start is not counted: it may still find work under way.
        prose = [preview.rebuild_after(lambda: _append(page, "\n")) for _ in range(4)]
        print(f"serve, prose edit rebuilt in all languages: {min(prose[1:]):.2f} s best, "
              f"{max(prose[1:]):.2f} s worst of {len(prose) - 1} (target <= 2.5 s; "
              f"first after start {prose[0]:.2f} s)")
        runs = preview.count("Running computations")
        source = project / "experiment" / "config.py"
        code = [preview.rebuild_after(lambda n=n: _append(source, f"\n# edit {n}\n"))
                for n in range(2)]
        print(f"serve, code edit of the experiment rebuilt in all languages: "
              f"{min(code):.1f} s best, {max(code):.1f} s worst of {len(code)}")
        print(f"  computations run: {runs} before the code edits (1 expected, at start), "
              f"{preview.count('Running computations') - runs} for {len(code)} code edits "
              "(each runs the experiment and the notebook again)")
    finally:
        preview.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="builds of each project")
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    parser.add_argument("--no-serve", action="store_true", help="the clean builds only (1.)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-site-") as scratch:
        current = copy_project(Path(scratch) / "current")
        baseline = export_commit(args.baseline, Path(scratch) / "baseline")
        compare_builds(current, baseline, args.baseline, args.pairs)
        if not args.no_serve:
            shutil.rmtree(current / "site", ignore_errors=True)
            serve_rebuilds(current)


if __name__ == "__main__":
    main()
