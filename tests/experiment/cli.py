"""Running `python -m experiment` as a user does, in a fresh interpreter."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`python -m experiment ARGS`; returns the finished process with its output."""
    return subprocess.run([sys.executable, "-m", "experiment", *args], cwd=cwd,
                          capture_output=True, text=True, check=False)
