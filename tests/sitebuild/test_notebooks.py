"""The companion notebook: its code executes once, as a computation (`companion`), a
failing cell naming itself, and draws each figure for every language, with its words
and decimal mark, and for both colour schemes; each language's page and download are
assembled from that language's prose and the one execution, with that language's
figures, each with its dark twin."""

from __future__ import annotations

import base64
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

import nbformat
import pytest
from matplotlib.figure import Figure

import locales
from companion import EVERY_PAGE, NOTEBOOK_LANGUAGE
from companion import show as shown_figures
from companion.__main__ import CellFailed, execute, figure_files, read
from sitebuild import images, notebook
from sitebuild.runs import computations
from tests.project import DEFAULT, LANGUAGES, ROOT, TRANSLATIONS

T = TRANSLATIONS[-1]  # a translation, published in T/


def png(width: int, height: int, grey: bytes = b"\xff") -> bytes:
    """A WIDTH x HEIGHT PNG of one grey level."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    raw = b"".join(b"\0" + grey * width * 3 for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height,
                                                               8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def grey(language: str, dark: bool) -> bytes:
    """The grey level of the test figure of LANGUAGE in a scheme: one of its own."""
    return bytes([(0x1e if dark else 0xff) - LANGUAGES.index(language)])


def figure_output(language: str, dark: bool) -> nbformat.NotebookNode:
    return nbformat.v4.new_output(
        "display_data", metadata={"language": language, "dark": dark},
        data={"image/png": base64.b64encode(png(4, 3, grey(language, dark))).decode(),
              "text/plain": "<Figure>"})


def executed_code() -> nbformat.NotebookNode:
    """The executed code notebook as `python -m companion` writes it."""
    printing = nbformat.v4.new_code_cell("print(values)", metadata={"name": "print"})
    printing.outputs = [nbformat.v4.new_output("stream", name="stdout", text="{{ num x }} <b>\n")]
    picture = nbformat.v4.new_code_cell("show(draw)", metadata={"name": "figure"})
    picture.outputs = [figure_output(language, dark)
                       for language in locales.codes() for dark in (False, True)]
    code = nbformat.v4.new_notebook(cells=[printing, picture])
    figure_files(code)
    return code


def prose(alt: str | None = "A white square", order=("print", "figure")) -> nbformat.NotebookNode:
    """A language's page: its Markdown, and the cells it places by name."""
    def place(name):
        metadata = {"cell": name, **({"alt": alt} if alt and name == "figure" else {})}
        return nbformat.v4.new_code_cell("", metadata=metadata)
    return nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_raw_cell("---\ndescription: x\n---"),
        nbformat.v4.new_markdown_cell("# Заголовок\n\nSee [the article](article.md#part)."),
        nbformat.v4.new_markdown_cell("[Download](notebook.ipynb)",
                                      metadata={"tags": ["site-only"]}),
        nbformat.v4.new_markdown_cell("## Run it {#run}\n\n[Up](index.md) [Jump](#run)"),
        *(place(name) for name in order)])


def test_the_page_places_the_executed_cells_by_name_and_keeps_its_own_prose():
    assembled = notebook.assemble(prose(), executed_code(), T)
    code = [cell for cell in assembled.cells if cell.cell_type == "code"]
    assert [cell.source for cell in code] == ["print(values)", "show(draw)"]
    assert code[0].outputs[0]["text"] == "{{ num x }} <b>\n"
    assert code[1].metadata["alt"] == "A white square" and "cell" not in code[1].metadata
    assert "# Заголовок" in assembled.cells[1].source


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_shows_the_figures_drawn_for_its_language_and_every_printed_output(language):
    code = [cell for cell in notebook.assemble(prose(), executed_code(), language).cells
            if cell.cell_type == "code"]
    assert len(code[0].outputs) == 1, "printed text is every language's"
    light, dark = code[1].outputs
    assert [light.metadata.language, light.metadata.dark, dark.metadata.dark] == [
        language, False, True]
    assert light.metadata.filenames["image/png"] == f"notebook-figure-{language}.png"
    assert base64.b64decode(dark.data["image/png"]) == png(4, 3, grey(language, True))


@pytest.mark.parametrize("order", [("figure", "print"), ("print",), ("print", "figure", "x")])
def test_a_page_that_misplaces_a_cell_fails(order):
    with pytest.raises(notebook.NotebookError, match="each once, in this order"):
        notebook.assemble(prose(order=order), executed_code(), T)


