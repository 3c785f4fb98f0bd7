"""MkDocs hooks: run the computations, hand their files to MkDocs, fill the pages.

mkdocs-static-i18n builds each language by running the whole build again, so
every event here fires once per language. Expensive work is keyed by the hash
of its source (sitebuild.runs.RunCache): the first language runs it, the
others reuse it.

``mkdocs build`` fails loudly on anything wrong: a failed run, an unknown result
name, a claim the run refutes. ``mkdocs serve`` shows the same errors on the
pages and in the log instead, and recovers by itself once the cause is fixed,
because the experiment's folder is watched and its new hash forces a new run.
"""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from sitebuild import mathml, notebooks
from sitebuild.runs import RunCache, RunFailed, computations
from sitebuild.shortcodes import SHORTCODE, ShortcodeError, expand

log = logging.getLogger("mkdocs.hooks.sitebuild")

GENERATED_DIR = "run"  # where results.json and the figures are published
_caches: dict[Path, RunCache] = {}  # by project root: tests build copies of the project


@dataclass
class _Build:
    """What the events of one build (under `serve`, the latest rebuild) share."""

    command: str = "build"  # or "serve", "gh-deploy"
    site_dir: str | None = None
    error: str | None = None  # why the computations failed: the pages show it, and no number
    runs: dict = field(default_factory=dict)  # name -> runs.Run
    values: dict = field(default_factory=dict)  # name -> its JSON, as the pages look values up

    @property
    def serving(self) -> bool:
        return self.command == "serve"


_build = _Build()


def on_startup(command: str, dirty: bool) -> None:
    _build.command = command


def on_shutdown() -> None:
    for cache in _caches.values():
        cache.clear()


def _fail(message: str) -> None:
    """Stop a build; in a preview, log the error and show it on the pages."""
    if not _build.serving:
        raise PluginError(message)
    log.error(message)


def on_config(config):
    root = Path(config.config_file_path).resolve().parent
    cache = _caches.setdefault(root, RunCache(computations(root)))
    _build.site_dir = config.site_dir
    try:
        runs = cache.refresh()
        _build.error = None
    except RunFailed as error:
        runs = {}
        _build.error = str(error)
        _fail(str(error))
    _build.values = {name: run.data for name, run in runs.items()}
    _build.runs = runs
    notebooks.configure(config, runs, serving=_build.serving)
    return config


def on_files(files: Files, config) -> Files:
    for run in _build.runs.values():
        for path in run.files():
            files.append(File.generated(config, f"{GENERATED_DIR}/{path.name}",
                                        abs_src_path=str(path)))
    i18n = config.plugins["i18n"]
    download = notebooks.download(config, i18n.current_language, i18n.default_language)
    if download is not None:
        files.append(download)
    return files


def _language(page, config) -> str:
    return getattr(page.file, "locale", None) or config.theme.get("language", "en")


@event_priority(100)  # before other plugins read the Markdown
def on_page_markdown(markdown: str, page, config, files) -> str:
    if _build.error:
        # No numbers at all rather than stale ones: every value shows as "?".
        return _error_banner(_build.error) + SHORTCODE.sub("?", markdown)
    try:
        expanded, checked = expand(markdown, _build.values, _language(page, config))
    except ShortcodeError as error:
        message = f"{page.file.src_uri}: {error}"
        _fail(message)
        return _error_banner(message) + markdown
    if checked:
        log.debug("%s: %d claims hold for this run", page.file.src_uri, len(checked))
    return expanded


def on_page_content(html: str, page, config, files) -> str:
    if hasattr(page, "nb_url"):  # rendered by mkdocs-jupyter
        html = notebooks.heading_ids(html, page.toc)
    try:
        return mathml.render(html)
    except mathml.MathError as error:
        _fail(f"{page.file.src_uri}: {error}")
        return html


@event_priority(-100)  # after mkdocs-static-i18n has set the language links
def on_page_context(context, page, config, nav):
    """Language links relative to the site, so the site works below any path.

    mkdocs-static-i18n leaves the home page's links as "/uk/"; from the root of
    a project site such as https://user.github.io/project/ that leaves the site.
    """
    # i18n assigns config.extra.alternate as an attribute, which templates read
    # before the item of the same name.
    alternates = getattr(config.extra, "alternate", None) or config.extra.get("alternate") or []
    for alternate in alternates:
        if alternate.get("link", "").startswith("/"):
            alternate["link"] = alternate["link"].lstrip("/") or "./"
    return context


def on_build_error(error) -> None:
    """A failed build publishes nothing: no page with stale or partial numbers."""
    if not _build.serving and _build.site_dir:
        shutil.rmtree(_build.site_dir, ignore_errors=True)
        log.error("Build failed; removed %s so that nothing half-built is published.",
                  _build.site_dir)


@event_priority(10)  # before mkdocs-jupyter evicts what the other languages still need
def on_post_build(config) -> None:
    notebooks.keep_cache_across_languages(config)


def _error_banner(message: str) -> str:
    body = "\n".join("    " + line for line in message.splitlines())
    title = "The build could not compute this page"
    return f'!!! failure "{title}"\n\n    ```text\n{body}\n    ```\n\n'

