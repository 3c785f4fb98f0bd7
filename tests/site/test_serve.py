"""`mkdocs serve` as an author uses it: a prose edit never re-runs a computation or the
notebook (a notebook page is rendered again from the same execution), a code edit
re-runs what it changes, a broken computation or notebook cell shows as an error on
the pages (and no number, no output), and the preview recovers by itself.

Both tests share one preview of one copy of the project: each edits files of its own,
restores them, and counts what its own edits started."""

from __future__ import annotations

import re

import pytest

from tests.project import (
    LANGUAGES,
    OWN_BUILDS,
    TRANSLATIONS,
    Preview,
    copy_project,
    page_suffix,
    url_prefix,
)

pytestmark = [pytest.mark.slow, OWN_BUILDS]

ERROR_TITLE = "The build could not compute this page"
COMPUTING = "Running computations"
EXECUTING = "python -m companion"  # in the log line of a run that executes the notebook


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


def executions(preview) -> int:
    return sum(COMPUTING in line and EXECUTING in line for line in preview.log)


def test_the_first_build_computes_once_and_executes_the_notebook_once(preview):
    assert preview.count(COMPUTING) == 1
    assert executions(preview) == 1, "one execution for three languages"
    assert 'data-key="experiment.config.steps"' in preview.page("")
    # No Content-Security-Policy in a preview: MkDocs adds its live-reload script to
    # each page as it serves it, which the policy would refuse.
    assert "Content-Security-Policy" not in preview.page("")
    assert shows_output(preview.page(f"{url_prefix(TRANSLATIONS[-1])}notebook/"))


def test_a_rebuild_logs_a_few_short_lines_ending_with_its_summary(preview, project):
    page = project / "docs" / f"index{page_suffix(TRANSLATIONS[-1])}.md"
    prose = page.read_text()
    mark = len(preview.log)
    try:
        preview.rebuild_after(lambda: page.write_text(prose + "\nНове речення.\n"))
        preview.wait_for(r"built in [\d.]+ s; 0 page errors", after=mark)
        rebuild = preview.log[mark:]
    finally:
        preview.rebuild_after(lambda: page.write_text(prose))
    assert all(len(line.rstrip("\n")) <= 300 for line in preview.log), (
        max(preview.log, key=len)[:400])
    assert len(rebuild) <= 15, "".join(rebuild)


def test_preview_reruns_only_for_code_and_recovers_from_a_broken_run(preview, project):
    computed, executed = preview.count(COMPUTING), executions(preview)
    page = project / "docs" / f"index{page_suffix(TRANSLATIONS[0])}.md"
    prose = page.read_text()
    preview.rebuild_after(lambda: page.write_text(prose + "\nA new sentence.\n"))
    assert preview.count(COMPUTING) == computed, "a prose edit retrained"
    assert "A new sentence." in preview.page(url_prefix(TRANSLATIONS[0]))
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
    broken = preview.page(f"{url_prefix(TRANSLATIONS[-1])}feature-recovery/")
    assert ERROR_TITLE in broken and "broken on purpose" in broken
    assert 'class="value"' not in broken, "a failed run must not leave old numbers"

    preview.rebuild_after(lambda: main.write_text(working))
    recovered = preview.page(f"{url_prefix(TRANSLATIONS[-1])}feature-recovery/")
    assert ERROR_TITLE not in recovered and 'class="value"' in recovered
    runs = [line for line in preview.log[mark:] if COMPUTING in line]
    assert len(runs) == 2, "one run for the break, one for the repair"
    assert not any("python -m experiment" in line for line in runs), (
        "an edit of the examples ran the experiment again")
    assert executions(preview) == executed, "no notebook code changed"

    # A language record is part of the examples' source (their bank sentences and
    # figure words): its edit runs them again, and only them; its pages take its words.
    record = project / "locales" / f"{TRANSLATIONS[0]}.toml"
    words = record.read_text(encoding="utf-8")
    edited = words.replace('\nhead = "', '\nhead = "~', 1).replace('\nclose = "', '\nclose = "~', 1)
    assert edited.count("~") == words.count("~") + 2, "no [figures] head or close: update this"
    mark = len(preview.log)
    preview.rebuild_after(lambda: record.write_text(edited, encoding="utf-8"))
    assert '"close": "~' in preview.page(url_prefix(TRANSLATIONS[0]))
    preview.rebuild_after(lambda: record.write_text(words, encoding="utf-8"))
    runs = [line for line in preview.log[mark:] if COMPUTING in line]
    assert len(runs) == 2 and all("python -m examples" in line for line in runs), runs
    assert not any("python -m experiment" in line for line in runs), (
        "an edit of a language record ran the experiment again")


