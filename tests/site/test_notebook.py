"""The companion notebook as the built site publishes it: a page showing this build's
execution, with the figures drawn for its language, and an .ipynb download that
carries the same outputs, stands on its own outside the site, and runs from a fresh
copy of the project with the numbers of this build's results.json."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit

import nbclient
import nbformat
import pytest
from bs4 import BeautifulSoup

import locales
from tests.project import (
    DEFAULT,
    LANGUAGES,
    ROOT,
    TRANSLATIONS,
    copy_project,
    page_file,
    page_suffix,
    site_url,
    url_prefix,
)

pytestmark = pytest.mark.slow


def page(site: Path, language: str) -> BeautifulSoup:
    return BeautifulSoup(page_file(site, language, "notebook/").read_text(encoding="utf-8"),
                         "html.parser")


def download(site: Path, language: str) -> nbformat.NotebookNode:
    return nbformat.read(page_file(site, language, "notebook/").parent / "notebook.ipynb",
                         as_version=4)


# mkdocs-jupyter's (nbconvert's JupyterLab) markup of a cell's outputs.
PRINTED = ".jp-OutputArea-output.jp-RenderedText pre"
FIGURES = ".jp-OutputArea-output img"  # each figure and its dark twin
LIGHT_FIGURES = '.jp-OutputArea-output img[src$="#only-light"]'
DARK_FIGURES = '.jp-OutputArea-output img[src$="#only-dark"]'


def shown_text(html: BeautifulSoup) -> list[str]:
    return [pre.get_text().strip("\n") for pre in html.select(PRINTED)]


def printed(notebook: nbformat.NotebookNode) -> list[str]:
    """The text every code cell printed, in order."""
    return [output.text for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.outputs if output.output_type == "stream"]


def image_hashes(notebook: nbformat.NotebookNode, light_of: str | None = None) -> list[str]:
    """The sha256 of every image the notebook shows; with LIGHT_OF, only those drawn for
    a light page in that language."""
    return [hashlib.sha256(base64.b64decode(output.data["image/png"])).hexdigest()
            for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.outputs if "image/png" in output.get("data", {})
            and (light_of is None or (output.metadata.get("language") == light_of
                                      and not output.metadata.get("dark")))]


def file_hashes(site: Path, language: str, selector: str) -> list[str]:
    """The sha256 of the file behind each image of the page that SELECTOR selects."""
    folder = page_file(site, language, "notebook/").parent
    return [hashlib.sha256((folder / img["src"].partition("#")[0]).read_bytes()).hexdigest()
            for img in page(site, language).select(selector)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_shows_printed_output_and_figures_after_the_code(site, language):
    html = page(site, language)
    assert len(html.select(PRINTED)) >= 2, "the notebook was not executed"
    cells = html.select(".jp-CodeCell")
    figures = html.select(FIGURES)
    assert len(figures) >= 3
    for figure in figures:
        assert figure.get("width") and figure.get("height")
        target = page_file(site, language, "notebook/").parent / figure["src"].partition("#")[0]
        assert target.resolve().is_file(), figure["src"]
        cell = figure.find_parent(class_="jp-CodeCell")
        assert cell in cells and cell.select(".highlight-ipynb"), "an output shows under its code"
    assert "Traceback" not in html.get_text()


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_figure_has_the_alt_text_of_its_code_cell_in_the_pages_language(site, language):
    suffix = page_suffix(language)
    source = (ROOT / "docs" / f"notebook{suffix}.md").read_text(encoding="utf-8")
    expected = re.findall(r'^```python cell="[^"]+" alt="([^"]+)"', source, re.MULTILINE)
    assert expected, "the notebook's figures have alt text in their code fences"
    html = page(site, language)
    assert [img["alt"] for img in html.select(LIGHT_FIGURES)] == expected
    assert [img["alt"] for img in html.select(DARK_FIGURES)] == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_figure_has_a_dark_twin_drawn_for_a_dark_page(site, language):
    """Each figure cell draws both schemes in the one execution: the page shows each
    figure with its twin right after it, and Material's markers pick one per scheme."""
    from matplotlib import colors, image

    from experiment.figures import DARK, LIGHT

    html = page(site, language)
    light, dark = html.select(LIGHT_FIGURES), html.select(DARK_FIGURES)
    assert len(light) == len(dark) == len(html.select(FIGURES)) // 2 >= 3
    folder = page_file(site, language, "notebook/").parent
    for day, night in zip(light, dark, strict=True):
        assert day.find_parent(class_="jp-CodeCell") is night.find_parent(class_="jp-CodeCell")
        assert (day["width"], day["height"]) == (night["width"], night["height"])
        for img, scheme in ((day, LIGHT), (night, DARK)):
            pixels = image.imread(folder / img["src"].partition("#")[0])
            corner = tuple(round(float(c), 2) for c in pixels[2, 2, :3])
            assert corner == tuple(round(c, 2) for c in colors.to_rgb(scheme.background)), \
                f"{img['src']}: background {corner}, not {scheme.background}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_headings_have_the_sources_ids_in_the_page_and_its_table_of_contents(site, language):
    suffix = page_suffix(language)
    source = (ROOT / "docs" / f"notebook{suffix}.md").read_text(encoding="utf-8")
    ids = re.findall(r"^## .*\{#([\w-]+)\}\s*$", source, re.MULTILINE)
    html = page(site, language)
    article = html.select_one("article")
    assert [h2["id"] for h2 in article.select("h2")] == ids
    assert article.select_one("h1")["id"], "the title has a (Unicode) slug, not an empty id"
    toc = [a["href"] for a in html.select("nav.md-nav--secondary a.md-nav__link")]
    assert toc[:len(ids)] == [f"#{i}" for i in ids]


