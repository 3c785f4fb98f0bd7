"""The companion notebook is executed once per distinct code, whatever the number of
languages; a failing cell fails the execution; the page and the download show the
outputs of that one execution."""

from __future__ import annotations

import base64
import concurrent.futures
import copy
import os
import re
import struct
import subprocess
import sys
import textwrap
import time
import zlib

import nbformat
import pytest

from sitebuild import images, notebook_download, notebook_page
from sitebuild.notebooks import (
    NotebookCache,
    NotebookFailed,
    execution_key,
    find,
    read,
)
from tests.project import ROOT

HEADER = textwrap.dedent("""\
    ---
    description: "{description}"
    jupyter:
      kernelspec:
        display_name: Python 3
        language: python
        name: python3
    ---
    """)


def notebook_text(title: str, code: str = "print(6 * 7)") -> str:
    return HEADER.format(description=f"About {title}") + textwrap.dedent(f"""
        # {title}

        See [the article](article.md#part) and [the home page](index.md).

        <!-- #region tags=["site-only"] -->
        <a href="notebook.ipynb" download>Download</a>
        <!-- #endregion -->

        ## Run it {{#run}}

        ```python
        {code}
        ```
        """)


@pytest.fixture
def project(tmp_path):
    """A project whose notebook imports nothing but has the experiment's folder to hash."""
    (tmp_path / "experiment").mkdir()
    (tmp_path / "experiment" / "__init__.py").write_text("")
    docs = tmp_path / "docs"
    docs.mkdir()
    for suffix, title in (("", "Notebook"), (".uk", "Блокнот"), (".sv", "Anteckningsbok")):
        (docs / f"notebook{suffix}.md").write_text(notebook_text(title), encoding="utf-8")
    (docs / "article.md").write_text("# Not a notebook\n")
    return tmp_path


@pytest.fixture
def cache(project):
    notebooks = NotebookCache(project)
    yield notebooks
    notebooks.close()


def test_only_jupytext_pages_are_notebooks(project):
    assert [path.name for path in find(project / "docs")] == [
        "notebook.md", "notebook.sv.md", "notebook.uk.md"]


def test_the_key_ignores_the_prose_but_not_the_code(project):
    docs = project / "docs"
    assert execution_key(read(docs / "notebook.md"), project) == execution_key(
        read(docs / "notebook.uk.md"), project)
    (docs / "notebook.sv.md").write_text(notebook_text("Anteckningsbok", "print(6 * 8)"))
    assert execution_key(read(docs / "notebook.md"), project) != execution_key(
        read(docs / "notebook.sv.md"), project)


def test_the_key_changes_with_the_experiments_source(project):
    notebook = read(project / "docs" / "notebook.md")
    before = execution_key(notebook, project)
    (project / "experiment" / "__init__.py").write_text("# changed\n")
    assert execution_key(notebook, project) != before


def test_one_execution_fills_every_language(cache, project):
    paths = find(project / "docs")
    cache.start(paths)
    assert cache.executions == 1
    for path, title in zip(paths, ("Notebook", "Anteckningsbok", "Блокнот"), strict=True):
        executed = cache.result(path)
        code = [cell for cell in executed.cells if cell.cell_type == "code"]
        assert code[0].outputs[0]["text"] == "42\n"
        assert f"# {title}" in executed.cells[1].source, "the prose is the language's own"


def test_a_language_whose_code_differs_executes_on_its_own(cache, project):
    docs = project / "docs"
    (docs / "notebook.sv.md").write_text(notebook_text("Anteckningsbok", "print(6 * 8)"))
    cache.start(find(docs))
    assert cache.executions == 2
    assert "48" in cache.result(docs / "notebook.sv.md").cells[-1].outputs[0]["text"]
    assert "42" in cache.result(docs / "notebook.uk.md").cells[-1].outputs[0]["text"]


