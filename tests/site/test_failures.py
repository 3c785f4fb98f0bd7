"""A run that no longer supports the text cannot be published: the build stops and says why."""

from __future__ import annotations

import re

import pytest

from tests.project import OWN_BUILDS, copy_project, mkdocs_build

pytestmark = [pytest.mark.slow, OWN_BUILDS]


def build_with_change(tmp_path, path: str, pattern: str, replacement: str,
                      also: tuple[str, ...] = ()) -> str:
    """Build a copy of the project with one edit in PATH (and the same in each of ALSO);
    the build must fail and publish nothing. Returns what it printed on stderr."""
    project = copy_project(tmp_path / "project")
    for edited in (path, *also):
        source = project / edited
        text = source.read_text(encoding="utf-8")
        changed, count = re.subn(pattern, replacement, text, count=1)
        assert count == 1, f"{edited} no longer matches {pattern!r}: update this test"
        source.write_text(changed, encoding="utf-8")
    site = tmp_path / "site"
    done = mkdocs_build(project, site)
    assert done.returncode != 0
    left = list(site.rglob("*.html")) if site.exists() else []
    assert not left, f"a failed build left pages behind: {left[:3]}"
    return done.stderr


def test_a_crippled_experiment_fails_the_build_naming_claim_and_page(tmp_path):
    # Twenty training steps instead of the configured number: the model is far
    # from the teacher, so the sentences about its precision are false.
    stderr = build_with_change(tmp_path, "experiment/config.py", r"(steps: int = )\d+", r"\g<1>20")
    assert re.search(r"feature-recovery(\.\w\w)?\.md: claim '\w+' is not supported by this run",
                     stderr), stderr[-3000:]


def test_a_failing_experiment_fails_the_build_with_its_error(tmp_path):
    stderr = build_with_change(tmp_path, "experiment/__main__.py", r"\ndef main\(",
                               "\nraise RuntimeError('broken on purpose')\n\n\ndef main(")
    assert "python -m experiment` failed" in stderr
    assert "broken on purpose" in stderr


def test_an_unknown_result_name_fails_the_build_naming_page_and_name(tmp_path):
    # A typo in a translation only: the other languages build first and must
    # not be left published either.
    stderr = build_with_change(tmp_path, "docs/index.uk.md", r"\n## ",
                               "\nЗ опискою: {{ num experiment.seeds.0.heldout_msee sci2 }}.\n\n## ")
    assert "index.uk.md" in stderr and "experiment.seeds.0.heldout_msee" in stderr
