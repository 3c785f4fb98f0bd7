"""mkdocs-jupyter settings that depend on the run and on build or serve.

The companion notebook imports the experiment, so its executed output depends on
the experiment's code as well as on the notebook's text. mkdocs-jupyter's cache
key covers only the text; we give each experiment source hash its own cache
folder, so a code change can never bring back an old output.

``mkdocs build`` executes every notebook afresh (no cache). ``mkdocs serve``
uses the cache so that a prose edit does not re-execute anything.

mkdocs-jupyter evicts, after each build, the cache entries that build did not
use; under mkdocs-static-i18n each language is a build of its own, so it would
evict the other languages' notebooks every time. keep_cache_across_languages
marks the entries of the current cache folder as used before that happens.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import html
import re
import shutil
import tempfile
from pathlib import Path

import jupytext
from mkdocs.structure.files import File
from pymdownx.slugs import slugify

# The site's slugs (mkdocs.yml, toc): readable for Cyrillic headings too.
_slug = slugify(case="lower")
HEADING = re.compile(
    r'<h(?P<level>[1-6]) id="[^"]*">(?P<title>.*?)<a class="anchor-link" href="#[^"]*">¶</a>'
    r"</h(?P=level)>",
    re.DOTALL,
)
TAG = re.compile(r"<[^>]+>")

PLUGIN = "mkdocs-jupyter"


def _plugin(config):
    plugin = config.plugins.get(PLUGIN)
    if plugin is None:
        raise RuntimeError(f"mkdocs.yml must enable the {PLUGIN} plugin")
    return plugin


def configure(config, runs: dict, serving: bool) -> None:
    """Always execute, never publish errors; cache only in a preview."""
    plugin = _plugin(config)
    if plugin.config["allow_errors"] or not plugin.config["execute"]:
        raise RuntimeError(f"{PLUGIN} must execute notebooks with allow_errors: false")
    plugin.config["cache"] = serving
    if not serving:
        return
    key = hashlib.sha256("".join(sorted(r.source_hash for r in runs.values())).encode())
    cache_root = Path(config.config_file_path).resolve().parent / ".cache" / "notebooks"
    cache_dir = cache_root / key.hexdigest()[:16]
    for old in cache_root.glob("*"):
        if old != cache_dir:
            shutil.rmtree(old, ignore_errors=True)
    plugin.config["cache_dir"] = str(cache_dir)


def keep_cache_across_languages(config) -> None:
    plugin = _plugin(config)
    if plugin.config["cache"] and hasattr(plugin, "_used_cache_paths"):
        plugin._used_cache_paths.update(Path(plugin.config["cache_dir"]).glob("*.json"))


def download(config, language: str, default_language: str) -> File | None:
    """The current language's notebook as an unexecuted .ipynb, next to its page.

    The page source is a Jupytext Markdown notebook (under mkdocs-static-i18n,
    mkdocs-jupyter renders only those); readers get the common .ipynb format.
    """
    suffix = "" if language == default_language else f".{language}"
    source = Path(config.docs_dir) / f"notebook{suffix}.md"
    if not source.exists():
        return None
    prefix = "" if language == default_language else f"{language}/"
    # A file on disk, not File.generated(content=...): mkdocs-static-i18n sorts
    # files by their source path and fails on a file that has none.
    target = Path(_download_dir()) / f"notebook{suffix}.ipynb"
    target.write_text(jupytext.writes(jupytext.read(source), fmt="ipynb"), encoding="utf-8")
    return File.generated(config, f"{prefix}notebook/notebook.ipynb", abs_src_path=str(target))


@functools.cache
def _download_dir() -> str:
    folder = tempfile.mkdtemp(prefix="attention-site-notebooks-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def heading_ids(page_html: str, toc) -> str:
    """Give the notebook's headings the site's slugs, in the page and in its TOC.

    mkdocs-jupyter writes ASCII-only ids ("" for a Cyrillic heading) while its
    table of contents links to Markdown's default slugs ("#_1"), so every TOC
    link of the Ukrainian notebook led nowhere.
    """
    ids: list[str] = []

    def replace(match: re.Match) -> str:
        text = html.unescape(TAG.sub("", match["title"])).strip()
        base = _slug(text, "-") or "section"
        new_id, n = base, 1
        while new_id in ids:
            n += 1
            new_id = f"{base}_{n}"
        ids.append(new_id)
        level = match["level"]
        return (f'<h{level} id="{new_id}">{match["title"]}'
                f'<a class="anchor-link" href="#{new_id}">¶</a></h{level}>')

    page_html = HEADING.sub(replace, page_html)
    links = list(_flatten(toc))
    if len(links) != len(ids):
        raise RuntimeError(f"notebook headings ({len(ids)}) and TOC entries ({len(links)}) "
                           "differ; cannot give them matching ids")
    for link, new_id in zip(links, ids, strict=True):
        link.id = new_id
    return page_html


def _flatten(toc):
    for link in toc:
        yield link
        yield from _flatten(link.children)
