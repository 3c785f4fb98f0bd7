"""`mkdocs serve` as an author uses it: a prose edit never re-runs a computation or the
notebook, a code edit does (the notebook only for the language whose code changed), a
broken computation or notebook cell shows as an error on the pages (and no number, no
output), and the preview recovers by itself.

Both tests share one preview of one copy of the project: each edits files of its own,
restores them, and counts what its own edits started."""

from __future__ import annotations

import re

import pytest

from tests.project import OWN_BUILDS, Preview, copy_project

pytestmark = [pytest.mark.slow, OWN_BUILDS]

ERROR_TITLE = "The build could not compute this page"
COMPUTING = "Running computations"
EXECUTING = "Executing the notebook"
CONVERTING = "Converting notebook"  # mkdocs-jupyter renders a page (not from its cache)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return copy_project(tmp_path_factory.mktemp("served"))


@pytest.fixture(scope="module")
def preview(project):
    served = Preview(project)
    try:
        served.wait_for(r"Serving on")
        yield served
    finally:
        served.stop()


def test_the_first_build_computes_once_and_executes_the_notebook_once(preview):
    assert preview.count(COMPUTING) == 1
    assert preview.count(EXECUTING) == 1, "one execution for three languages"
    assert 'data-key="experiment.config.steps"' in preview.page("")
    # No Content-Security-Policy in a preview: MkDocs adds its live-reload script to
    # each page as it serves it, which the policy would refuse.
    assert "Content-Security-Policy" not in preview.page("")
    assert shows_output(preview.page("uk/notebook/"))


def test_preview_reruns_only_for_code_and_recovers_from_a_broken_run(preview, project):
    computed, executed = preview.count(COMPUTING), preview.count(EXECUTING)
    page = project / "docs" / "index.sv.md"
    prose = page.read_text()
    preview.rebuild_after(lambda: page.write_text(prose + "\nNy mening.\n"))
    assert preview.count(COMPUTING) == computed, "a prose edit retrained"
    assert "Ny mening." in preview.page("sv/")
    preview.rebuild_after(lambda: page.write_text(prose))

    # A code edit: the examples compute in a second where the experiment trains for
    # many, and RunCache treats every computation alike (tests/sitebuild/test_runs.py).
    main = project / "examples" / "__main__.py"
    working = main.read_text()
    broken_code = working.replace("\ndef main(", "\nraise RuntimeError('broken on purpose')\n\n\n"
                                  "def main(", 1)
    assert broken_code != working, "examples/__main__.py has no main(): update this test"
    mark = len(preview.log)
    preview.rebuild_after(lambda: main.write_text(broken_code))
    broken = preview.page("uk/feature-recovery/")
    assert ERROR_TITLE in broken and "broken on purpose" in broken
    assert 'class="value"' not in broken, "a failed run must not leave old numbers"

    preview.rebuild_after(lambda: main.write_text(working))
    recovered = preview.page("uk/feature-recovery/")
    assert ERROR_TITLE not in recovered and 'class="value"' in recovered
    runs = [line for line in preview.log[mark:] if COMPUTING in line]
    assert len(runs) == 2, "one run for the break, one for the repair"
    assert not any("python -m experiment" in line for line in runs), (
        "an edit of the examples ran the experiment again")
    assert preview.count(EXECUTING) == executed, "no notebook code changed"


def shows_output(html: str) -> bool:
    """An element with mkdocs-jupyter's class of a cell's output (its CSS names it too)."""
    return re.search(r'class="[^"]*\bjp-OutputArea-output\b', html) is not None


def test_preview_executes_the_notebook_again_only_for_its_code(preview, project):
    docs = project / "docs"
    executed = preview.count(EXECUTING)
    uk = docs / "notebook.uk.md"
    working = uk.read_text(encoding="utf-8")
    converted = preview.count(CONVERTING)
    preview.rebuild_after(lambda: uk.write_text(
        working.replace("\n## ", "\nНове речення.\n\n## ", 1), encoding="utf-8"))
    assert preview.count(EXECUTING) == executed, "a prose edit re-executed the notebook"
    assert "Нове речення." in preview.page("uk/notebook/")
    assert preview.count(CONVERTING) == converted + 1, "only the edited page is rendered anew"

    sv = docs / "notebook.sv.md"
    swedish = sv.read_text(encoding="utf-8")
    preview.rebuild_after(lambda: sv.write_text(swedish.replace(
        "```python\n", "```python\nprint('bara svenska')\n", 1), encoding="utf-8"))
    assert preview.count(EXECUTING) == executed + 1
    assert "bara svenska" in preview.page("sv/notebook/")
    assert "bara svenska" not in preview.page("uk/notebook/")

    preview.rebuild_after(lambda: uk.write_text(working.replace(
        "```python\n", "```python\nraise RuntimeError('broken on purpose')\n", 1),
        encoding="utf-8"))
    assert preview.count(EXECUTING) == executed + 2
    broken = preview.page("uk/notebook/")
    assert ERROR_TITLE in broken and "broken on purpose" in broken
    assert not shows_output(broken), "no output of a failed execution"
    assert ERROR_TITLE not in preview.page("notebook/")

    preview.rebuild_after(lambda: uk.write_text(working, encoding="utf-8"))
    recovered = preview.page("uk/notebook/")
    assert ERROR_TITLE not in recovered and shows_output(recovered)
    assert preview.count(EXECUTING) == executed + 2, "the shared execution is still there"
    preview.rebuild_after(lambda: sv.write_text(swedish, encoding="utf-8"))
    assert preview.count(EXECUTING) == executed + 2, "Swedish code as before: its execution"


def test_preview_runs_every_computation_again_after_an_edit_of_provenance(preview, project):
    """provenance/ is in both computations' source hash, and so watched with them. Last
    in this file, and not undone (the copy goes with the test): undoing would run both
    computations once more for nothing."""
    before = re.search(r'data-key="experiment.source_hash"[^>]*>(\w+)<', preview.page(""))[1]
    shared = project / "provenance" / "files.py"
    mark = len(preview.log)
    preview.rebuild_after(lambda: shared.write_text(
        shared.read_text(encoding="utf-8") + "\n# an edit of the shared code\n",
        encoding="utf-8"))
    runs = [line for line in preview.log[mark:] if COMPUTING in line]
    assert len(runs) == 1 and "python -m experiment" in runs[0] \
        and "python -m examples" in runs[0], runs
    after = re.search(r'data-key="experiment.source_hash"[^>]*>(\w+)<', preview.page(""))[1]
    assert after != before, "the page shows the old source hash"
