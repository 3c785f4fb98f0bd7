"""`python -m experiment`: determinism, error paths and atomic writes."""

import json
import os
import subprocess
import sys

import pytest

from experiment.figures import FIGURES
from provenance.files import atomic_write
from tests.experiment.cli import run_cli
from tests.project import ROOT

SHORT = ("--steps", "30", "--seeds", "0", "2")


def without_timing(path):
    content = json.loads(path.read_text())
    del content["timing"]
    return content


def test_two_runs_are_identical_outside_timing(tmp_path):
    outs = [tmp_path / "a", tmp_path / "b"]
    # Two fresh interpreters at once: determinism must not depend on process state.
    runs = [subprocess.Popen([sys.executable, "-m", "experiment", "--out", str(out), *SHORT],
                             cwd=ROOT, stderr=subprocess.PIPE, text=True) for out in outs]
    for run in runs:
        assert run.wait() == 0, run.stderr.read()
        run.stderr.close()
    a, b = (out / "results.json" for out in outs)
    assert without_timing(a) == without_timing(b)
    head_a, head_b = (p.read_text().split('"timing"')[0] for p in (a, b))
    assert head_a == head_b  # byte-identical text up to the timing object
    for name in FIGURES:
        for suffix in (".svg", ".png"):
            first = (outs[0] / (name + suffix)).read_bytes()
            assert first == (outs[1] / (name + suffix)).read_bytes(), name + suffix
    assert without_timing(a)["config"]["steps"] == 30


def test_no_figures_writes_results_only(tmp_path):
    done = run_cli("--out", str(tmp_path), "--steps", "5", "--seeds", "4", "--no-figures")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json"]


@pytest.mark.parametrize("args", [
    ("--steps", "-1"),
    ("--steps", "0"),
    ("--steps", "many"),
    ("--seeds", "0", "0"),
    ("--seeds", "-3"),
    ("--seeds",),
    ("--colour", "red"),
])
def test_bad_arguments_exit_non_zero_with_a_message(tmp_path, args):
    out = tmp_path / "out"
    done = run_cli("--out", str(out), *args)
    assert done.returncode == 2
    assert "error:" in done.stderr and "Traceback" not in done.stderr
    assert not (out / "results.json").exists()


def test_missing_out_is_an_error():
    done = run_cli()
    assert done.returncode == 2 and "--out" in done.stderr


@pytest.mark.parametrize("where", ["file", "under_file"])
def test_unwritable_output_dir_exits_with_one_line(tmp_path, where):
    regular_file = tmp_path / "plain.txt"
    regular_file.write_text("not a folder")
    out = regular_file if where == "file" else regular_file / "out"
    done = run_cli("--out", str(out), "--steps", "5")
    assert done.returncode == 1
    assert done.stderr.startswith("error: cannot write to ")
    assert len(done.stderr.strip().splitlines()) == 1
    assert regular_file.read_text() == "not a folder"


def test_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "results.json"
    target.write_text("old")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write(target, b"new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_importing_the_package_does_no_work(tmp_path):
    code = ("import experiment, experiment.__main__, experiment.config, experiment.data, "
            "experiment.model, experiment.train, experiment.measure, experiment.results, "
            "experiment.figures")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
    assert list(tmp_path.iterdir()) == []
