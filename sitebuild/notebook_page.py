"""The companion notebook's page: the notebook mkdocs-jupyter renders, and its HTML made
one of this site's pages.

mkdocs-jupyter renders the page from an .ipynb that ``page_notebook`` makes of the
language's notebook with the outputs of the build's one execution:

- without raw cells (the page's YAML front matter, as Jupytext keeps it) and
  without the site's heading ids ``{#id}``, which nbconvert would print as text
  (``finish`` puts the ids back);
- a link to a page's source (``feature-recovery.md#reproduce``) becomes the link
  to the published page of the same language: MkDocs rewrites links only in the
  pages it renders itself;
- each image output points at a file of its own under ``run/notebook/`` (named by
  the hash of its bytes, so the languages share one file), through nbconvert's
  ``filenames`` output metadata: the page does not inline its figures, and they
  get their size and lazy loading as every other page's do. Every image needs
  its alt text, in the code cell's metadata (```` ```python alt="…" ````);
- each image is followed by its dark twin from the build's dark execution
  (sitebuild.notebooks), the two marked ``#only-light`` and ``#only-dark`` as the
  site's other figures are, so that the page shows the one for its colour scheme.

``finish`` fixes the HTML that comes back:

- the headings take the ids of the page's source (``## Title {#id}``, the same in
  every language), or else the site's slug, Cyrillic included, in the page and in
  its table of contents (mkdocs-jupyter writes ASCII ids, "" for a Cyrillic
  heading, while its table of contents links to Markdown's, "#_1");
- each figure takes its alt text in the page's language, where nbconvert writes a
  placeholder;
- nbconvert's MathJax loader (the site renders math to MathML at build time) and
  its Mermaid loader (an import from a CDN) are removed, and so is the copy of the
  highlighting CSS that mkdocs-jupyter appends, as a Python list, to a page made
  from an .ipynb. Anything left that loads or links from another host fails.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import html
import posixpath
import re
from collections.abc import Iterable
from pathlib import Path

import nbformat
from pymdownx.slugs import slugify

from sitebuild.notebook_download import HEADING_ID, page_link, relative_links

IMAGE_DIR = "run/notebook"  # below the site root, next to the run's own files
PNG = "image/png"
LIGHT, DARK = "#only-light", "#only-dark"  # Material's markers, as on the other pages
NO_ALT = "No description has been provided for this image"  # nbconvert's placeholder

_slug = slugify(case="lower")  # the site's slugs (mkdocs.yml, toc)
SOURCE_HEADING = re.compile(r"^#{1,6}\s+.*?(?:\{#(?P<id>[\w-]+)\})?\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(
    r'<h(?P<level>[1-6]) id="[^"]*">(?P<title>.*?)<a class="anchor-link" href="#[^"]*">¶</a>'
    r"</h(?P=level)>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
IMG = re.compile(r"<img\b[^>]*>")
MATHJAX = re.compile(r"\s*<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->",
                     re.DOTALL)
MODULE_SCRIPT = re.compile(r'<script type="module">.*?</script>', re.DOTALL)
LISTED_CSS = re.compile(r"""\s*<style>\s*\[["'].*?</style>\s*$""", re.DOTALL)
REMOTE = re.compile(r"""(?:\b(?:src|href|srcset|action)\s*=\s*["']?|\bimport\s*\(\s*["'`]"""
                    r"""|\burl\(\s*["']?)((?:https?:)?//[^\s"'`)>]+)""")


class PageError(ValueError):
    """The notebook cannot be shown as this site's page; the message says why."""


# ---------------------------------------------------------------------------
# The notebook handed to mkdocs-jupyter
# ---------------------------------------------------------------------------

def image_name(data: bytes) -> str:
    return f"{hashlib.sha256(data).hexdigest()[:16]}.png"


def images(notebook: nbformat.NotebookNode) -> dict[str, bytes]:
    """Every image the outputs show, by file name."""
    return {image_name(data): data for _, _, data in _pngs(notebook)}


def _pngs(notebook) -> Iterable[tuple[nbformat.NotebookNode, nbformat.NotebookNode, bytes]]:
    """(code cell, output, PNG bytes) of every image output."""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if PNG in output.get("data", {}):
                yield cell, output, base64.b64decode(output["data"][PNG])


def write_images(notebook: nbformat.NotebookNode, folder: Path) -> list[Path]:
    """Write every image of NOTEBOOK into FOLDER (once: the name is the content's hash)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in images(notebook).items():
        path = folder / name
        if not path.exists():
            path.write_bytes(data)
        written.append(path)
    return written


def image_src(name: str, page_path: str) -> str:
    """The src of image NAME on the page at PAGE_PATH ("uk/notebook/")."""
    return posixpath.relpath(f"{IMAGE_DIR}/{name}", page_path or ".")


def dark_twins(notebook: nbformat.NotebookNode,
               dark: nbformat.NotebookNode | None) -> list[bytes] | None:
    """The PNG of each image of NOTEBOOK in DARK, its dark execution, in order; None
    without a dark execution."""
    if dark is None:
        return None

    def cells_with_images(book) -> list[int]:  # a cell's index once per image it shows
        where = {id(cell): index for index, cell in enumerate(book.cells)}
        return [where[id(cell)] for cell, _, _ in _pngs(book)]

    if cells_with_images(notebook) != cells_with_images(dark):
        raise PageError("the notebook's dark execution shows other images than its "
                        "execution: each image needs its dark twin, from the same cell")
    return [data for _, _, data in _pngs(dark)]


def alt_texts(notebook: nbformat.NotebookNode, page_path: str,
              dark: nbformat.NotebookNode | None = None) -> dict[str, str]:
    """Each image's src on the page (its twin's too) -> the alt text of its code cell."""
    twins = dark_twins(notebook, dark)
    found = {}
    for number, (cell, _, data) in enumerate(_pngs(notebook), start=1):
        alt = cell.metadata.get("alt", "").strip()
        if not alt:
            raise PageError(f"image {number} of the notebook has no alt text: write its code "
                            'cell\'s fence as ```python alt="what the figure shows"')
        if twins is None:
            found[image_src(image_name(data), page_path)] = alt
        else:
            found[image_src(image_name(data), page_path) + LIGHT] = alt
            found[image_src(image_name(twins[number - 1]), page_path) + DARK] = alt
    return found


def page_notebook(notebook: nbformat.NotebookNode, page_path: str,
                  dark: nbformat.NotebookNode | None = None) -> nbformat.NotebookNode:
    """NOTEBOOK (a language's, with outputs) as its page at PAGE_PATH shows it, each
    image followed by its twin from DARK (the dark execution) if there is one."""
    alt_texts(notebook, page_path, dark)  # every image has one, and its twin
    twins = dark_twins(notebook, dark)
    result = copy.deepcopy(notebook)
    result.cells = [cell for cell in result.cells if cell.cell_type != "raw"]
    for cell in result.cells:
        if cell.cell_type == "markdown":
            cell.source = relative_links(HEADING_ID.sub(r"\1", cell.source), page_link)
    pngs = list(_pngs(result))
    for number, (cell, output, data) in enumerate(pngs):
        src = image_src(image_name(data), page_path)
        if twins is None:
            output.metadata["filenames"] = {PNG: src}
            continue
        output.metadata["filenames"] = {PNG: src + LIGHT}
        twin = copy.deepcopy(output)  # the same kind of output, with the same prompt
        twin.data = {PNG: base64.b64encode(twins[number]).decode("ascii")}
        twin.metadata["filenames"] = {PNG: image_src(image_name(twins[number]), page_path)
                                      + DARK}
        cell.outputs.insert(cell.outputs.index(output) + 1, twin)
    return result


def write(notebook: nbformat.NotebookNode, page_path: str, target: Path,
          dark: nbformat.NotebookNode | None = None) -> Path:
    """The page form of NOTEBOOK (with DARK's twins) written to TARGET, for
    mkdocs-jupyter to render."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(nbformat.writes(page_notebook(notebook, page_path, dark)) + "\n",
                      encoding="utf-8")
    return target


# ---------------------------------------------------------------------------
# The HTML that mkdocs-jupyter renders
# ---------------------------------------------------------------------------

def heading_ids(notebook: nbformat.NotebookNode) -> list[str | None]:
    """The explicit id of each heading the page shows, in order (None where it has none)."""
    ids = []
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        fenced = False
        for line in cell.source.splitlines():
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced and (match := SOURCE_HEADING.match(line)):
                ids.append(match["id"])
    return ids


def finish(page_html: str, toc, notebook: nbformat.NotebookNode, page_path: str,
           dark: nbformat.NotebookNode | None = None) -> str:
    """mkdocs-jupyter's PAGE_HTML of NOTEBOOK (the language's, as executed, with DARK
    its dark execution) made a page of this site; TOC (MkDocs' anchor links) gets the
    same heading ids."""
    page_html = LISTED_CSS.sub("", MODULE_SCRIPT.sub(_unless_mermaid, MATHJAX.sub("", page_html)))
    page_html = _with_alt_texts(page_html, alt_texts(notebook, page_path, dark))
    page_html = _with_heading_ids(page_html, toc, heading_ids(notebook))
    remote = REMOTE.search(page_html)
    if remote:
        raise PageError(f"the notebook page would load or link {remote[1]}, from another host")
    return page_html


def _unless_mermaid(match: re.Match) -> str:
    return "" if "mermaid" in match[0] else match[0]


def _with_alt_texts(page_html: str, alts: dict[str, str]) -> str:
    def replace(match: re.Match) -> str:
        tag = match[0]
        src = re.search(r'\bsrc="([^"]*)"', tag)
        alt = alts.get(html.unescape(src[1])) if src else None
        if alt is None:
            return tag
        return re.sub(r'\salt="[^"]*"', "", tag).replace(
            "<img", f'<img alt="{html.escape(alt, quote=True)}"', 1)

    page_html = IMG.sub(replace, page_html)
    if NO_ALT in page_html:
        raise PageError("an output of the notebook shows an image that has no alt text "
                        "(the page shows alt text for PNG images only)")
    return page_html


def _with_heading_ids(page_html: str, toc, explicit: list[str | None]) -> str:
    headings = list(HEADING.finditer(page_html))
    links = list(_flatten(toc))
    if not len(headings) == len(explicit) == len(links):
        raise PageError(f"the notebook has {len(explicit)} headings, its HTML {len(headings)} "
                        f"and its table of contents {len(links)}: cannot give them one id each")
    ids: list[str] = []
    for match, wanted in zip(headings, explicit, strict=True):
        text = html.unescape(TAG.sub("", match["title"])).strip()
        base = wanted or _slug(text, "-") or "section"
        new_id, n = base, 1
        while new_id in ids:
            n += 1
            new_id = f"{base}_{n}"
        ids.append(new_id)
    for link, new_id in zip(links, ids, strict=True):
        link.id = new_id
    replacements = iter(ids)

    def replace(match: re.Match) -> str:
        new_id, level = next(replacements), match["level"]
        return (f'<h{level} id="{new_id}">{match["title"]}'
                f'<a class="anchor-link" href="#{new_id}">¶</a></h{level}>')

    return HEADING.sub(replace, page_html)


def _flatten(toc):
    for link in toc:
        yield link
        yield from _flatten(link.children)
