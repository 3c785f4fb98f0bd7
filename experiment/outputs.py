"""What a run leaves in its --out folder: only what it wrote, or the earlier run intact.

A run writes into a hidden staging folder inside OUT. Only when every file is
written does it replace the earlier run: it removes the earlier results.json
first, then the earlier run's other files, moves its own files in, and
results.json last. So a results.json in OUT always sits next to the figures of
its own run: a run that fails before the swap leaves the earlier run as it
was, and one that fails during it leaves no results.json at all. Files that no
run of the experiment wrote are never touched.
"""

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

RESULTS = "results.json"
OUTPUT_SUFFIXES = (".json", ".svg", ".png")


def earlier_outputs(out: Path) -> set[str]:
    """Names of the files in OUT that an earlier run wrote: its results.json and the
    files it lists (plain names of the kinds of file a run writes)."""
    names = {RESULTS}
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        listed = json.loads((out / RESULTS).read_text(encoding="utf-8"))["files"]
        names |= {name for name in listed if isinstance(name, str)
                  and name == Path(name).name and name.endswith(OUTPUT_SUFFIXES)}
    return {name for name in names if (out / name).is_file()}


@contextlib.contextmanager
def staging(out: Path) -> Iterator[Path]:
    """A new hidden folder inside OUT for this run's files, removed afterwards."""
    folder = Path(tempfile.mkdtemp(dir=out, prefix=".experiment-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def publish(staged: Path, out: Path, files: list[str]) -> None:
    """Replace the earlier run in OUT by FILES from STAGED (same file system, so each
    move is an atomic rename)."""
    earlier = earlier_outputs(out)
    (out / RESULTS).unlink(missing_ok=True)
    for name in sorted(earlier - set(files)):
        (out / name).unlink(missing_ok=True)
    for name in sorted(files, key=lambda name: name == RESULTS):  # results.json last
        os.replace(staged / name, out / name)
