"""Running `python -m experiment` as a user does, in a fresh interpreter."""

import subprocess

from tests.project import run_computation


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """`python -m experiment ARGS`; returns the finished process with its output."""
    return run_computation("experiment", *args)
