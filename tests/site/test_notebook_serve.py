"""The companion notebook under `mkdocs serve`: executed once for all languages, never
again for a prose edit, again for a code edit (only for the language whose code
changed), and a failing cell shows on that language's page until it is fixed."""

from __future__ import annotations

import re

import pytest

from tests.project import Preview, copy_project
from tests.site.test_serve import ERROR_TITLE

pytestmark = pytest.mark.slow

EXECUTING = "Executing the notebook"
CONVERTING = "Converting notebook"  # mkdocs-jupyter renders a page (not from its cache)


def shows_output(html: str) -> bool:
    """An element with mkdocs-jupyter's class of a cell's output (its CSS names it too)."""
    return re.search(r'class="[^"]*\bjp-OutputArea-output\b', html) is not None


def test_preview_executes_the_notebook_once_and_again_only_for_its_code(tmp_path):
    project = copy_project(tmp_path / "project")
    docs = project / "docs"
    preview = Preview(project)
    try:
        preview.wait_for(r"Serving on")
        assert preview.count(EXECUTING) == 1, "one execution for three languages"
        shown = preview.page("uk/notebook/")
        assert shows_output(shown) and ERROR_TITLE not in shown

        uk = docs / "notebook.uk.md"
        working = uk.read_text(encoding="utf-8")
        converted = preview.count(CONVERTING)
        preview.rebuild_after(lambda: uk.write_text(
            working.replace("\n## ", "\nНове речення.\n\n## ", 1), encoding="utf-8"))
        assert preview.count(EXECUTING) == 1, "a prose edit re-executed the notebook"
        assert "Нове речення." in preview.page("uk/notebook/")
        assert preview.count(CONVERTING) == converted + 1, "only the edited page is rendered anew"

        sv = docs / "notebook.sv.md"
        preview.rebuild_after(lambda: sv.write_text(sv.read_text(encoding="utf-8").replace(
            "```python\n", "```python\nprint('bara svenska')\n", 1), encoding="utf-8"))
        assert preview.count(EXECUTING) == 2
        assert "bara svenska" in preview.page("sv/notebook/")
        assert "bara svenska" not in preview.page("uk/notebook/")

        preview.rebuild_after(lambda: uk.write_text(working.replace(
            "```python\n", "```python\nraise RuntimeError('broken on purpose')\n", 1),
            encoding="utf-8"))
        assert preview.count(EXECUTING) == 3
        broken = preview.page("uk/notebook/")
        assert ERROR_TITLE in broken and "broken on purpose" in broken
        assert not shows_output(broken), "no output of a failed execution"
        assert ERROR_TITLE not in preview.page("notebook/")

        preview.rebuild_after(lambda: uk.write_text(working, encoding="utf-8"))
        recovered = preview.page("uk/notebook/")
        assert ERROR_TITLE not in recovered and shows_output(recovered)
        assert preview.count(EXECUTING) == 3, "the shared execution is still there"
    finally:
        preview.stop()
