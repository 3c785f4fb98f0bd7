"""`mkdocs serve` as an author uses it: a prose edit never retrains, a code edit does,
a broken experiment shows as an error on the page, and the preview recovers by itself."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.project import copy_project

pytestmark = pytest.mark.slow

ERROR_TITLE = "The build could not compute this page"


class Preview:
    def __init__(self, project):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--livereload",
             "--dev-addr", f"127.0.0.1:{self.port}"],
            cwd=project, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.log: list[str] = []
        threading.Thread(target=lambda: self.log.extend(self.process.stdout), daemon=True).start()

    def wait_for(self, pattern: str, after: int = 0, timeout: float = 240) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(re.search(pattern, line) for line in self.log[after:]):
                return
            if any("An error happened during the rebuild" in line for line in self.log[after:]):
                break
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        pytest.fail(f"no {pattern!r} in the log:\n{''.join(self.log[-40:])}")

    def rebuild_after(self, edit) -> None:
        mark = len(self.log)
        edit()
        self.wait_for(r"Reloading browsers", after=mark)

    def page(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}") as response:
            return response.read().decode("utf-8")

    def count(self, text: str) -> int:
        return sum(text in line for line in self.log)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


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
