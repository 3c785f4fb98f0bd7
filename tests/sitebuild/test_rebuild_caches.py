"""What a rebuild under `serve` keeps from the builds before it, and when it must not:
compiled templates until their source changes, a notebook page's rendering until its
notebook changes, a module's imports until its text changes. Each is exact: an edit is
seen at the next build."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import nbformat
from jinja2 import DictLoader, Environment

from provenance.source import project_imports
from sitebuild import notebook, notebook_cache, templates
from tests.sitebuild.test_notebooks import T, executed_code, prose


def test_a_template_is_compiled_once_and_again_after_an_edit(monkeypatch):
    compiled = []
    original = Environment.compile

    def counting(self, source, *args, **kwargs):
        compiled.append(source)
        return original(self, source, *args, **kwargs)

    monkeypatch.setattr(Environment, "compile", counting)
    sources = {"page.html": "<p>{{ word }}</p> once"}

    def render() -> str:  # a new environment per build, as MkDocs makes
        env = templates.reuse_compiled(Environment(loader=DictLoader(sources)))
        return env.get_template("page.html").render(word="hello")

    assert render() == render() == "<p>hello</p> once"
    assert len(compiled) == 1
    sources["page.html"] = "<p>{{ word }}</p> edited"
    assert render() == "<p>hello</p> edited"
    assert len(compiled) == 2


def _page(path: Path):
    page = SimpleNamespace(file=SimpleNamespace(abs_src_path=str(path), src_uri=str(path)),
                           content=None, toc=None, title=None)
    renders = []

    def render(config, files):  # mkdocs-jupyter's conversion, counted
        text = path.read_text(encoding="utf-8")
        renders.append(text)
        page.content, page.toc, page.title = f"<p>{text}</p>", [["heading"]], "Title"

    page.render = render
    return page, renders


def test_a_notebook_page_is_converted_again_only_when_its_notebook_changes(tmp_path):
    path = tmp_path / "notebook.ipynb"
    path.write_text("first", encoding="utf-8")
    settings = {"execute": False, "unique": str(tmp_path)}
    conversions = []
    for text in ("first", "first", "second"):
        path.write_text(text, encoding="utf-8")
        page, renders = _page(path)
        notebook_cache.render_once(page, settings)
        page.render(None, None)
        conversions += renders
        assert page.content == f"<p>{text}</p>"
        page.toc[0][0] = "changed by the hooks"  # a copy: the next build gets the original
    assert conversions == ["first", "second"]
    page, renders = _page(path)
    notebook_cache.render_once(page, {**settings, "execute": True})
    page.render(None, None)
    assert renders == ["second"] and page.toc == [["heading"]]


def test_the_same_page_and_run_assemble_the_same_notebook_byte_for_byte():
    first, second = (notebook.assemble(prose(), executed_code(), T) for _ in range(2))
    assert nbformat.writes(first) == nbformat.writes(second)


def test_an_import_added_to_a_module_is_read_at_once(tmp_path):
    for package in ("one", "ab"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    module = tmp_path / "one" / "code.py"
    module.write_text("import os\n", encoding="utf-8")
    assert project_imports(tmp_path, "one") == ()
    module.write_text("import ab\n", encoding="utf-8")  # the same size, at once
    assert project_imports(tmp_path, "one") == ("ab",)