@pytest.mark.parametrize(("src_uri", "language"), [
    ("notebook.md", DEFAULT), (f"notebook.{T}.md", T), (f"a/notebook.{T}.md", T)])
def test_a_pages_language_is_its_sources_suffix_or_the_default(src_uri, language):
    assert notebook.page_language(src_uri, DEFAULT) == language


def test_each_figure_is_a_file_of_the_run_named_after_its_cell_and_language_with_its_twin():
    files = figure_files(executed_code())
    assert files == {f"notebook-figure-{language}{'-dark' if dark else ''}.png":
                     png(4, 3, grey(language, dark))
                     for language in LANGUAGES for dark in (False, True)}


def without(outputs: list, language: str, dark: bool) -> list:
    return [o for o in outputs if (o.metadata.language, o.metadata.dark) != (language, dark)]


@pytest.mark.parametrize("outputs", [
    lambda full: without(full, T, True),  # a dark twin missing
    lambda full: without(without(full, T, False), T, True),  # a language missing
    lambda full: full[2:] + full[:2],  # another order than the records'
    lambda full: full + full[-1:],  # a figure twice
], ids=["dark twin", "language", "order", "twice"])
def test_a_figure_without_every_language_and_its_dark_twin_fails(outputs):
    cell = nbformat.v4.new_code_cell("show(draw)", metadata={"name": "figure"})
    cell.outputs = outputs([figure_output(language, dark)
                            for language in locales.codes() for dark in (False, True)])
    with pytest.raises(ValueError, match="for each language, for a light page and its dark twin"):
        figure_files(nbformat.v4.new_notebook(cells=[cell]))


def test_the_page_is_the_notebook_without_front_matter_or_ids_and_with_site_links():
    page = notebook.page_form(notebook.assemble(prose(), executed_code(), T), f"{T}/notebook/")
    text = "\n".join(cell.source for cell in page.cells if cell.cell_type == "markdown")
    assert all(cell.cell_type != "raw" for cell in page.cells), "no front matter"
    assert "{#run}" not in text and "## Run it\n" in text
    assert "(../article/#part)" in text and "(../)" in text, "links go to the pages"
    assert "[Download](notebook.ipynb)" in text, "the page links to its download"
    light, dark = page.cells[-1].outputs
    assert light.metadata.filenames["image/png"] == f"../../run/notebook-figure-{T}.png#only-light"
    assert dark.metadata.filenames["image/png"] == \
        f"../../run/notebook-figure-{T}-dark.png#only-dark"


def test_an_image_without_alt_text_fails():
    with pytest.raises(notebook.NotebookError, match="alt"):
        notebook.page_form(notebook.assemble(prose(alt=None), executed_code(), DEFAULT),
                           "notebook/")


def rendered_by_mkdocs_jupyter(page, tmp_path):
    """The page's HTML and table of contents as mkdocs-jupyter makes them from the
    notebook the build hands it (its defaults, as mkdocs.yml leaves them)."""
    from mkdocs_jupyter.convert import nb2html
    from mkdocs_jupyter.plugin import get_nb_toc

    path = notebook.write(page, tmp_path / "page.ipynb")
    page_html = nb2html(str(path), execute=False, theme="", allow_errors=False,
                        include_requirejs=False, custom_mathjax_url="")
    return page_html, get_nb_toc(str(path), 6)[0]


def test_the_rendered_page_has_the_sources_ids_alt_texts_material_copy_buttons_no_other_host(
        tmp_path):
    assembled = notebook.assemble(prose(), executed_code(), T)
    page_html, toc = rendered_by_mkdocs_jupyter(notebook.page_form(assembled, f"{T}/notebook/"),
                                                tmp_path)
    assert "cdnjs" in page_html and "<!-- Load mathjax -->" in page_html, \
        "mkdocs-jupyter's markup changed: see what finish() still needs to remove"
    assert "Copied!" in page_html and "<clipboard-copy" in page_html, \
        "mkdocs-jupyter's copy buttons changed: see what finish() still needs to replace"
    done = notebook.finish(page_html, toc, assembled, f"{T}/notebook/")
    assert '<h1 id="заголовок">' in done and '<h2 id="run">Run it' in done
    title, = toc
    assert title.id == "заголовок" and [link.id for link in title.children] == ["run"]
    assert len(re.findall(rf'<img alt="A white square"[^>]* src="\.\./\.\./run/notebook-figure-{T}'
                          r'(?:-dark)?\.png#only-(?:light|dark)"', done)) == 2
    assert notebook.NO_ALT not in done
    assert "cdnjs" not in done and "mathjax" not in done.lower()
    assert "Copied!" not in done and "clipboard-copy" not in done.split("</style>")[-1]
    assert not re.search(r"<script>(?!\s*</script>)", done), "no inline script"
    assert re.findall(r'<pre id="([\w-]+)"><code>', done) == ["listing-1", "listing-2"], \
        "each listing where Material puts its copy button, named by a valid selector"
    assert "&#123;&#123; num x &#125;&#125;" in done or "{{ num x }}" in done, \
        "printed text is shown as printed"


