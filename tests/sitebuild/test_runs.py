"""Each computation runs once per change of its source, never once per language; a
failed computation takes its numbers off the pages and says why, and the others
keep theirs."""

import textwrap
from pathlib import Path

import pytest

from sitebuild.runs import Computation, RunCache, RunFailed

MAIN = """
import argparse, json, pathlib
parser = argparse.ArgumentParser()
parser.add_argument("--out")
out = pathlib.Path(parser.parse_args().out)
{body}
(out / "{name}.json").write_text(json.dumps({{"answer": 42}}))
"""


def write_package(root, name: str, body: str = "") -> None:
    """A computation NAME: `python -m NAME --out DIR` runs BODY, then writes DIR/NAME.json."""
    package = root / name
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(
        MAIN.format(body=textwrap.dedent(body), name=name))


def break_package(root, name: str, message: str) -> None:
    (root / name / "__main__.py").write_text(f"raise SystemExit({message!r})\n")


@pytest.fixture
def cache_for():
    """RunCache of the named computations under a root; every run's folder is removed after."""
    made = []

    def make(root, *names: str) -> RunCache:
        cache = RunCache(tuple(Computation(package=name, output=f"{name}.json", root=root)
                               for name in names))
        made.append(cache)
        return cache

    yield make
    for cache in made:
        cache.clear()


@pytest.fixture
def project(tmp_path):
    write_package(tmp_path, "toycalc")
    return tmp_path


def test_a_second_language_reuses_the_run(project, cache_for):
    cache = cache_for(project, "toycalc")
    first = cache.refresh()["toycalc"]
    second = cache.refresh()["toycalc"]
    assert first is second and cache.executions == 1
    assert first.data == {"answer": 42}


def test_a_prose_edit_does_not_rerun_but_a_code_edit_does(project, cache_for):
    cache = cache_for(project, "toycalc")
    cache.refresh()
    (project / "docs.md").write_text("prose")  # not part of the package
    cache.refresh()
    assert cache.executions == 1
    (project / "toycalc" / "__init__.py").write_text("# changed\n")
    cache.refresh()
    assert cache.executions == 2


def test_a_failed_run_leaves_no_numbers_and_recovers_once_fixed(project, cache_for):
    cache = cache_for(project, "toycalc")
    cache.refresh()
    main = project / "toycalc" / "__main__.py"
    good = main.read_text()
    break_package(project, "toycalc", "broken on purpose")
    with pytest.raises(RunFailed, match="broken on purpose"):
        cache.refresh()
    with pytest.raises(RunFailed, match="broken on purpose"):
        cache.refresh()  # the same broken code is reported, not run again
    assert cache.executions == 2
    main.write_text(good)
    assert cache.refresh()["toycalc"].data == {"answer": 42}


def test_one_failing_computation_drops_only_its_own_numbers(tmp_path, cache_for):
    write_package(tmp_path, "alpha")
    write_package(tmp_path, "beta")
    cache = cache_for(tmp_path, "alpha", "beta")
    before = cache.refresh()
    break_package(tmp_path, "beta", "beta broke")
    with pytest.raises(RunFailed, match="beta broke") as failed:
        cache.refresh()
    assert "python -m alpha" not in str(failed.value)
    # beta's earlier numbers are gone, not left for a page to show; alpha's stay.
    assert not before["beta"].out_dir.exists()
    assert before["alpha"].out_dir.exists()
    write_package(tmp_path, "beta")
    after = cache.refresh()
    assert after["alpha"] is before["alpha"] and after["beta"].data == {"answer": 42}
    assert cache.executions == 4  # alpha once, beta three times


def test_every_failure_is_reported_in_one_message(tmp_path, cache_for):
    for name in ("alpha", "beta"):
        write_package(tmp_path, name)
        break_package(tmp_path, name, f"{name} broke")
    cache = cache_for(tmp_path, "alpha", "beta")
    with pytest.raises(RunFailed) as failed:
        cache.refresh()
    message = str(failed.value)
    assert "`python -m alpha` failed" in message and "alpha broke" in message
    assert "`python -m beta` failed" in message and "beta broke" in message


