"""`mkdocs serve` as an author uses it: a prose edit never re-runs a computation, a code
edit does, a broken computation shows as an error on the pages (and no number), and the
preview recovers by itself."""

from __future__ import annotations

import pytest

from tests.project import Preview, copy_project

pytestmark = pytest.mark.slow

ERROR_TITLE = "The build could not compute this page"


def test_preview_reruns_only_for_code_and_recovers_from_a_broken_run(tmp_path):
    project = copy_project(tmp_path / "project")
    preview = Preview(project)
    try:
        preview.wait_for(r"Serving on")
        assert preview.count("Running computations") == 1
        assert 'data-key="experiment.config.steps"' in preview.page("")

        page = project / "docs" / "index.sv.md"
        preview.rebuild_after(lambda: page.write_text(page.read_text() + "\nNy mening.\n"))
        assert preview.count("Running computations") == 1, "a prose edit retrained"
        assert "Ny mening." in preview.page("sv/")

        # A code edit: the examples compute in a second where the experiment trains for
        # many, and RunCache treats every computation alike (tests/sitebuild/test_runs.py).
        main = project / "examples" / "__main__.py"
        working = main.read_text()
        broken_code = working.replace("\ndef main(", "\nraise RuntimeError('broken on purpose')\n\n\n"
                                      "def main(", 1)
        assert broken_code != working, "examples/__main__.py has no main(): update this test"
        preview.rebuild_after(lambda: main.write_text(broken_code))
        broken = preview.page("uk/feature-recovery/")
        assert ERROR_TITLE in broken and "broken on purpose" in broken
        assert 'class="value"' not in broken, "a failed run must not leave old numbers"

        preview.rebuild_after(lambda: main.write_text(working))
        recovered = preview.page("uk/feature-recovery/")
        assert ERROR_TITLE not in recovered and 'class="value"' in recovered
        runs = [line for line in preview.log if "Running computations" in line]
        assert len(runs) == 3
        assert not any("python -m experiment" in line for line in runs[1:]), (
            "an edit of the examples ran the experiment again")
    finally:
        preview.stop()