def test_a_page_that_would_link_another_host_fails(tmp_path):
    page = prose()
    page.cells[1].source += " [Elsewhere](https://example.org/a)"
    assembled = notebook.assemble(page, executed_code(), DEFAULT)
    page_html, toc = rendered_by_mkdocs_jupyter(notebook.page_form(assembled, "notebook/"),
                                                tmp_path)
    with pytest.raises(notebook.NotebookError, match="https://example.org/a"):
        notebook.finish(page_html, toc, assembled, "notebook/")


def test_the_download_stands_on_its_own_with_the_light_figures():
    url = notebook.page_url("https://example.github.io/site", f"{T}/notebook/")
    assert url == f"https://example.github.io/site/{T}/notebook/"
    download = notebook.download_form(notebook.assemble(prose(), executed_code(), T), url)
    text = "\n".join(cell.source for cell in download.cells if cell.cell_type == "markdown")
    assert "notebook.ipynb" not in text, "no link to itself"
    assert "description:" not in text and "{#run}" not in text
    assert f"(https://example.github.io/site/{T}/article/#part)" in text
    assert f"(https://example.github.io/site/{T}/)" in text
    assert f"(https://example.github.io/site/{T}/notebook/#run)" in text
    figure, = download.cells[-1].outputs
    assert base64.b64decode(figure.data["image/png"]) == png(4, 3, grey(T, False)), \
        "its language's light figure, without its twin"


def test_the_download_needs_an_absolute_site_url():
    with pytest.raises(notebook.NotebookError, match="site_url"):
        notebook.page_url("/relative/", "notebook/")


@pytest.mark.parametrize(("src_uri", "path"), [
    ("notebook.md", "notebook/"), (f"notebook.{T}.md", f"{T}/notebook/"), ("index.md", ""),
    (f"index.{TRANSLATIONS[0]}.md", f"{TRANSLATIONS[0]}/"), ("a/index.md", "a/"),
    ("a/b.md", "a/b/")])
def test_one_rule_for_where_a_page_is_published(src_uri, path):
    assert notebook.page_path(src_uri) == path


def test_a_failing_cell_fails_the_execution_naming_the_cell():
    code = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1", metadata={"name": "fine"}),
        nbformat.v4.new_code_cell("raise ValueError('broken on purpose')",
                                  metadata={"name": "broken"})],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}})
    with pytest.raises(CellFailed, match=r"(?s)cell 'broken' .*broken on purpose"):
        execute(code, ROOT)


# ---------------------------------------------------------------------------
# show: each figure for every language and both schemes, in the one execution
# ---------------------------------------------------------------------------

def step_word(language: str) -> str:
    """The word of the training curve's step axis in LANGUAGE's record."""
    return locales.record(language).words["playground"]["stepAxis"]


def comma(language: str) -> bool:
    return locales.record(language).numbers.decimal == ","


def shown(monkeypatch, draw, every_page: bool = True) -> tuple[list, list]:
    """What show(DRAW) displays, (PNG, metadata) in order, and the figures DRAW returned,
    in the site's execution (EVERY_PAGE) or in a reader's Jupyter."""
    if every_page:
        monkeypatch.setenv(EVERY_PAGE, "1")
    else:
        monkeypatch.delenv(EVERY_PAGE, raising=False)
    displayed, drawn = [], []
    monkeypatch.setattr(shown_figures, "display",
                        lambda image, metadata: displayed.append((image.data, metadata)))

    def drawing(scheme, words):
        drawn.append(draw(scheme, words))
        return drawn[-1]

    shown_figures.show(drawing)
    return displayed, drawn


