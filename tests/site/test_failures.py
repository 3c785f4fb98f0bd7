"""A run that no longer supports the text cannot be published: the build stops and says why."""

from __future__ import annotations

import re

import pytest

from tests.conftest import copy_project, mkdocs_build

pytestmark = pytest.mark.slow


def _cripple(project, pattern: str, replacement: str, path: str) -> None:
    source = project / path
    text = source.read_text(encoding="utf-8")
    crippled, count = re.subn(pattern, replacement, text, count=1)
    assert count == 1, f"{path} no longer matches {pattern!r}: update this test"
    source.write_text(crippled, encoding="utf-8")


def test_a_crippled_experiment_fails_the_build_naming_claim_and_page(tmp_path):
    project = copy_project(tmp_path / "project")
    # Twenty training steps instead of the configured number: the model is far
    # from the teacher, so the sentences about its precision are false.
    _cripple(project, r"(steps: int = )\d+", r"\g<1>20", "experiment/config.py")
    site = tmp_path / "site"
    done = mkdocs_build(project, site)
    assert done.returncode != 0
    assert re.search(r"feature-recovery(\.\w\w)?\.md: claim '\w+' is not supported by this run",
                     done.stderr), done.stderr[-3000:]
    assert not (site / "feature-recovery" / "index.html").exists()
    assert not (site / "index.html").exists()


def test_a_failing_experiment_fails_the_build_with_its_error(tmp_path):
    project = copy_project(tmp_path / "project")
    _cripple(project, r"\ndef main\(", "\nraise RuntimeError('broken on purpose')\n\n\ndef main(",
             "experiment/__main__.py")
    site = tmp_path / "site"
    done = mkdocs_build(project, site)
    assert done.returncode != 0
    assert "python -m experiment` failed" in done.stderr
    assert "broken on purpose" in done.stderr
    assert not (site / "index.html").exists()


def test_an_unknown_result_name_fails_the_build_naming_page_and_name(tmp_path):
    project = copy_project(tmp_path / "project")
    # A typo in a translation only: the other languages build first and must
    # not be left published either.
    _cripple(project, r"\n## ", "\nЗ опискою: {{ num run.seeds.0.heldout_msee sci2 }}.\n\n## ",
             "docs/index.uk.md")
    site = tmp_path / "site"
    done = mkdocs_build(project, site)
    assert done.returncode != 0
    assert "index.uk.md" in done.stderr and "run.seeds.0.heldout_msee" in done.stderr
    assert not (site / "index.html").exists()
