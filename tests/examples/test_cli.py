"""`python -m examples`: what it writes, byte for byte the same every time, and
nothing half-written when a write fails."""

from __future__ import annotations

import torch

import examples.__main__ as cli
from examples.figures import file_names
from tests.project import run_computation

FIGURE_FILES = sorted(file_names())


def test_it_writes_the_examples_and_every_figure_in_both_schemes(examples_dir):
    written = sorted(p.name for p in examples_dir.iterdir())
    assert written == sorted(["examples.json", *FIGURE_FILES])


def test_a_second_run_into_a_new_folder_is_identical_byte_for_byte(examples_dir, tmp_path):
    # Another fresh interpreter, later, into a folder it creates: nothing may depend on
    # process state or timing.
    out = tmp_path / "new" / "folder"
    done = run_computation("examples", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in examples_dir.iterdir())
    for name in ["examples.json", *FIGURE_FILES]:
        assert (out / name).read_bytes() == (examples_dir / name).read_bytes(), name


def test_an_unwritable_folder_is_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = run_computation("examples", "--out", str(blocker / "out"))
    assert done.returncode == 1
    assert done.stderr.startswith("python -m examples: cannot write to ")
    assert "Traceback" not in done.stderr


def test_a_missing_out_argument_is_a_usage_error():
    done = run_computation("examples")
    assert done.returncode == 2 and "--out" in done.stderr


def test_every_file_goes_through_the_atomic_write(tmp_path, monkeypatch):
    written = []
    real = cli.atomic_write

    def recording(path, content):
        written.append(path.name)
        real(path, content)

    monkeypatch.setattr(cli, "atomic_write", recording)
    monkeypatch.setattr("drawing.files.atomic_write", recording)
    assert cli.main(["--out", str(tmp_path)]) == 0
    assert sorted(written) == sorted(["examples.json", *FIGURE_FILES])
    assert written[-1] == "examples.json"  # last: its presence means the figures are there


def test_a_failed_write_leaves_no_results_and_no_temporary_file(tmp_path, monkeypatch, capsys):
    def full_disk(path, content):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("drawing.files.atomic_write", full_disk)
    assert cli.main(["--out", str(tmp_path)]) == 1
    assert list(tmp_path.iterdir()) == []
    assert "No space left on device" in capsys.readouterr().err


def test_the_callers_thread_count_is_restored():
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        cli.compute_all()
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
