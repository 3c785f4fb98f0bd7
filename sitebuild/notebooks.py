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

import hashlib
import shutil
from pathlib import Path

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