def test_computations_run_side_by_side(tmp_path, cache_for):
    # Each waits until the other has started: run one after the other, the first
    # would give up waiting and fail.
    for name, other in (("alpha", "beta"), ("beta", "alpha")):
        write_package(tmp_path, name, f"""
            import time
            root = pathlib.Path({str(tmp_path)!r})
            (root / "{name}.started").touch()
            deadline = time.monotonic() + 30
            while not (root / "{other}.started").exists():
                if time.monotonic() > deadline:
                    raise SystemExit("{name} ran alone")
                time.sleep(0.01)
        """)
    runs = cache_for(tmp_path, "alpha", "beta").refresh()
    assert {name: run.data for name, run in runs.items()} == {
        "alpha": {"answer": 42}, "beta": {"answer": 42}}


def test_serve_watches_every_file_the_source_hash_reads(project, cache_for):
    """provenance/ is part of every computation's key, so it is watched with it."""
    from provenance.source import SHARED, source_files
    from sitebuild.runs import watched_paths

    write_package(project, SHARED)
    computation = cache_for(project, "toycalc").computations[0]
    watched = [Path(path) for path in watched_paths([computation, computation])]
    assert watched == sorted({project / "toycalc", project / SHARED})
    before = computation.source_hash()
    for folder in watched:  # an edit in any watched folder, at any depth, changes the key
        (folder / "sub").mkdir()
        (folder / "sub" / "added.py").write_text("X = 1\n")
        assert computation.source_hash() != before
        before = computation.source_hash()
    hashed = source_files(project, "toycalc")
    assert all(any(path.is_relative_to(folder) for folder in watched) for path in hashed)


def test_a_computation_that_imports_another_is_keyed_and_watched_on_both(project):
    """The companion notebook imports the experiment: one rule gives the folders that
    its key reads and that serve watches, the imported package's included."""
    from provenance.source import SHARED, source_files
    from sitebuild.runs import watched_paths

    write_package(project, "lib")
    (project / "toycalc" / "uses.py").write_text("from lib import model  # noqa\n")
    computation = Computation(package="toycalc", output="toycalc.json", root=project)
    assert computation.imports == ("lib",), "the import is read from the code"
    watched = [Path(path) for path in watched_paths([computation])]
    assert watched == sorted({project / "toycalc", project / "lib", project / SHARED})
    before = computation.source_hash()
    (project / "lib" / "model.py").write_text("X = 1\n")
    assert computation.source_hash() != before, "an edit of an import keeps the old run"
    hashed = source_files(project, "toycalc", "lib")
    assert any(path.is_relative_to(project / "lib") for path in hashed)
    assert all(any(path.is_relative_to(folder) for folder in watched) for path in hashed)


def test_every_project_package_a_computation_imports_is_part_of_its_key():
    """The examples read the language records (locales/), the notebook imports the
    experiment: a record's edit, as any edit of what a computation imports, changes
    its key and runs it again."""
    from provenance.source import source_files
    from sitebuild.runs import computations

    found = {c.package: c.imports for c in computations()}
    assert "locales" in found["examples"] and "experiment" in found["companion"]
    examples = next(c for c in computations() if c.package == "examples")
    hashed = source_files(examples.root, examples.package, *examples.imports)
    assert set((examples.root / "locales").glob("*.toml")) <= set(hashed)


def test_an_import_added_later_joins_the_key(project):
    write_package(project, "lib")
    computation = Computation(package="toycalc", output="toycalc.json", root=project)
    before = computation.source_hash()
    assert computation.imports == ()
    (project / "toycalc" / "late.py").write_text("import lib.deep\n")
    assert computation.imports == ("lib",) and computation.source_hash() != before


def test_a_computation_that_hangs_is_stopped_and_named(project):
    write_package(project, "sleepy", "import time; time.sleep(30)")
    cache = RunCache((Computation(package="sleepy", output="sleepy.json", root=project,
                                  timeout=1.0),))
    with pytest.raises(RunFailed, match=r"python -m sleepy` did not finish within 1 s"):
        cache.refresh()