def labelled(scheme, words) -> Figure:
    """A small figure with an axis word, a printed number and decimal ticks."""
    fig = Figure(figsize=(2, 1.5), layout="constrained")
    ax = fig.add_subplot()
    ax.plot([0, 1], [0.25, 0.75], color=scheme.foreground)
    ax.set_xlabel(words["stepAxis"])
    ax.text(0.5, 0.5, "0.50")
    return fig


def test_show_draws_each_figure_for_every_language_and_scheme_with_its_words_and_mark(
        monkeypatch):
    displayed, drawn = shown(monkeypatch, labelled)
    expected = [{"language": language, "dark": dark}
                for language in locales.codes() for dark in (False, True)]
    assert [metadata for _, metadata in displayed] == expected
    for fig, metadata in zip(drawn, (metadata for _, metadata in displayed), strict=True):
        language = metadata["language"]
        fig.draw_without_rendering()
        ax, = fig.axes
        assert ax.get_xlabel() == step_word(language)
        ticks = [label.get_text() for label in ax.get_yticklabels() if label.get_text()]
        printed = [text.get_text() for text in ax.texts] + ticks
        assert all(("," in text) == comma(language) and ("." in text) != comma(language)
                   for text in printed), f"{language}: {printed}"
    pictures = [picture for picture, _ in displayed]
    assert len(set(pictures)) == len(pictures), "each language and scheme a picture of its own"


def test_in_a_readers_jupyter_a_figure_cell_shows_one_figure_in_its_language(monkeypatch):
    language = TRANSLATIONS[-1]
    monkeypatch.setenv(NOTEBOOK_LANGUAGE, language)
    displayed, drawn = shown(monkeypatch, labelled, every_page=False)
    assert [metadata for _, metadata in displayed] == [{"language": language, "dark": False}]
    drawn[0].draw_without_rendering()
    assert drawn[0].axes[0].get_xlabel() == step_word(language)
    monkeypatch.delenv(NOTEBOOK_LANGUAGE)
    displayed, _ = shown(monkeypatch, labelled, every_page=False)
    assert [metadata for _, metadata in displayed] == [{"language": DEFAULT, "dark": False}]


def test_a_figure_without_words_is_drawn_once_per_decimal_mark_and_scheme(monkeypatch):
    """Drawing is the execution's cost: the languages that share a decimal mark share
    the picture of a figure that prints no word."""
    drawings = []
    monkeypatch.setattr(shown_figures, "png", lambda fig, layout=None: drawings.append(fig)
                        or png(4, 3, bytes([len(drawings)])))
    displayed, _ = shown(monkeypatch, lambda scheme, words: labelled(scheme, {"stepAxis": "t"}))
    marks = {locales.record(language).numbers.decimal for language in locales.codes()}
    assert len(drawings) == 2 * len(marks)
    by_mark = {}
    for picture, metadata in displayed:
        key = (comma(metadata["language"]), metadata["dark"])
        assert by_mark.setdefault(key, picture) == picture


def test_the_notebooks_figures_have_the_words_and_decimal_mark_of_each_language(monkeypatch):
    """The notebook's own figure cells, on an untrained student: the training curve's
    axis says "step" in each language's words, and the heat maps' numbers have its
    decimal mark."""
    import torch

    from experiment import data, model

    cells = {cell.metadata["name"]: cell.source for cell in read().cells}
    namespace: dict = {}
    exec(cells["setup"], namespace)  # noqa: S102 (the notebook's own code)
    config = namespace["Config"](seeds=(0,))
    namespace.update(R=data.mixing_matrix(config.mixing_seed),
                     student=model.initial_student(data.generator(0, "training"),
                                                   config.init_scale),
                     loss_trace=torch.logspace(0, -30, 50, dtype=torch.float64))
    calls, figures = [], {}
    namespace["show"] = lambda draw: calls.append(shown(monkeypatch, draw))
    for name in ("training-curve", "query-response", "value-response"):
        exec(cells[name], namespace)  # noqa: S102
        displayed, drawn = calls[-1]
        figures[name] = {(metadata["language"], metadata["dark"]): fig
                         for (_, metadata), fig in zip(displayed, drawn, strict=True)}
    for language in LANGUAGES:
        curve = figures["training-curve"][language, False]
        assert curve.axes[0].get_xlabel() == step_word(language)
        for name in ("query-response", "value-response"):
            numbers = [text.get_text() for text in figures[name][language, True].axes[0].texts]
            assert len(numbers) == 27
            assert all(re.fullmatch(r"−?\d[,.]\d\d", n) for n in numbers), numbers
            assert all(("," in n) == comma(language) for n in numbers), f"{language}: {numbers}"


