"""The companion notebook in each language, assembled from the language's prose and
the one execution of its code (the computation `companion`).

A language's page (``docs/notebook.<code>.md``) places the cells by name, ```` ```python
cell="train" ````, with a figure's alt text in its language; ``assemble`` puts the
executed cell there, with its figures as drawn for that language (its words and
decimal sign: the one execution draws each figure for every language and scheme,
companion/show.py). ``page_form`` is what mkdocs-jupyter renders: no front matter or
``{#id}`` (nbconvert would print it), links to the pages, each figure the run's file
marked ``#only-light`` or ``#only-dark``. ``finish`` mends its HTML: the
source's heading ids, the alt texts, Material's copy buttons (in the page's language,
no inline script) for mkdocs-jupyter's, no loader from another host (MathJax,
Mermaid). ``download_form`` stands on its own: no ``site-only`` cells, no dark twins,
absolute links to the published pages. ``python -m sitebuild.notebook OUT_DIR``
writes every language's notebook, without outputs, for ``make notebook``.
"""

from __future__ import annotations

import copy
import html
import itertools
import posixpath
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import jupytext
import nbformat
from pymdownx.slugs import slugify

from companion import DARK_PAGE, LANGUAGE

RUN_DIR = "run"  # where the hooks publish the computations' files
PNG = "image/png"
LIGHT, DARK = "#only-light", "#only-dark"  # Material's markers, as on the other pages
SITE_ONLY = "site-only"
NO_ALT = "No description has been provided for this image"  # nbconvert's placeholder

# The site's one rule for a heading's id: written after it, `## Title {#id}`, else
# the site's slug of its text (mkdocs.yml's toc: pymdownx.slugs, lower case).
HEADING_ID = re.compile(r"^(?P<heading>#{1,6} .*?)[ \t]*\{#(?P<id>[\w-]+)\}[ \t]*$", re.MULTILINE)
slug = slugify(case="lower")

