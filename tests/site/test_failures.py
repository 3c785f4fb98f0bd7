"""A run that no longer supports the text cannot be published: the build stops and says why.

A failed computation (the experiment, or a notebook cell) stops the build at once.
Whatever is wrong with the pages is collected over every page of every language,
and the build fails naming all of it, each fault with its file and line: one build of
a copy with faults planted in different places (three of them on three lines of one
page, and a section in English only) shows each of them, and publishes nothing. Either build leaves
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

THREE = TRANSLATIONS[-1]  # the translation with three faults on three lines
MALFORMED = TRANSLATIONS[0]  # the one with a malformed shortcode

FAULTS = [  # path, pattern, replacement: each its own failure, in pages of different kinds
    # Twenty training steps instead of the configured number: the model is far from
    # the teacher, so the sentences about its precision are false.
    ("experiment/config.py", r"(steps: int = )\d+", r"\g<1>20"),
    # A planted parameter: the worked example's key is no longer ln 3.
    ("examples/two_positions.py", r"\(math\.log\(3\),\)", "(math.log(2.5),)"),
    # Three faults on three lines of a translation, which is built after the English
    # pages: a misspelt name, an unknown style, a shortcode never closed.
    (f"docs/index.{THREE}.md", r"\n## ",
     "\nA typo: {{ num experiment.seeds.0.heldout_msee sci2 }}.\n"
     "A style: {{ num experiment.config.steps fancy }}.\n"
     "Unclosed: {{ num experiment.config.steps int }.\n\n## "),
    # A malformed shortcode: a vector of a single number.
    (f"docs/index.{MALFORMED}.md", r"\n## ",
     "\nMalformed: {{ vec experiment.config.steps int }}.\n\n## "),
    # A section, with a number, in English only.
    ("docs/attention.md", r"\n## Pitfalls ",
     "\n## Other layers {#other-layers}\n\nA shift of {{ num examples.bank.shift fix1 }}.\n"
     "\n## Pitfalls "),
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


def test_a_malformed_shortcode_fails_the_build_naming_page_line_and_shortcode(stderr):
    assert re.search(rf"docs/index\.{MALFORMED}\.md:\d+: `\{{\{{ vec experiment\.config\.steps "
                     r"int \}\}`: needs a vector", stderr), stderr[-3000:]
    assert "TypeError" not in stderr


def test_three_faults_on_one_page_are_three_errors_with_their_lines(stderr):
    # Planted in the translation only, the two well-formed ones are drift too ("[xx] …").
    lines = [int(n) for n in re.findall(rf"^  docs/index\.{THREE}\.md:(\d+): (?!\[{THREE}\])",
                                        stderr, re.MULTILINE)]
    assert len(lines) == 3 and len(set(lines)) == 3, stderr[-3000:]
    assert lines == sorted(lines) and lines[1] == lines[0] + 1
    assert f"docs/index.{THREE}.md (5):" in stderr


def test_a_misspelt_name_is_offered_the_right_one(stderr):
    assert re.search(rf"index\.{THREE}\.md:\d+: .*experiment\.seeds\.0\.heldout_msee.*"
                     r"did you mean `heldout_mse`", stderr), stderr[-3000:]


def test_an_unknown_style_lists_the_styles_with_an_example_each(stderr):
    assert re.search(r"unknown number style 'fancy'; the styles: int \(4096\), fixN \(fix3: "
                     r"0\.332\)", stderr), stderr[-3000:]


def test_an_english_only_section_fails_the_build_in_every_other_language(stderr):
    for language in TRANSLATIONS:
        assert re.search(rf"docs/attention\.{language}\.md:\d+: \[{language}\] lacks section "
                         r"\{#other-layers\} of docs/attention\.md:\d+", stderr), stderr[-3000:]


def test_a_refuted_claim_is_reported_once_with_where_it_is_defined_and_used(stderr):
    assert stderr.count("claim worked_key_is_ln3 is not supported by this run") == 1, stderr
    block = stderr.split("claim worked_key_is_ln3 is not supported by this run", 1)[1]
    block = block.split("\n\n", 1)[0]
    assert re.search(r"Defined at sitebuild/claims/attention\.py:\d+", block), block
    for language in LANGUAGES:
        page = f"attention{page_suffix(language)}.md"
        assert re.search(rf"docs/{re.escape(page)}:\d+", block), block
    assert "It checks: " in block and "FAILS " in block
    assert "change the sentence, never the number" in block


def test_a_crippled_experiment_refutes_the_feature_recovery_claims(stderr):
    assert re.search(r"claim \w+ is not supported by this run\.(\n.*){1,4}"
                     r"docs/feature-recovery\.md:\d+", stderr), stderr[-3000:]


def test_the_count_is_the_number_of_errors(stderr):
    count = int(re.search(r"(\d+) errors? on the pages", stderr)[1])
    faults = re.findall(r"^  docs/[\w.-]+\.md:\d+: ", stderr, re.MULTILINE)
    claims = re.findall(r"^  claim \w+ is not supported by this run", stderr, re.MULTILINE)
    assert count == len(faults) + len(claims) and claims and faults, stderr[-3000:]


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