def test_the_notebooks_code_has_a_name_for_every_cell_and_every_page_places_each():
    code = read()
    for source in sorted((ROOT / "docs").glob("notebook*.md")):
        notebook.assemble(notebook.read_prose(source), code, DEFAULT)  # raises if misplaced


def test_the_notebooks_run_is_keyed_on_its_code_the_experiment_and_provenance(tmp_path):
    project = tmp_path / "project"
    for part in ("companion", "experiment", "provenance"):
        shutil.copytree(ROOT / part, project / part, ignore=shutil.ignore_patterns("__pycache__"))
    companion = next(c for c in computations(project) if c.package == "companion")
    before = companion.source_hash()
    for path in ("companion/notebook.pct.py", "experiment/config.py", "provenance/source.py"):
        source = project / path
        original = source.read_text()
        source.write_text(original + "\n# an edit\n")
        assert companion.source_hash() != before, f"an edit of {path} keeps the old execution"
        source.write_text(original)
    cells = project / "companion" / "notebook.pct.py"
    cells.write_text(cells.read_text().replace('name="train"', 'name="train" tags=["x"]', 1))
    assert companion.source_hash() != before, "a cell tag changes what executes"


# What the notebook page's listing shows at 1280 px without scrolling sideways.
LISTING_WIDTH = 78


def test_every_line_of_the_notebooks_code_fits_its_listing_on_a_desktop():
    long = [f"{cell.metadata['name']}: {line}" for cell in read().cells
            for line in cell.source.splitlines() if len(line) > LISTING_WIDTH]
    assert not long, "\n".join(long)


# What make passes on to a make that it runs.
SUB_MAKE = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"}


def test_make_notebook_writes_every_language_without_outputs_or_what_only_the_site_says(
        tmp_path):
    """`make notebook` runs `python -m sitebuild.notebook notebooks`, then opens the
    notebook of `lang`: each one has the code, says which command opens it, and says
    nothing that only the site page can (the download link, the outputs on the page)."""
    subprocess.run([sys.executable, "-m", "sitebuild.notebook", str(tmp_path)],
                   cwd=ROOT, check=True, capture_output=True)
    sources = sorted((ROOT / "docs").glob("notebook*.md"))
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        path.with_suffix(".ipynb").name for path in sources)
    for source in sources:
        language = source.suffixes[0][1:] if len(source.suffixes) > 1 else DEFAULT
        page = notebook.read_prose(source)
        site_only = [line.strip() for cell in page.cells
                     if notebook.SITE_ONLY in cell.metadata.get("tags", [])
                     for line in cell.source.splitlines() if line.strip()]
        assert site_only, f"{source.name}: the page's own words are tagged site-only"
        written = nbformat.read(tmp_path / source.with_suffix(".ipynb").name, as_version=4)
        text = "\n".join(cell.source for cell in written.cells if cell.cell_type == "markdown")
        for line in site_only:
            assert line not in text, f"{source.name}: {line!r} is for the site only"
        assert "notebook.ipynb" not in text and "\n\n\n" not in text
        code = [cell for cell in written.cells if cell.cell_type == "code"]
        assert [cell.source for cell in code] == [cell.source for cell in read().cells]
        assert all(not cell.outputs and cell.execution_count is None for cell in code)
        command = ["make", "-n", "notebook"] + ([] if language == DEFAULT else [f"lang={language}"])
        assert f"`{' '.join(command).replace(' -n', '')}`" in text, \
            f"{source.name} says how to open it"
        # As a reader's shell runs it, not as a sub-make of `make test` (which would
        # print make[1]'s directory lines and pass on its flags).
        shell = {k: v for k, v in os.environ.items() if k not in SUB_MAKE}
        opened = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True,
                                env=shell).stdout.splitlines()[-1]
        wanted = "" if language == DEFAULT else language
        assert opened.split()[:3] == [f"{NOTEBOOK_LANGUAGE}={wanted}", ".venv/bin/jupyter", "lab"]
        assert opened.endswith(f" notebooks/{source.with_suffix('.ipynb').name}"), opened


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