def test_every_language_shows_the_same_printed_outputs(site):
    """One execution fills every language's page (its printed timing included)."""
    outputs = {language: shown_text(page(site, language)) for language in LANGUAGES}
    assert all(shown == outputs[DEFAULT] for shown in outputs.values())


def executed(site: Path) -> nbformat.NotebookNode:
    """The build's one execution of the notebook, as the run published it."""
    return nbformat.read(site / "run" / "companion.ipynb", as_version=4)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_page_shows_the_figures_the_execution_drew_for_its_language(site, language):
    """The execution draws each figure for every language, with its words and decimal
    mark (tests/sitebuild/test_notebooks.py); each page shows its own language's, each
    a picture of its own where the language's words or decimal mark differ from the
    default language's."""
    drawn_for = {output.metadata["filenames"]["image/png"]: output.metadata
                 for cell in executed(site).cells for output in cell.get("outputs", [])
                 if "image/png" in output.get("data", {})}
    html = page(site, language)
    names = [img["src"].partition("#")[0].rpartition("/")[2] for img in html.select(FIGURES)]
    assert len(names) >= 6
    for img, name in zip(html.select(FIGURES), names, strict=True):
        assert drawn_for[name]["language"] == language, name
        assert drawn_for[name]["dark"] == img["src"].endswith("#only-dark"), name
    if language != DEFAULT:
        own, default = (file_hashes(site, code, FIGURES) for code in (language, DEFAULT))
        record, default_record = locales.record(language), locales.record(DEFAULT)
        if (record.numbers.decimal != default_record.numbers.decimal
                and record.words["playground"] != default_record.words["playground"]):
            assert all(a != b for a, b in zip(own, default, strict=True)), \
                "a figure of this page is the default language's picture"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_download_carries_the_outputs_the_page_shows(site, language):
    html, notebook = page(site, language), download(site, language)
    assert shown_text(html) == [text.strip("\n") for text in printed(notebook)]
    assert file_hashes(site, language, LIGHT_FIGURES) == image_hashes(notebook), \
        "the download has the light figures, no twins"
    assert all(cell.execution_count for cell in notebook.cells if cell.cell_type == "code")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_download_links_to_the_published_pages_and_not_to_itself(site, language):
    base = site_url()
    prefix = url_prefix(language)
    text = "\n".join(cell.source for cell in download(site, language).cells
                     if cell.cell_type == "markdown")
    links = re.findall(r"\]\(([^)\s]+)\)|href=\"([^\"]+)\"", text)
    targets = [markdown or html for markdown, html in links]
    assert targets, "the notebook's prose links to the articles"
    for target in targets:
        assert urlsplit(target).scheme in ("http", "https"), target
        if target.startswith(base):
            assert target.startswith(f"{base}{prefix}"), f"{target}: another language"
    assert "notebook.ipynb" not in text and not re.search(r"\{#[\w-]+\}", text)
    command = "make notebook" + ("" if language == DEFAULT else f" lang={language}")
    assert f"`{command}`" in text, "the notebook says which command opens it"


def _numbers(text: str) -> list[Decimal]:
    return [Decimal(n) for n in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)]


def _find(data, key: str):
    """The value of KEY anywhere in DATA (depth first), so that a change of nesting
    in results.json does not break the comparison."""
    if isinstance(data, dict):
        if key in data:
            return data[key]
        data = list(data.values())
    if isinstance(data, list):
        for item in data:
            if isinstance(item, (dict, list)):
                found = _find(item, key)
                if found is not None:
                    return found
    return None