def test_a_prose_edit_keeps_the_execution_and_a_code_edit_repeats_it(cache, project):
    docs = project / "docs"
    cache.start(find(docs))
    (docs / "notebook.uk.md").write_text(notebook_text("Новий заголовок"))
    cache.start(find(docs))
    assert cache.executions == 1
    assert "Новий заголовок" in cache.result(docs / "notebook.uk.md").cells[1].source
    (project / "experiment" / "__init__.py").write_text("# changed\n")
    cache.start(find(docs))
    assert cache.executions == 2


def test_a_failing_cell_fails_the_execution_and_shows_the_error(cache, project):
    docs = project / "docs"
    for path in find(docs):
        path.write_text(notebook_text("Broken", "raise ValueError('broken on purpose')"))
    cache.start(find(docs))
    with pytest.raises(NotebookFailed, match="broken on purpose"):
        cache.result(docs / "notebook.md")
    assert cache.executions == 1, "the other languages report the same failure, not rerun it"


def test_closing_stops_a_running_execution_at_once(cache, project):
    """After a failed or interrupted build, nothing waits for the notebook to finish."""
    docs = project / "docs"
    for path in find(docs):
        path.write_text(notebook_text("Notebook", "import time; time.sleep(60)"))
    cache.start(find(docs))
    deadline = time.monotonic() + 60
    while not any(getattr(k.provisioner, "process", None) for k in cache._running._kernels):
        assert time.monotonic() < deadline, "the kernel never started"
        time.sleep(0.1)
    started = time.monotonic()
    cache.close()
    assert time.monotonic() - started < 15
    with pytest.raises(NotebookFailed):
        cache.result(docs / "notebook.md")


def test_closing_before_the_kernel_runs_stops_the_execution_too(cache, project):
    docs = project / "docs"
    for path in find(docs):
        path.write_text(notebook_text("Notebook", "import time; time.sleep(60)"))
    cache.start(find(docs))
    started = time.monotonic()
    cache.close()  # the kernel is starting, or not even that
    assert time.monotonic() - started < 30
    with pytest.raises((NotebookFailed, concurrent.futures.CancelledError)):
        cache.result(docs / "notebook.md")


# What make passes on to a make that it runs.
SUB_MAKE = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"}
PARAMETERS = '```python tags=["parameters"]\ndark = False\n```\n\n'
SAYS_WHICH = 'print("dark" if dark else "light")'
DARK_GREY = b"\x1e"


def with_parameters(text: str) -> str:
    """A notebook page whose first code cell is its parameters cell."""
    return text.replace("## Run it {#run}\n\n", "## Run it {#run}\n\n" + PARAMETERS)


def test_each_execution_has_a_dark_twin_whose_outputs_line_up(cache, project):
    docs = project / "docs"
    for path in find(docs):
        path.write_text(with_parameters(notebook_text("Notebook", SAYS_WHICH)))
    cache.start(find(docs))
    assert cache.executions == 1, "the twin belongs to the same execution"
    light, dark = cache.result(docs / "notebook.sv.md"), cache.dark_result(docs / "notebook.sv.md")
    assert [cell.source for cell in light.cells] == [cell.source for cell in dark.cells]
    assert light.cells[-1].outputs[0]["text"] == "light\n"
    assert dark.cells[-1].outputs[0]["text"] == "dark\n"


def test_the_dark_execution_continues_the_first_ones_kernel_and_skips_what_dark_cannot_change(
        cache, project):
    counts = "runs = globals().get('runs', 0) + 1"  # how often this cell has run in the kernel
    docs = project / "docs"
    for path in find(docs):
        path.write_text(with_parameters(notebook_text("Notebook", counts))
                        + "\n```python\nprint(runs, dark)\n```\n")
    cache.start(find(docs))
    light, dark = cache.result(docs / "notebook.md"), cache.dark_result(docs / "notebook.md")
    assert light.cells[-1].outputs[0]["text"] == "1 False\n"
    assert dark.cells[-1].outputs[0]["text"] == "1 True\n", "the counting cell ran once"


