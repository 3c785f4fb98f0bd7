"""The notebook a reader downloads: the page's own notebook, made to stand on its own.

It carries the outputs of the execution the page shows. What only makes sense on
the site is taken out:

- cells tagged ``site-only`` (the download link, and what only the page can
  say: a notebook does not link to itself, and a copy from ``make notebook``
  has no outputs) and raw cells (the page's YAML front matter);
- the site's heading ids, ``## Title {#id}``, which Jupyter would print;
- relative links, which would point nowhere outside the site: each becomes the
  absolute address of the published page, resolved against the page's URL
  (from ``site_url``). A link to a page's source, ``feature-recovery.md#id``
  (the form the page's author writes), goes where MkDocs would send it: the
  page of the same language (``page_link``, which the site's own notebook page
  uses too).

``python -m sitebuild.notebook_download OUT_DIR`` writes the notebook of every
language, without outputs, for ``make notebook``.
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import nbformat
import yaml

SITE_ONLY = "site-only"
HEADING_ID = re.compile(r"^(#{1,6} .*?)[ \t]*\{#[\w-]+\}[ \t]*$", re.MULTILINE)
MARKDOWN_LINK = re.compile(r"(\]\()([^)\s]+)")
HTML_LINK = re.compile(r"""((?:href|src)=")([^"]+)""")


def standalone(notebook: nbformat.NotebookNode, page_url: str) -> nbformat.NotebookNode:
    """NOTEBOOK as a reader's .ipynb: no site-only cells, absolute links, no heading ids."""
    result = copy.deepcopy(notebook)
    result.cells = [cell for cell in result.cells
                    if cell.cell_type != "raw" and SITE_ONLY not in cell.metadata.get("tags", [])]
    for cell in result.cells:
        if cell.cell_type == "markdown":
            cell.source = absolute_links(HEADING_ID.sub(r"\1", cell.source), page_url)
    result.metadata.pop("jupytext", None)
    return result


def absolute_links(text: str, page_url: str) -> str:
    """Every relative link target in TEXT resolved against PAGE_URL."""
    return relative_links(text, lambda target: urljoin(page_url, page_link(target)))


def relative_links(text: str, rewrite: Callable[[str], str]) -> str:
    """TEXT with every relative link target (Markdown or HTML) replaced by REWRITE's."""
    def resolve(match: re.Match) -> str:
        target = match[2]
        if urlsplit(target).scheme or target.startswith("//"):
            return match[0]
        return match[1] + rewrite(target)
    return HTML_LINK.sub(resolve, MARKDOWN_LINK.sub(resolve, text))


def page_link(target: str) -> str:
    """A link to a source file ("a.md#x", "b/index.md") as the URL of its page,
    relative to a page that is not an index page ("../a/#x", "../b/")."""
    path, hash_, fragment = target.partition("#")
    if not path.endswith(".md"):
        return target
    path = path.removesuffix(".md")
    path = path.removesuffix("index") if path == "index" or path.endswith("/index") else path + "/"
    return f"../{path}{hash_}{fragment}"


def page_url(base: str, page_path: str) -> str:
    """The published address of a page: BASE (site_url) joined with its path ("uk/notebook/")."""
    if not urlsplit(base or "").scheme:
        raise ValueError(f"site_url must be an absolute URL, not {base!r}: the downloaded "
                         "notebook links to the published pages")
    return urljoin(base.rstrip("/") + "/", page_path)


def writes(notebook: nbformat.NotebookNode) -> str:
    nbformat.validate(notebook)
    return nbformat.writes(notebook) + "\n"


def write(notebook: nbformat.NotebookNode, page_url: str, target: Path) -> Path:
    """The standalone form of NOTEBOOK, published at PAGE_URL, written to TARGET."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(writes(standalone(notebook, page_url)), encoding="utf-8")
    return target


# ---------------------------------------------------------------------------
# make notebook: the same notebooks, unexecuted, for JupyterLab
# ---------------------------------------------------------------------------

def site_url(mkdocs_yml: Path) -> str:
    """mkdocs.yml's site_url, with its ``!ENV [NAME, default]`` resolved as MkDocs does."""
    class Loader(yaml.SafeLoader):
        pass

    def env(loader, node):
        name, *default = loader.construct_sequence(node)
        return os.environ.get(name, default[0] if default else None)

    Loader.add_constructor("!ENV", env)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda *args: None)
    return yaml.load(mkdocs_yml.read_text(encoding="utf-8"), Loader=Loader)["site_url"]


def main(argv: list[str] | None = None) -> int:
    from sitebuild import notebooks  # the Jupytext reader

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder for notebook.ipynb, notebook.uk.ipynb, …")
    parser.add_argument("--project", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args(argv)
    url_of_site = site_url(args.project / "mkdocs.yml")
    args.out.mkdir(parents=True, exist_ok=True)
    for source in sorted((args.project / "docs").rglob("*.md")):
        if not notebooks.is_notebook(source.read_text(encoding="utf-8")):
            continue
        relative = source.relative_to(args.project / "docs")
        stem, _, language = relative.stem.partition(".")
        folder = "" if relative.parent == Path(".") else f"{relative.parent.as_posix()}/"
        url = page_url(url_of_site, f"{language}/{folder}{stem}/".lstrip("/"))
        print(write(notebooks.read(source), url, args.out / relative.with_suffix(".ipynb")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
