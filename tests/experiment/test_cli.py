"""`python -m experiment`: determinism, error paths, and what a run leaves in its folder."""

import json
import os
import subprocess
import sys

import pytest

from atomicfile import atomic_write
from experiment import results as results_module
from experiment.__main__ import main
from experiment.figures import FIGURES, file_names
from tests.experiment.cli import run_cli
from tests.project import ROOT

SHORT = ("--steps", "30", "--seeds", "0", "2")


def without_timing(path):
    content = json.loads(path.read_text())
    del content["timing"]
    return content


def figure_files():
    return [file for name in FIGURES for file in file_names(name)]


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
    for name in figure_files():
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    assert without_timing(a)["config"]["steps"] == 30


def test_no_figures_writes_results_only(tmp_path):
    done = run_cli("--out", str(tmp_path), "--steps", "5", "--seeds", "4", "--no-figures")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json"]
    assert json.loads((tmp_path / "results.json").read_text())["files"] == ["results.json"]


def earlier_run(folder, listed=("old_figure.svg",)):
    """A folder as an earlier run and its user left it: files an earlier results.json
    lists, and a file of the user's own."""
    folder.mkdir(exist_ok=True)
    for name in listed:
        (folder / name).write_text("earlier")
    (folder / "results.json").write_text(json.dumps({"files": ["results.json", *listed,
                                                                "../outside.txt"]}))
    (folder.parent / "outside.txt").write_text("not the experiment's")
    (folder / "notes.txt").write_text("mine")


def test_a_run_into_an_earlier_runs_folder_leaves_only_its_own_files(tmp_path):
    out = tmp_path / "out"
    earlier_run(out)
    done = run_cli("--out", str(out), "--steps", "3", "--seeds", "1")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted([*figure_files(), "results.json",
                                                            "notes.txt"])
    assert (out / "notes.txt").read_text() == "mine"  # not the experiment's: kept
    assert (tmp_path / "outside.txt").exists()  # a path, not a name: never followed


def test_no_figures_leaves_no_earlier_figures_next_to_the_new_results(tmp_path):
    out = tmp_path / "out"
    earlier_run(out, listed=figure_files())
    done = run_cli("--out", str(out), "--steps", "3", "--seeds", "1", "--no-figures")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", "results.json"]


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"),
                                     RuntimeError("training broke")])
def test_a_failed_run_leaves_the_earlier_run_as_it_was(tmp_path, monkeypatch, failure):
    out = tmp_path / "out"
    earlier_run(out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def broken(*args, **kwargs):
        raise failure

    monkeypatch.setattr(results_module, "write_results", broken)
    if isinstance(failure, OSError):
        assert main(["--out", str(out), "--steps", "2", "--seeds", "0", "--no-figures"]) == 1
    else:
        with pytest.raises(RuntimeError):
            main(["--out", str(out), "--steps", "2", "--seeds", "0", "--no-figures"])
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # no staging folder either


@pytest.mark.parametrize("args, message", [
    (("--steps", "-1"), "steps must be at least 1"),
    (("--steps", "0"), "steps must be at least 1"),
    (("--steps", "many"), "invalid int value"),
    (("--seeds", "0", "0"), "each seed at most once"),
    (("--seeds", "-3"), "seeds must be non-negative"),
    (("--seeds",), "expected at least one argument"),
    (("--colour", "red"), "unrecognized arguments"),
])
def test_bad_arguments_exit_non_zero_with_a_message(tmp_path, args, message):
    out = tmp_path / "out"
    done = run_cli("--out", str(out), *args)
    assert done.returncode == 2
    assert "error:" in done.stderr and message in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


def test_argument_errors_come_before_importing_torch_or_matplotlib(tmp_path):
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "experiment", "--out",
                           str(tmp_path), "--steps", "0"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 2
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "experiment.config" in imported and not {"torch", "matplotlib"} & imported


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
    modules = ["experiment", "experiment.__main__", "experiment.config", "experiment.data",
               "experiment.model", "experiment.train", "experiment.interventions",
               "experiment.measure", "experiment.variants", "experiment.results",
               "experiment.outputs", "experiment.painter", "experiment.figures"]
    code = f"import {', '.join(modules)}"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
    assert list(tmp_path.iterdir()) == []


def test_the_painter_never_imports_matplotlib_into_the_training_process(tmp_path):
    # The list of figures comes from a worker: in the process that trains, matplotlib's
    # import would come on top of torch's, before the first variant's training.
    code = ("import sys; from pathlib import Path; from experiment.painter import Painter\n"
            f"with Painter(Path({str(tmp_path)!r})) as painter:\n"
            "    painter.draw('no such variant', {})\n"
            "    files = painter.files()\n"
            "print(painter.names.result()['main'], files, 'matplotlib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(" [] ")[1].strip() == "False"
    assert "'query_response'" in done.stdout  # the worker named the main variant's figures