# What the notebook prints that results.json also holds, for its first seed:
# the start of a printed line -> the key of the same number(s) in results.json.
OVERLAP = {
    "held-out MSE": "heldout_mse",
    "uniform attention": "uniform_attention_mse",
    "1 − R², largest of six": "max_unexplained",
    "largest |response − intended|": "max_response_error",
    "erase a query feature": "erase_query",
    "erase a payload feature": "erase_payload",
}


def agree(printed_number: Decimal, value: float) -> bool:
    """VALUE rounds to PRINTED_NUMBER at the precision it was printed with."""
    half_unit = Decimal(10) ** printed_number.as_tuple().exponent / 2
    return abs(Decimal(value) - printed_number) <= half_unit * Decimal("1.000001")


@pytest.fixture(scope="module")
def fresh_copy(tmp_path_factory) -> Path:
    """The project as a clone has it: sources only, no run, no site, no cache."""
    return copy_project(tmp_path_factory.mktemp("clone"))


def test_the_download_runs_from_a_fresh_copy_and_prints_this_builds_numbers(site, fresh_copy):
    """The English download, executed as a reader runs it; the others have the same code
    cells (asserted here), so that they would print the same. A reader's run draws each
    figure once, for a light page in the default language: the picture the build's
    execution drew for that page."""
    code = {language: [cell.source for cell in download(site, language).cells
                       if cell.cell_type == "code"] for language in LANGUAGES}
    assert all(cells == code[DEFAULT] for cells in code.values()), "the downloads' code differs"
    notebook = download(site, DEFAULT)
    nbclient.NotebookClient(notebook, timeout=600, allow_errors=False,
                            resources={"metadata": {"path": str(fresh_copy)}}).execute()
    results = json.loads((site / "run" / "results.json").read_text(encoding="utf-8"))
    first_seed = results["seeds"][0]
    compared = []
    for line in "".join(printed(notebook)).splitlines():
        label = next((label for label in OVERLAP if line.startswith(label)), None)
        if label is None:
            continue
        expected = _find(first_seed, OVERLAP[label])
        assert expected is not None, f"results.json has no {OVERLAP[label]!r} any more"
        expected = expected if isinstance(expected, list) else [expected]
        numbers = _numbers(line[len(label):])
        assert len(numbers) == len(expected), line
        for number, value in zip(numbers, expected, strict=True):
            assert agree(number, value), f"{line!r}: results.json has {value!r}"
        compared.append(label)
    assert len(compared) >= 3, (
        "the notebook no longer prints what results.json holds under the labels of OVERLAP: "
        f"{printed(notebook)}")
    assert image_hashes(notebook) == image_hashes(executed(site), light_of=DEFAULT), \
        "the download, run again, does not draw the build's figures"
    assert len(image_hashes(notebook)) >= 3, "the notebook's figure cells drew nothing"


LEGEND_ENTRY = re.compile(r"^- ((?:`[^`\n]+`(?:, )?)+)", re.MULTILINE)  # the terms of an item


def printed_labels(line: str) -> list[str]:
    """The words of a printed line: what comes before its first colon, if it has one,
    without its numbers, split at commas ("1200 steps, batch 128": steps, batch)."""
    head = line.split(":")[0]
    return [part.strip() for part in re.sub(r"\b\d+\b", "", head).split(",") if part.strip()]


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_the_page_says_in_its_language_what_each_printed_label_means(site, language):
    """The notebook prints in English, once for every language: the Ukrainian and the
    Swedish page have a legend of the labels it prints (its figures are drawn in the
    page's language)."""
    source = (ROOT / "docs" / f"notebook.{language}.md").read_text(encoding="utf-8")
    legend = "\n".join(LEGEND_ENTRY.findall(source))
    labels = [label for line in "".join(printed(download(site, language))).splitlines()
              for label in printed_labels(line)]
    assert len(labels) >= 8, labels
    missing = [label for label in labels if label not in legend]
    assert not missing, f"printed, and not in the legend of notebook.{language}.md: {missing}"


UNEXPLAINED = "1 − R²"


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_minus_r_squared_is_explained_in_the_section_that_prints_it(site, language):
    """A reader meets "1 − R²" in a cell's output: the prose of that cell's section, in
    the page's language, says what R² and 1 − R² are."""
    cells = download(site, language).cells
    printing = [number for number, cell in enumerate(cells) if cell.cell_type == "code"
                and any(UNEXPLAINED in output.get("text", "") for output in cell.outputs)]
    if not printing:
        return  # gone from the output: nothing to explain
    for number in printing:
        before = "\n".join(cell.source for cell in cells[:number] if cell.cell_type == "markdown")
        section = re.split(r"^## ", before, flags=re.MULTILINE)[-1]  # from its heading on
        assert UNEXPLAINED in section and section.count("R²") >= 3, \
            f"{language}: the section of the cell that prints {UNEXPLAINED} does not explain it"
