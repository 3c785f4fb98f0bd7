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
import shutil
import tempfile
from pathlib import Path

import jupytext
from mkdocs.structure.files import File

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