def shows_output(html: str) -> bool:
    """An element with mkdocs-jupyter's class of a cell's output (its CSS names it too)."""
    return re.search(r'class="[^"]*\bjp-OutputArea-output\b', html) is not None


def test_preview_executes_the_notebook_again_only_for_its_code(preview, project):
    executed = executions(preview)
    translated = project / "docs" / f"notebook{page_suffix(TRANSLATIONS[-1])}.md"
    notebook_page = f"{url_prefix(TRANSLATIONS[-1])}notebook/"
    prose = translated.read_text(encoding="utf-8")
    preview.rebuild_after(lambda: translated.write_text(
        prose.replace("\n## ", "\nA new sentence.\n\n## ", 1), encoding="utf-8"))
    assert executions(preview) == executed, "a prose edit re-executed the notebook"
    assert "A new sentence." in preview.page(notebook_page)
    assert shows_output(preview.page(notebook_page))
    preview.rebuild_after(lambda: translated.write_text(prose, encoding="utf-8"))

    cells = project / "companion" / "notebook.pct.py"
    code = cells.read_text(encoding="utf-8")
    mark = len(preview.log)
    preview.rebuild_after(lambda: cells.write_text(code.replace(
        '# %% name="train"\n', '# %% name="train"\nprint("bara kod")\n', 1), encoding="utf-8"))
    assert executions(preview) == executed + 1
    assert all("bara kod" in preview.page(f"{language}notebook/")
               for language in map(url_prefix, LANGUAGES)), "one execution fills every language"
    runs = [line for line in preview.log[mark:] if COMPUTING in line]
    assert len(runs) == 1 and "python -m experiment" not in runs[0], \
        "a notebook edit ran the experiment again"

    preview.rebuild_after(lambda: cells.write_text(code.replace(
        '# %% name="train"\n', '# %% name="train"\nraise RuntimeError("broken on purpose")\n',
        1), encoding="utf-8"))
    assert executions(preview) == executed + 2
    broken = preview.page(notebook_page)
    assert ERROR_TITLE in broken and "broken on purpose" in broken and "train" in broken
    assert not shows_output(broken), "no output of a failed execution"

    preview.rebuild_after(lambda: cells.write_text(code, encoding="utf-8"))
    recovered = preview.page(f"{url_prefix(TRANSLATIONS[0])}notebook/")
    assert ERROR_TITLE not in recovered and shows_output(recovered)
    assert executions(preview) == executed + 3


def test_preview_runs_every_computation_again_after_an_edit_of_provenance(preview, project):
    """provenance/ is in every computation's source hash, and so watched with them. Last
    in this file, and not undone (the copy goes with the test): undoing would run both
    computations once more for nothing."""
    before = re.search(r'data-key="experiment.source_hash"[^>]*>(\w+)<', preview.page(""))[1]
    shared = project / "provenance" / "source.py"
    mark = len(preview.log)
    preview.rebuild_after(lambda: shared.write_text(
        shared.read_text(encoding="utf-8") + "\n# an edit of the shared code\n",
        encoding="utf-8"))
    runs = [line for line in preview.log[mark:] if COMPUTING in line]
    assert len(runs) == 1 and all(f"python -m {package}" in runs[0]
                                  for package in ("experiment", "examples", "companion")), runs
    after = re.search(r'data-key="experiment.source_hash"[^>]*>(\w+)<', preview.page(""))[1]
    assert after != before, "the page shows the old source hash"
