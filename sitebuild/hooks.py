"""MkDocs hooks: adapters between MkDocs and the build's plain functions.

The hooks hand the computations' files and values (sitebuild.runs) to MkDocs, fill
the pages (sitebuild.shortcodes), and point each language's notebook page at its
notebook for mkdocs-jupyter (sitebuild.notebook). mkdocs-static-i18n builds each
language by running the whole build again, so every event fires once per language;
RunCache runs each computation once per change of its source.

``mkdocs build`` fails loudly: a failed run stops it at once; what is wrong with a
page (an unknown result name, a claim the run refutes) is collected over every page
of every language, and the build fails naming all of it, for one round of fixes.
``mkdocs serve`` shows the same errors on the pages and in the log, and recovers
once the cause is fixed: a watched edit changes the hash, which forces a new run.
"""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from markdown import Markdown
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.utils.meta import get_data

from sitebuild import images, notebook
from sitebuild.runs import RunCache, RunFailed, computations
from sitebuild.shortcodes import SHORTCODE, ShortcodeError, expand

log = logging.getLogger("mkdocs.hooks.sitebuild")

NOTEBOOK_RUN = "companion"  # the computation that executes the notebook
_caches: dict[Path, RunCache] = {}  # by project root: tests build copies of the project


@dataclass
class _Build:
    """What the events of one build (under `serve`, the latest rebuild) share."""

    command: str = "build"  # or "serve", "gh-deploy"
    site_dir: str | None = None
    error: str | None = None  # why the computations failed: the pages show it, and no number
    failures: list[str] = field(default_factory=list)  # what is wrong with pages (build only)
    runs: dict = field(default_factory=dict)  # package -> runs.Run
    notebooks: dict = field(default_factory=dict)  # src_uri -> (notebook.Page, front matter)

    @property
    def serving(self) -> bool:
        return self.command == "serve"


_build = _Build()


def on_startup(command: str, dirty: bool) -> None:
    _build.command = command
    _build.failures.clear()


def on_shutdown() -> None:
    for cache in _caches.values():
        cache.clear()


def _fail(message: str) -> None:
    """What is wrong with a page: a build fails once every language is built
    (on_post_build); a preview logs it (the page shows it)."""
    if _build.serving:
        log.error(message)
    else:
        _build.failures.append(message)


def on_config(config):
    root = Path(config.config_file_path).resolve().parent
    cache = _caches.setdefault(root, RunCache(computations(root)))
    _build.site_dir = config.site_dir
    try:
        _build.runs, _build.error = cache.refresh(), None
    except RunFailed as error:
        _build.runs, _build.error = {}, str(error)
        if not _build.serving:
            raise PluginError(str(error)) from None
        log.error(str(error))
    return config


@event_priority(-150)  # after mkdocs-static-i18n's (-100), which makes the files anew
def on_files(files: Files, config) -> Files:
    for run in _build.runs.values():
        for path in run.files():
            files.append(File.generated(config, f"{notebook.RUN_DIR}/{path.name}",
                                        abs_src_path=str(path)))
    _build.notebooks = {}
    for file in files.documentation_pages():
        text = Path(file.abs_src_path).read_text(encoding="utf-8")
        if notebook.is_notebook(text):
            _publish_notebook(file, text, files, config)
    return files


def _publish_notebook(file: File, text: str, files: Files, config) -> None:
    """Point FILE (a language's notebook page) at its notebook assembled from the one
    execution, for mkdocs-jupyter; publish the .ipynb download next to the page. After
    a failed run the page is Markdown, under the error, as every page is."""
    run = _build.runs.get(NOTEBOOK_RUN)
    if run is None:
        return
    if SHORTCODE.search(text):
        _fail(f"{file.src_uri}: a notebook cannot use shortcodes: its Markdown is "
              "shown as written, on the page and in Jupyter")
    try:  # into a folder of the run's, removed with it (Run.files() publishes files only)
        page = notebook.publish(Path(file.abs_src_path), nbformat.from_dict(run.data),
                                file.src_uri, config.site_url, run.out_dir / "pages")
    except notebook.NotebookError as error:
        _fail(f"{file.src_uri}: {error}")
        return
    file.abs_src_path = str(page.rendered)  # MkDocs reads the .ipynb from here on
    files.append(File.generated(config, f"{page.path}notebook.ipynb",
                                abs_src_path=str(page.download)))
    _build.notebooks[file.src_uri] = (page, get_data(text)[1])


