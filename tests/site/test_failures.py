"""A run that no longer supports the text cannot be published: the build stops and says why.

A failed computation (the experiment, or a notebook cell) stops the build at once.
Whatever is wrong with the pages is collected over every page of every language,
and the build fails naming all of it: one build of a copy with four faults planted
in different places shows each of them, and publishes nothing. Either build leaves
the site folder it was given, which holds a previous site and a file of someone
else's, byte for byte as it was."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest

from sitebuild import scratch
from tests.project import (
    LANGUAGES,
    OWN_BUILDS,
    TRANSLATIONS,
    copy_project,
    mkdocs_build,
    page_suffix,
)
from tests.sitebuild.test_scratch import dead_pid

pytestmark = [pytest.mark.slow, OWN_BUILDS]

FAULTS = [  # path, pattern, replacement: each its own failure, in pages of different kinds
    # Twenty training steps instead of the configured number: the model is far from
    # the teacher, so the sentences about its precision are false.
    ("experiment/config.py", r"(steps: int = )\d+", r"\g<1>20"),
    # A planted parameter: the worked example's key is no longer ln 3.
    ("examples/two_positions.py", r"\(math\.log\(3\),\)", "(math.log(2.5),)"),
    # A typo in a translation only: it is built after the default language's pages.
    (f"docs/index.{TRANSLATIONS[-1]}.md", r"\n## ",
     "\nA typo: {{ num experiment.seeds.0.heldout_msee sci2 }}.\n\n## "),
    # A malformed shortcode, in another translation: a vector of a single number.
    (f"docs/index.{TRANSLATIONS[0]}.md", r"\n## ",
     "\nMalformed: {{ vec experiment.config.steps int }}.\n\n## "),
]


def edit(project: Path, path: str, pattern: str, replacement: str) -> None:
    source = project / path
    changed, count = re.subn(pattern, replacement, source.read_text(encoding="utf-8"), count=1)
    assert count == 1, f"{path} no longer matches {pattern!r}: update this test"
    source.write_text(changed, encoding="utf-8")


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def failed_build(tmp_path: Path, faults) -> str:
    """Build a copy of the project with FAULTS into a folder that holds a previous
    site and an unrelated file; the build must fail and leave both byte-identical.
    Returns what it printed on stderr."""
    project = copy_project(tmp_path / "project")
    for fault in faults:
        edit(project, *fault)
    site = tmp_path / "site"
    (site / TRANSLATIONS[-1]).mkdir(parents=True)
    (site / "index.html").write_text("<p>the previous site</p>", encoding="utf-8")
    (site / TRANSLATIONS[-1] / "index.html").write_text("<p>попередній сайт</p>", encoding="utf-8")
    (site / "notes.txt").write_text("not the build's", encoding="utf-8")
    before = tree(site)
    done = mkdocs_build(project, site)
    assert done.returncode != 0
    assert tree(site) == before, "a failed build changed the folder it was given"
    return done.stderr


@pytest.fixture(scope="module")
def leftovers():
    """Scratch folders of a killed build and of a running one (this process), planted
    before the faulty build: it removes the first and keeps the second."""
    killed = Path(tempfile.gettempdir()) / f"{scratch.PREFIX}{dead_pid()}-experiment-planted"
    killed.mkdir()
    running = scratch.folder("site")
    yield killed, running
    for folder in (killed, running):
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def stderr(tmp_path_factory, leftovers):
    return failed_build(tmp_path_factory.mktemp("faults"), FAULTS)


def test_a_build_removes_the_scratch_folders_of_a_killed_build_only(stderr, leftovers):
    killed, running = leftovers
    assert not killed.exists() and running.is_dir()


def test_a_malformed_shortcode_fails_the_build_naming_page_and_shortcode(stderr):
    assert (f"index.{TRANSLATIONS[0]}.md: `{{{{ vec experiment.config.steps int }}}}`: "
            "needs a vector" in stderr), stderr[-3000:]
    assert "TypeError" not in stderr


def test_a_crippled_experiment_fails_the_build_naming_claim_and_page(stderr):
    assert re.search(r"feature-recovery(\.\w\w)?\.md: claim '\w+' is not supported by this run",
                     stderr), stderr[-3000:]


def test_a_planted_example_parameter_fails_the_build_naming_claim_and_page(stderr):
    # tests/examples/test_planted_errors.py plants one in each example, without a build.
    assert "attention.md: claim 'worked_key_is_ln3' is not supported by this run" in stderr, \
        stderr[-3000:]


def test_an_unknown_result_name_fails_the_build_naming_page_and_name(stderr):
    assert re.search(rf"index\.{TRANSLATIONS[-1]}\.md: .*experiment\.seeds\.0\.heldout_msee",
                     stderr), stderr[-3000:]


def test_every_fault_is_named_in_every_language_it_touches(stderr):
    touched = [f"{name}{page_suffix(language)}.md" for name in ("feature-recovery", "attention")
               for language in LANGUAGES] + [f"index.{language}.md" for language in TRANSLATIONS]
    for page in touched:
        assert f"{page}: " in stderr, page


def test_a_failing_experiment_or_notebook_cell_fails_the_build_naming_it(tmp_path):
    """Both computations fail in one build: each is reported, as a failed run is."""
    stderr = failed_build(tmp_path, [
        ("experiment/__main__.py", r"\ndef main\(",
         "\nraise RuntimeError('experiment broken on purpose')\n\n\ndef main("),
        ("companion/notebook.pct.py", r'(# %% name="train"\n)',
         "\\1raise RuntimeError('cell broken on purpose')\n")])
    assert "python -m experiment` failed" in stderr
    assert "experiment broken on purpose" in stderr
    assert re.search(r"python -m companion` failed.*\n(.*\n)*.*cell 'train' .*\n(.*\n)*"
                     r".*cell broken on purpose", stderr), stderr[-3000:]