def test_without_a_parameters_cell_there_is_no_dark_twin(cache, project):
    cache.start(find(project / "docs"))
    assert cache.dark_result(project / "docs" / "notebook.md") is None


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------

def png(width: int, height: int, grey: bytes = b"\xff") -> bytes:
    """A WIDTH x HEIGHT PNG of one grey level."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    raw = b"".join(b"\0" + grey * width * 3 for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height,
                                                               8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def executed_notebook(alt: str | None = "A white square") -> nbformat.NotebookNode:
    picture = nbformat.v4.new_code_cell("figure()", metadata={"alt": alt} if alt else {})
    picture.outputs = [nbformat.v4.new_output(
        "display_data", data={"image/png": base64.b64encode(png(4, 3)).decode(),
                              "text/plain": "<Figure>"})]
    printing = nbformat.v4.new_code_cell("print(values)")
    printing.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                               text="{{ num x }} <b>\n")]
    return nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_raw_cell("---\ndescription: x\n---"),
        nbformat.v4.new_markdown_cell("# Title\n\nSee [the article](article.md#part)."),
        nbformat.v4.new_markdown_cell("[Download](notebook.ipynb)",
                                      metadata={"tags": ["site-only"]}),
        nbformat.v4.new_markdown_cell("## Run it {#run}\n\n[Up](../) [Jump](#run) "
                                      "[Elsewhere](https://example.org/a)"),
        picture, printing])


def rendered_by_mkdocs_jupyter(notebook, page_path: str, tmp_path, dark=None):
    """The page's HTML and table of contents as mkdocs-jupyter makes them from the
    notebook the build hands it (its defaults, as mkdocs.yml leaves them)."""
    from mkdocs_jupyter.convert import nb2html
    from mkdocs_jupyter.plugin import get_nb_toc

    path = notebook_page.write(notebook, page_path, tmp_path / "page.ipynb", dark)
    page_html = nb2html(str(path), execute=False, theme="", allow_errors=False,
                        include_requirejs=False, custom_mathjax_url="")
    return page_html, get_nb_toc(str(path), 6)[0]


def on_the_site_only(notebook):
    """NOTEBOOK without its link to another host (a page of this site links to none)."""
    for cell in notebook.cells:
        cell.source = cell.source.replace(" [Elsewhere](https://example.org/a)", "")
    return notebook


def test_the_page_is_the_notebook_without_front_matter_or_ids_and_with_site_links():
    page = notebook_page.page_notebook(executed_notebook(), "uk/notebook/")
    text = "\n".join(cell.source for cell in page.cells if cell.cell_type == "markdown")
    assert all(cell.cell_type != "raw" for cell in page.cells), "no front matter"
    assert "{#run}" not in text and "## Run it\n" in text
    assert "(../article/#part)" in text, "a link to a page's source goes to the page"
    assert "[Download](notebook.ipynb)" in text, "the page links to its download"
    image = page.cells[-2].outputs[0]
    assert image.metadata.filenames["image/png"] == \
        f"../../run/notebook/{notebook_page.image_name(png(4, 3))}"


def dark_twin_of(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """NOTEBOOK as its dark execution would give it: each image another PNG."""
    dark = copy.deepcopy(notebook)
    for cell in dark.cells:
        for output in cell.get("outputs", []):
            if "image/png" in output.get("data", {}):
                output.data["image/png"] = base64.b64encode(png(4, 3, DARK_GREY)).decode()
    return dark


def test_each_image_is_followed_by_its_dark_twin_marked_for_the_colour_schemes(tmp_path):
    notebook = on_the_site_only(executed_notebook())
    dark = dark_twin_of(notebook)
    page = notebook_page.page_notebook(notebook, "notebook/", dark)
    day, night = page.cells[-2].outputs
    assert day.metadata.filenames["image/png"] == \
        f"../run/notebook/{notebook_page.image_name(png(4, 3))}#only-light"
    assert night.metadata.filenames["image/png"] == \
        f"../run/notebook/{notebook_page.image_name(png(4, 3, DARK_GREY))}#only-dark"
    assert night.output_type == day.output_type
    page_html, toc = rendered_by_mkdocs_jupyter(notebook, "notebook/", tmp_path, dark)
    done = notebook_page.finish(page_html, toc, notebook, "notebook/", dark)
    assert len(re.findall(r'<img alt="A white square"[^>]* src="[^"]*#only-(?:light|dark)"',
                          done)) == 2
    written = notebook_page.write_images(dark, tmp_path / "images")
    assert [path.read_bytes() for path in written] == [png(4, 3, DARK_GREY)]


def test_a_dark_execution_with_other_images_fails():
    notebook = executed_notebook()
    dark = dark_twin_of(notebook)
    dark.cells[-2].outputs = []
    with pytest.raises(notebook_page.PageError, match="dark twin"):
        notebook_page.page_notebook(notebook, "notebook/", dark)


def test_an_image_without_alt_text_fails():
    with pytest.raises(notebook_page.PageError, match="alt"):
        notebook_page.page_notebook(executed_notebook(alt=None), "notebook/")


def test_the_rendered_page_has_the_sources_ids_the_alt_text_and_no_other_host(tmp_path):
    notebook = on_the_site_only(executed_notebook())
    notebook.cells[1].source = notebook.cells[1].source.replace("# Title", "# Заголовок")
    page_html, toc = rendered_by_mkdocs_jupyter(notebook, "uk/notebook/", tmp_path)
    assert "cdnjs" in page_html and "<!-- Load mathjax -->" in page_html, \
        "mkdocs-jupyter's markup changed: see what finish() still needs to remove"
    done = notebook_page.finish(page_html, toc, notebook, "uk/notebook/")
    assert '<h1 id="заголовок">' in done and '<h2 id="run">Run it' in done
    title, = toc
    assert title.id == "заголовок" and [link.id for link in title.children] == ["run"]
    src = f"../../run/notebook/{notebook_page.image_name(png(4, 3))}"
    assert re.search(rf'<img alt="A white square"[^>]* src="{re.escape(src)}"', done)
    assert notebook_page.NO_ALT not in done
    assert "cdnjs" not in done and "mathjax" not in done.lower()
    assert "&#123;&#123; num x &#125;&#125;" in done or "{{ num x }}" in done, \
        "printed text is shown as printed"


def test_a_page_that_would_link_another_host_fails(tmp_path):
    notebook = executed_notebook()
    page_html, toc = rendered_by_mkdocs_jupyter(notebook, "notebook/", tmp_path)
    with pytest.raises(notebook_page.PageError, match="https://example.org/a"):
        notebook_page.finish(page_html, toc, notebook, "notebook/")


def test_each_image_is_written_once_under_its_hash(tmp_path):
    written = notebook_page.write_images(executed_notebook(), tmp_path)
    assert [path.read_bytes() for path in written] == [png(4, 3)]
    assert images.size(written[0]) == (4, 3)


# ---------------------------------------------------------------------------
# The download
# ---------------------------------------------------------------------------

def test_the_download_stands_on_its_own():
    url = notebook_download.page_url("https://example.github.io/site", "uk/notebook/")
    assert url == "https://example.github.io/site/uk/notebook/"
    download = notebook_download.standalone(executed_notebook(), url)
    text = "\n".join(cell.source for cell in download.cells if cell.cell_type == "markdown")
    assert "notebook.ipynb" not in text, "no link to itself"
    assert "description:" not in text and "{#run}" not in text
    assert "(https://example.github.io/site/uk/article/#part)" in text
    assert "(https://example.github.io/site/uk/)" in text
    assert "(https://example.github.io/site/uk/notebook/#run)" in text
    assert "(https://example.org/a)" in text
    assert download.cells[-2].outputs == executed_notebook().cells[-2].outputs
    nbformat.validate(download)


def markdown(notebook: nbformat.NotebookNode) -> str:
    return "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def test_make_notebook_writes_every_language_without_outputs_or_what_only_the_site_says(
        tmp_path):
    """`make notebook` runs `python -m sitebuild.notebook_download notebooks`, then opens
    the notebook of `lang`: each one says which command opens it, and says nothing that
    only the site page can (the download link, the outputs shown on the page)."""
    subprocess.run([sys.executable, "-m", "sitebuild.notebook_download", str(tmp_path)],
                   cwd=ROOT, check=True, capture_output=True)
    sources = find(ROOT / "docs")
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        path.with_suffix(".ipynb").name for path in sources)
    for source in sources:
        language = source.suffixes[0][1:] if len(source.suffixes) > 1 else "en"
        page = read(source)
        site_only = [line.strip() for cell in page.cells
                     if notebook_download.SITE_ONLY in cell.metadata.get("tags", [])
                     for line in cell.source.splitlines() if line.strip()]
        assert site_only, f"{source.name}: the page's own words are tagged site-only"
        written = nbformat.read(tmp_path / source.with_suffix(".ipynb").name, as_version=4)
        text = markdown(written)
        for line in site_only:
            assert line not in text, f"{source.name}: {line!r} is for the site only"
        assert "notebook.ipynb" not in text and "\n\n\n" not in text
        code = [cell for cell in written.cells if cell.cell_type == "code"]
        assert code and all(not cell.outputs and cell.execution_count is None for cell in code)
        command = ["make", "-n", "notebook"] + ([] if language == "en" else [f"lang={language}"])
        assert f"`{' '.join(command).replace(' -n', '')}`" in text, \
            f"{source.name} says how to open it"
        # As a reader's shell runs it, not as a sub-make of `make test` (which would
        # print make[1]'s directory lines and pass on its flags).
        shell = {k: v for k, v in os.environ.items() if k not in SUB_MAKE}
        opened = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True,
                                env=shell).stdout.splitlines()[-1]
        assert opened.split()[:2] == [".venv/bin/jupyter", "lab"]
        assert opened.endswith(f" notebooks/{source.with_suffix('.ipynb').name}"), opened


def test_the_download_needs_an_absolute_site_url():
    with pytest.raises(ValueError, match="site_url"):
        notebook_download.page_url("/relative/", "notebook/")


# ---------------------------------------------------------------------------
# Images on every page
# ---------------------------------------------------------------------------

def test_images_get_their_size_and_below_the_fold_load_lazily(tmp_path):
    (tmp_path / "plot.svg").write_text(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
        'width="374.4pt" height="230.4pt" viewBox="0 0 374.4 230.4"></svg>')
    (tmp_path / "icon.png").write_bytes(png(4, 3))
    html = ('<p><img alt="top" src="../run/icon.png" /></p><h2 id="a">A</h2>'
            '<img alt="plot" src="../run/plot.svg#only-light" />'
            '<img alt="sized" src="../run/plot.svg" width="10" height="5" loading="eager" />'
            '<img alt="elsewhere" src="https://example.org/x.png" />')
    files = {"../run/icon.png": tmp_path / "icon.png", "../run/plot.svg#only-light":
             tmp_path / "plot.svg", "../run/plot.svg": tmp_path / "plot.svg"}
    result = images.sized_and_lazy(html, files.get)
    assert '<img width="4" height="3" alt="top"' in result
    assert '<img width="499" height="307" loading="lazy" alt="plot"' in result
    assert '<img alt="sized" src="../run/plot.svg" width="10" height="5" loading="eager" />' \
        in result
    assert '<img loading="lazy" alt="elsewhere"' in result


def test_an_image_of_unknown_size_fails(tmp_path):
    (tmp_path / "plot.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"></svg>')
    with pytest.raises(images.ImageSizeError, match="plot.svg"):
        images.size(tmp_path / "plot.svg")