@event_priority(100)  # before other plugins read the Markdown
def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.src_uri in _build.notebooks:
        page.meta = _build.notebooks[page.file.src_uri][1]  # the .md's, not the .ipynb's
        return markdown
    if _build.error:
        # No numbers at all rather than stale ones: every value shows as "?".
        return _error_banner(_build.error) + SHORTCODE.sub("?", markdown)
    try:
        language = getattr(page.file, "locale", None) or config.theme.get("language", "en")
        expanded, checked = expand(markdown, {name: run.data for name, run in _build.runs.items()},
                                   language)
    except ShortcodeError as error:
        message = f"{page.file.src_uri}: {error}"
        _fail(message)
        return _error_banner(message) + markdown
    if checked:
        log.debug("%s: %d claims hold for this run", page.file.src_uri, len(checked))
    return expanded


def on_page_content(html: str, page, config, files) -> str:
    if page.file.src_uri in _build.notebooks:
        html = _finish_notebook_page(html, page, config)
    try:
        return images.sized_and_lazy(html, lambda src: images.published_file(src, page.url,
                                                                             files))
    except images.ImageSizeError as error:
        _fail(f"{page.file.src_uri}: {error}")
        return html


def _finish_notebook_page(html: str, page, config) -> str:
    """mkdocs-jupyter's HTML with the site's heading ids, alt texts, copy buttons and no
    other host."""
    if not hasattr(page, "nb_url"):  # what mkdocs-jupyter's on_pre_page sets
        raise PluginError(f"{page.file.src_uri}: mkdocs-jupyter did not render this notebook; "
                          "its `include` in mkdocs.yml must match the assembled .ipynb")
    done = _build.notebooks[page.file.src_uri][0]
    try:
        html = notebook.finish(html, page.toc, done.assembled, done.path)
    except notebook.NotebookError as error:
        _fail(f"{page.file.src_uri}: {error}")
        return _error_html(str(error), config) + html
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


def on_post_template(output: str, template_name: str, config) -> str:
    """404.html from the default language's build only.

    A server has one 404 page, at the root, and every language's build writes it
    there: left alone, the last one built (Swedish) is what every reader gets
    (mkdocs-static-i18n#284). MkDocs skips a template whose output is empty."""
    i18n = config.plugins["i18n"]
    if template_name == "404.html" and i18n.current_language != i18n.default_language:
        return ""
    return output


@event_priority(-200)  # after mkdocs-static-i18n's, which builds the other languages
def on_post_build(config) -> None:
    """Fail with every page's error, once the last language is built: within
    mkdocs-static-i18n's builds of the other languages, its `building` is set."""
    if _build.failures and not config.plugins["i18n"].building:
        failures, _build.failures = _build.failures, []
        raise PluginError(f"{len(failures)} error(s) on the pages; nothing is published:\n\n"
                          + "\n\n".join(failures))


def on_build_error(error) -> None:
    """A failed build publishes nothing: no page with stale or partial numbers.

    An exception before on_post_build would hide the pages' errors collected so
    far: they are logged here."""
    if _build.failures:
        log.error("Errors in pages before the build stopped:\n\n%s",
                  "\n\n".join(_build.failures))
        _build.failures.clear()
    if not _build.serving and _build.site_dir:
        shutil.rmtree(_build.site_dir, ignore_errors=True)
        log.error("Build failed; removed %s so that nothing half-built is published.",
                  _build.site_dir)


def _error_banner(message: str) -> str:
    body = "\n".join("    " + line for line in message.splitlines())
    title = "The build could not compute this page"
    return f'!!! failure "{title}"\n\n    ```text\n{body}\n    ```\n\n'


def _error_html(message: str, config) -> str:
    """The error banner for a page that MkDocs does not render from Markdown."""
    return Markdown(extensions=config.markdown_extensions,
                    extension_configs=config.mdx_configs).convert(_error_banner(message))