FENCED = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1", re.MULTILINE | re.DOTALL)
ATX = re.compile(r"^#{1,6}[ \t].*$", re.MULTILINE)
MARKDOWN_LINK = re.compile(r"(\]\()([^)\s]+)")
HTML_LINK = re.compile(r"""((?:href|src)=")([^"]+)""")
HEADING = re.compile(
    r'<h(?P<level>[1-6]) id="[^"]*">(?P<title>.*?)<a class="anchor-link" href="#[^"]*">¶</a>'
    r"</h(?P=level)>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
IMG = re.compile(r"<img\b[^>]*>")
MATHJAX = re.compile(r"\s*<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->",
                     re.DOTALL)
LISTED_CSS = re.compile(r"""\s*<style>\s*\[["'].*?</style>\s*$""", re.DOTALL)
REMOTE = re.compile(r"""(?:\b(?:src|href|srcset|action)\s*=\s*["']?|\bimport\s*\(\s*["'`]"""
                    r"""|\burl\(\s*["']?)((?:https?:)?//[^\s"'`)>]+)""")
# mkdocs-jupyter's copy buttons (English words, a custom element in inline scripts) and
# nbconvert's Mermaid loader: Material mounts its own copy buttons on `pre > code`.
UNWANTED = re.compile(r'<div class="zeroclipboard-container">.*?</clipboard-copy>\s*</div>'
                      r'|<div [^>]*class="clipboard-copy-txt"[^>]*>.*?</div>'
                      r"|<script[^>]*>(?:(?!</script>).)*(?:clipboard-copy|mermaid)"
                      r"(?:(?!</script>).)*</script>", re.DOTALL)
LISTING = re.compile(r'(<div class="highlight-ipynb[^"]*">)<pre>(.*?)</pre>', re.DOTALL)


class NotebookError(ValueError):
    """The notebook cannot be assembled or shown as this site's page; the message says why."""


def page_language(src_uri: str, default: str) -> str:
    """A page's language: its source's suffix ("notebook.<code>.md": <code>), else DEFAULT's."""
    return src_uri.removesuffix(".md").partition(".")[2] or default


def page_path(src_uri: str) -> str:
    """Where a page is published: "notebook.<code>.md" -> "<code>/notebook/",
    "a/index.md" -> "a/"."""
    stem, _, language = src_uri.removesuffix(".md").partition(".")
    stem = stem.removesuffix("index") if stem == "index" or stem.endswith("/index") else stem + "/"
    return f"{language}/{stem}" if language else stem


def is_notebook(text: str) -> bool:
    """A page whose front matter has a Jupytext kernelspec (cheap: no parsing)."""
    header = text.split("\n---", 1)[0] if text.startswith("---") else ""
    return "\njupyter:" in header and "kernelspec:" in header


def read_prose(path: Path) -> nbformat.NotebookNode:
    return jupytext.read(path, fmt="md")


def assemble(prose: nbformat.NotebookNode, code: nbformat.NotebookNode,
             language: str) -> nbformat.NotebookNode:
    """PROSE (the page of LANGUAGE) with each ```` cell="name" ```` replaced by CODE's
    cell of that name: its source, its execution count, and its outputs but the figures
    drawn for another language; the prose's alt text stays."""
    cells = {cell.metadata["name"]: cell for cell in code.cells}
    wanted = [cell.metadata.get("cell") for cell in prose.cells if cell.cell_type == "code"]
    if wanted != list(cells):
        raise NotebookError(f"the page places the cells {wanted}; the notebook's code has "
                            f"{list(cells)}: each once, in this order")
    result = copy.deepcopy(prose)
    for cell in result.cells:
        if cell.cell_type == "code":
            done = cells[cell.metadata.pop("cell")]
            cell.source, cell.execution_count = done.source, done.get("execution_count")
            cell.outputs = [copy.deepcopy(output) for output in done.get("outputs", [])
                            if output.get("metadata", {}).get(LANGUAGE, language) == language]
            cell.metadata = {**copy.deepcopy(done.metadata), **cell.metadata}
    result.metadata = {**copy.deepcopy(code.metadata), **{
        key: value for key, value in prose.metadata.items() if key != "jupytext"}}
    for number, cell in enumerate(result.cells, 1):  # Jupytext's ids are random
        cell.id = f"cell-{number}"  # the same page and run make the same notebook, byte for byte
    return result


def images(notebook: nbformat.NotebookNode):
    """(cell, output) of every image output, in order."""
    return [(cell, output) for cell in notebook.cells for output in cell.get("outputs", [])
            if PNG in output.get("data", {})]


def _markdown(notebook: nbformat.NotebookNode, rewrite: Callable[[str], str]) -> None:
    """Its Markdown without heading ids, each relative link target (Markdown or HTML)
    replaced by REWRITE's."""
    def resolve(match: re.Match) -> str:
        relative = not (urlsplit(match[2]).scheme or match[2].startswith("//"))
        return match[1] + rewrite(match[2]) if relative else match[0]
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            text = HEADING_ID.sub(r"\g<heading>", cell.source)
            cell.source = HTML_LINK.sub(resolve, MARKDOWN_LINK.sub(resolve, text))


def page_form(notebook: nbformat.NotebookNode, page: str) -> nbformat.NotebookNode:
    """The assembled NOTEBOOK as mkdocs-jupyter renders it for the page at PAGE
    ("<code>/notebook/")."""
    result = copy.deepcopy(notebook)
    result.cells = [cell for cell in result.cells if cell.cell_type != "raw"]
    _markdown(result, page_link)
    for number, (cell, output) in enumerate(images(result), start=1):
        if not cell.metadata.get("alt", "").strip():
            raise NotebookError(f"image {number} of the notebook (cell "
                                f"{cell.metadata.get('name')!r}) has no alt text: write its "
                                'cell\'s fence as ```python cell="…" alt="what it shows"')
        marker = DARK if output.metadata.get(DARK_PAGE) else LIGHT
        name = output.metadata["filenames"][PNG]
        output.metadata["filenames"] = {PNG: posixpath.relpath(f"{RUN_DIR}/{name}", page) + marker}
    return result


def alt_texts(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """Each image's src on the page (page_form's NOTEBOOK) -> its cell's alt text."""
    return {output.metadata["filenames"][PNG]: cell.metadata["alt"].strip()
            for cell, output in images(notebook)}


def download_form(notebook: nbformat.NotebookNode, page_url: str) -> nbformat.NotebookNode:
    """The assembled NOTEBOOK as a reader's .ipynb, published at PAGE_URL: no site-only
    cells, no dark twins, absolute links, no heading ids."""
    result = copy.deepcopy(notebook)
    result.cells = [cell for cell in result.cells
                    if cell.cell_type != "raw" and SITE_ONLY not in cell.metadata.get("tags", [])]
    _markdown(result, lambda target: urljoin(page_url, page_link(target)))
    for cell in (cell for cell in result.cells if cell.cell_type == "code"):
        cell.outputs = [out for out in cell.outputs
                        if not out.get("metadata", {}).get(DARK_PAGE)]
        for output in cell.outputs:
            output.get("metadata", {}).pop("filenames", None)
    nbformat.validate(result)
    return result


def page_link(target: str) -> str:
    """A link to a source file ("a.md#x") as the URL of its page, relative to a page
    that is not an index page ("../a/#x"): where MkDocs would send it."""
    path, hash_, fragment = target.partition("#")
    if not path.endswith(".md"):
        return target
    return f"../{page_path(path)}{hash_}{fragment}"


def page_url(base: str, page: str) -> str:
    """The published address of a page: BASE (site_url) joined with its path."""
    if not urlsplit(base or "").scheme:
        raise NotebookError(f"site_url must be an absolute URL, not {base!r}: the downloaded "
                            "notebook links to the published pages")
    return urljoin(base.rstrip("/") + "/", page)


def write(notebook: nbformat.NotebookNode, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")
    return target


@dataclass
class Page:
    """A language's notebook page, assembled: what mkdocs-jupyter renders, and the download."""

    path: str  # where it is published: "<code>/notebook/"
    assembled: nbformat.NotebookNode
    rendered: Path  # page_form, written for mkdocs-jupyter
    download: Path  # download_form, published next to the page


def publish(prose: Path, code: nbformat.NotebookNode, src_uri: str, language: str,
            site_url: str, folder: Path) -> Page:
    """The page PROSE (at SRC_URI, in LANGUAGE) with the executed CODE: its forms,
    written below FOLDER."""
    path = page_path(src_uri)
    assembled, target = assemble(read_prose(prose), code, language), folder / path
    download = download_form(assembled, page_url(site_url, path))
    return Page(path, assembled, write(page_form(assembled, path), target / "notebook.ipynb"),
                write(download, target / "download" / "notebook.ipynb"))


# --- The HTML that mkdocs-jupyter renders ------------------------------------------

def heading_ids(notebook: nbformat.NotebookNode) -> list[str | None]:
    """The explicit id of each heading the page shows, in order (None where it has none)."""
    text = FENCED.sub("", "\n".join(cell.source for cell in notebook.cells
                                    if cell.cell_type == "markdown"))
    return [(HEADING_ID.match(line) or {"id": None})["id"] for line in ATX.findall(text)]


def finish(page_html: str, toc, assembled: nbformat.NotebookNode, page: str) -> str:
    """mkdocs-jupyter's PAGE_HTML of ASSEMBLED (page_form at PAGE) made a page of this
    site; TOC (MkDocs' anchor links) gets the same heading ids."""
    page_html = LISTED_CSS.sub("", UNWANTED.sub("", MATHJAX.sub("", page_html)))
    # Material names a listing after its closest id; nbconvert's cells' ("cell-id=…")
    # would make an invalid selector for the button, so each <pre> gets its own.
    numbers = itertools.count(1)
    page_html = LISTING.sub(lambda m: f'{m[1]}<pre id="listing-{next(numbers)}"><code>{m[2]}'
                            "</code></pre>", page_html)
    page_html = _with_alt_texts(page_html, alt_texts(page_form(assembled, page)))
    page_html = _with_heading_ids(page_html, toc, heading_ids(assembled))
    if remote := REMOTE.search(page_html):
        raise NotebookError(f"the notebook page would load or link {remote[1]}, from another host")
    return page_html


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
        raise NotebookError("an output of the notebook shows an image that has no alt text "
                            "(the page shows alt text for PNG images only)")
    return page_html


def _with_heading_ids(page_html: str, toc, explicit: list[str | None]) -> str:
    headings = list(HEADING.finditer(page_html))
    links = list(_flatten(toc))
    if not len(headings) == len(explicit) == len(links):
        raise NotebookError(f"the notebook has {len(explicit)} headings, its HTML {len(headings)} "
                            f"and its table of contents {len(links)}: cannot give them one id each")
    ids: list[str] = []
    for match, wanted in zip(headings, explicit, strict=True):
        text = html.unescape(TAG.sub("", match["title"])).strip()
        base = wanted or slug(text, "-") or "section"
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


# ---------------------------------------------------------------------------
# make notebook: every language's notebook, unexecuted, for JupyterLab
# ---------------------------------------------------------------------------

def main(out: str) -> int:
    from mkdocs.config import load_config

    from companion.__main__ import read
    from sitebuild import languages

    config = load_config(str(Path(__file__).resolve().parent.parent / "mkdocs.yml"))
    docs, code, default = Path(config.docs_dir), read(), languages.codes(config)[0]
    for source in sorted(docs.rglob("*.md")):
        if is_notebook(source.read_text(encoding="utf-8")):
            src_uri = source.relative_to(docs).as_posix()
            notebook = download_form(
                assemble(read_prose(source), code, page_language(src_uri, default)),
                page_url(config.site_url, page_path(src_uri)))
            print(write(notebook, Path(out) / Path(src_uri).with_suffix(".ipynb")))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]) if len(sys.argv) == 2 else
             "usage: python -m sitebuild.notebook OUT_DIR")
