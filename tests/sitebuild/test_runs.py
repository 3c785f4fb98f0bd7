"""Each computation runs once per change of its source, never once per language."""

import textwrap

import pytest

from sitebuild.runs import Computation, RunCache, RunFailed


@pytest.fixture
def project(tmp_path):
    package = tmp_path / "toycalc"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(textwrap.dedent("""
        import argparse, json, pathlib
        parser = argparse.ArgumentParser()
        parser.add_argument("--out")
        out = pathlib.Path(parser.parse_args().out)
        (out / "toy.json").write_text(json.dumps({"answer": 42}))
    """))
    return tmp_path


def cache_for(project):
    computation = Computation(package="toycalc", output="toy.json", root=project)
    return RunCache((computation,))


def test_a_second_language_reuses_the_run(project):
    cache = cache_for(project)
    first = cache.refresh()["toycalc"]
    second = cache.refresh()["toycalc"]
    assert first is second and cache.executions == 1
    assert first.data == {"answer": 42}
    cache.clear()


def test_a_prose_edit_does_not_rerun_but_a_code_edit_does(project):
    cache = cache_for(project)
    cache.refresh()
    (project / "docs.md").write_text("prose")  # not part of the package
    cache.refresh()
    assert cache.executions == 1
    (project / "toycalc" / "__init__.py").write_text("# changed\n")
    cache.refresh()
    assert cache.executions == 2
    cache.clear()


def test_a_failed_run_leaves_no_numbers_and_recovers_once_fixed(project):
    cache = cache_for(project)
    cache.refresh()
    main = project / "toycalc" / "__main__.py"
    good = main.read_text()
    main.write_text("raise SystemExit('broken on purpose')\n")
    with pytest.raises(RunFailed, match="broken on purpose"):
        cache.refresh()
    with pytest.raises(RunFailed, match="broken on purpose"):
        cache.refresh()  # the same broken code is reported, not run again
    assert cache.executions == 2
    main.write_text(good)
    assert cache.refresh()["toycalc"].data == {"answer": 42}
    cache.clear()
