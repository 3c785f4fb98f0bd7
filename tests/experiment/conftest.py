"""One full default run of `python -m experiment`, shared by every test that needs it."""

import json
from pathlib import Path

import pytest

from tests.experiment.cli import run_cli


@pytest.fixture(scope="session")
def default_run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("default-run")
    done = run_cli("--out", str(out))
    if done.returncode != 0:
        pytest.fail(f"python -m experiment failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return out


@pytest.fixture(scope="session")
def default_run(default_run_dir) -> dict:
    return json.loads((default_run_dir / "results.json").read_text())
