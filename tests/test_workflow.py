"""The deploy workflow is one GitHub accepts, and it tests what a newcomer tests: the
README's test command, on the Python that pyproject.toml requires and the Makefile
finds. GitHub's workflow schema comes bundled with check-jsonschema: this runs offline
(that check-jsonschema rejects a broken workflow is its own test suite's business)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

import yaml
from packaging.specifiers import SpecifierSet

from tests.project import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "deploy.yml"


def check_workflow(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema",
                           "vendor.github-workflows", str(path)],
                          capture_output=True, text=True, check=False)


def readme_test_command() -> str:
    """The command the README's opening block gives for running the tests."""
    block = re.search(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"),
                      re.DOTALL)
    commands = [line.split("#")[0].strip() for line in block[1].splitlines()]
    return next(command for command in commands if command.startswith("make test"))


def steps() -> list[dict]:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def test_the_workflow_matches_githubs_schema():
    done = check_workflow(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_workflow_runs_the_readmes_test_command():
    assert readme_test_command() in [step.get("run") for step in steps()]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == readme_test_command()


def test_the_workflow_tests_on_the_python_the_project_requires():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    versions = [step["with"]["python-version"] for step in steps()
                if step.get("uses", "").startswith("actions/setup-python")]
    assert versions, "the workflow does not choose its Python"
    required = SpecifierSet(project["requires-python"])
    for version in versions:
        assert f"{version}.0" in required, version
    # The Makefile looks for the same Python on a newcomer's machine.
    major, minor = re.search(r"version_info\[:2\] != \((\d+), (\d+)\)",
                             (ROOT / "Makefile").read_text(encoding="utf-8")).groups()
    assert f"{major}.{minor}.0" in required
