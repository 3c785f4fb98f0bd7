"""`mkdocs serve` as an author uses it: a prose edit never retrains, a code edit does,
a broken experiment shows as an error on the page, and the preview recovers by itself."""

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

        main = project / "experiment" / "__main__.py"
        working = main.read_text()
        preview.rebuild_after(lambda: main.write_text(
            working.replace("\ndef main(", "\nraise RuntimeError('broken on purpose')\n\n\n"
                            "def main(", 1)))
        broken = preview.page("uk/feature-recovery/")
        assert ERROR_TITLE in broken and "broken on purpose" in broken
        assert 'class="value"' not in broken, "a failed run must not leave old numbers"

        preview.rebuild_after(lambda: main.write_text(working))
        recovered = preview.page("uk/feature-recovery/")
        assert ERROR_TITLE not in recovered and 'class="value"' in recovered
        assert preview.count("Running computations") == 3
    finally:
        preview.stop()
