"""A build's scratch folders: the next build removes those of a killed build, never
those of a build that still runs."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from sitebuild import scratch


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def plant(temp: Path, pid: int, kind: str) -> Path:
    folder = temp / f"{scratch.PREFIX}{pid}-{kind}-abc123"
    folder.mkdir()
    (folder / "results.json").write_text("{}", encoding="utf-8")
    return folder


def test_the_folders_of_a_dead_build_go_and_those_of_a_live_one_stay(tmp_path):
    killed = plant(tmp_path, dead_pid(), "experiment")
    running = plant(tmp_path, os.getpid(), "site")
    unrelated = tmp_path / "attention-site-notes"  # no owner in its name: not ours to judge
    unrelated.mkdir()
    assert scratch.remove_leftovers(tmp_path) == [killed]
    assert not killed.exists()
    assert (running / "results.json").is_file() and unrelated.is_dir()


def test_a_scratch_folder_is_in_the_system_temp_folder_and_names_its_owner():
    folder = scratch.folder("site")
    try:
        assert folder.parent == Path(tempfile.gettempdir())
        assert folder.name.startswith(f"{scratch.PREFIX}{os.getpid()}-site-")
        assert folder.is_dir() and not any(folder.iterdir())
        assert folder not in scratch.remove_leftovers()  # its owner, this process, runs
        assert folder.is_dir()
    finally:
        folder.rmdir()
