"""MkDocs hooks: adapters between MkDocs and the build's plain functions.

They hand the computations' files and values (sitebuild.runs) to MkDocs, fill the
pages (sitebuild.shortcodes), point each language's notebook page at its notebook
for mkdocs-jupyter (sitebuild.notebook), give each page its policy (sitebuild.csp)
and publish the site only after a good build (sitebuild.publish). Every event fires
once per language (sitebuild.languages); RunCache runs a computation once per change.

``mkdocs build`` fails loudly: a failed run stops it at once; what is wrong with a
page is collected over every page of every language, and the build fails naming it
all, for one round of fixes. ``mkdocs serve`` shows the same errors on the pages and
in the log, and recovers once a watched edit changes a hash and forces a new run.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from markdown import Markdown
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.utils.meta import get_data

from sitebuild import (
    catalogue,
    csp,
    dashes,
    figures,
    images,
    languages,
    logs,
    notebook,
    notebook_cache,
    parity,
    publish,
    scratch,
    templates,
)
from sitebuild.report import Report
from sitebuild.runs import RunCache, RunFailed, computations, watched_paths
from sitebuild.shortcodes import SHORTCODE, expand, expand_language

log = logging.getLogger("mkdocs.hooks.sitebuild")

NOTEBOOK_RUN = "companion"  # the computation that executes the notebook
_caches: dict[Path, RunCache] = {}  # by project root: tests build copies of the project


@dataclass
class _Build:
    """What the events of one build (under `serve`, the latest rebuild) share."""

    command: str = "build"  # or "serve", "gh-deploy"
    dirty: bool = False
    staged: publish.Staged | None = None  # the site until it is put in place (build only)
    error: str | None = None  # why the computations failed: the pages show it, and no number
    report: Report = field(default_factory=Report)  # what is wrong with pages, every language
    runs: dict = field(default_factory=dict)  # package -> runs.Run
    outcomes: dict = field(default_factory=dict)  # claim name -> claims.Outcome, this run's
    notebooks: dict = field(default_factory=dict)  # src_uri -> (notebook.Page, front matter)
    started: float | None = None  # when this build (under serve, this rebuild) began

    @property
    def serving(self) -> bool:
        return self.command == "serve"


_build = _Build()


def on_startup(command: str, dirty: bool) -> None:
    _build.command, _build.dirty = command, dirty
    _build.report = Report()
    logs.quiet()
    scratch.remove_leftovers()  # of builds that were killed


def on_shutdown() -> None:
    if _build.staged is not None:  # put in place only after the strict check
        publish.finish(_build.staged)
        _build.staged = None
    for cache in _caches.values():
        cache.clear()


def _fail(path: str, message: str, line: int = 1) -> None:
    """What is wrong with a page: a build fails once every language is built, and a
    preview logs it then (on_post_build); the page shows it too."""
    _build.report.add(path, line, message)


def _source_path(file: File, config) -> str:
    """FILE's source as an author names it: docs/attention.<code>.md."""
    root = Path(config.config_file_path).resolve().parent
    source = Path(config.docs_dir).resolve() / file.src_uri
    try:
        return str(source.relative_to(root))
    except ValueError:
        return str(source)


def on_config(config):
    languages.configure(config)  # the language records: checked, search languages
    root = Path(config.config_file_path).resolve().parent
    if _build.started is None:
        _build.started = time.perf_counter()
    cache = _caches.setdefault(root, RunCache(computations(root)))
    config.watch.extend(sorted(set(watched_paths(cache.computations)) - set(config.watch)))
    if _build.staged is None and not _build.serving and not publish.served(config.site_dir):
        _build.staged = publish.stage(Path(config.site_dir), _build.dirty)
        config.site_dir = str(_build.staged.folder)  # for every language (sitebuild.publish)
    try:
        runs = cache.refresh()
    except RunFailed as error:
        _build.runs, _build.error, _build.outcomes = {}, str(error), {}
        if not _build.serving:
            raise PluginError(str(error)) from None
        log.error(str(error))
        return config
    if runs is not _build.runs or not _build.outcomes:
        _build.outcomes = catalogue.check_all(_values(runs))
    _build.runs, _build.error = runs, None
    return config


def _values(runs: dict) -> dict:
    return {name: run.data for name, run in runs.items()}


def on_pre_build(config) -> None:  # after mkdocs-static-i18n's on_config has set `extra`
    languages.titled_permalinks(config.mdx_configs, config.extra)
    languages.for_page(config.extra, languages.building(config))


def on_env(env, config, files):
    languages.with_material_words(env, languages.building(config))
    return templates.reuse_compiled(env)


@event_priority(-150)  # after mkdocs-static-i18n's (-100), which makes the files anew
def on_files(files: Files, config) -> Files:
    if not languages.building_other_language(config):  # once per build: sources only
        _check_translations(config)
    for run in _build.runs.values():
        for path in run.files():
            files.append(File.generated(config, f"{notebook.RUN_DIR}/{path.name}",
                                        abs_src_path=str(path)))
    if _build.outcomes:
        uses = catalogue.uses(Path(config.docs_dir), Path(config.config_file_path).parent)
        _build.report.claim_uses = uses
        files.append(File.generated(config, f"{notebook.RUN_DIR}/claims.json", content=json.dumps(
            catalogue.entries(_build.outcomes, uses), ensure_ascii=False, indent=1)))
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
    if match := SHORTCODE.search(text):
        _fail(_source_path(file, config), "a notebook cannot use shortcodes: its Markdown is "
              "shown as written, on the page and in Jupyter",
              text.count("\n", 0, match.start()) + 1)
    try:  # into a folder of the run's, removed with it (Run.files() publishes files only)
        language = notebook.page_language(file.src_uri, languages.codes(config)[0])
        page = notebook.publish(Path(file.abs_src_path), nbformat.from_dict(run.data),
                                file.src_uri, language, config.site_url, run.out_dir / "pages")
    except notebook.NotebookError as error:
        _fail(_source_path(file, config), str(error))
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
    language = languages.of_page(page, config)
    path = _source_path(page.file, config)
    values = _values(_build.runs)
    values[figures.PUBLISHED] = figures.published_files(_build.runs)
    result = expand(markdown, values, language, _build.outcomes, _first_line(page.file, markdown))
    if not result.errors:
        return result.markdown
    for error in result.errors:
        if error.claim:
            _build.report.refuted(error.claim, _build.outcomes.get(error.claim))
        else:
            _fail(path, error.message, error.line)
    shown = "\n".join(f"{path}:{e.line}: {e.message}" for e in result.errors)
    return _error_banner(shown) + expand_language(markdown, language)


@event_priority(-50)  # after mkdocs-jupyter's, which sets the page's render
def on_pre_page(page, config, files):
    if page.file.src_uri in _build.notebooks and hasattr(page, "nb_url"):
        notebook_cache.render_once(page, dict(config.plugins["mkdocs-jupyter"].config))
    return page


def _first_line(file: File, markdown: str) -> int:
    """The line of FILE's source on which MARKDOWN (the source after its front matter)
    begins."""
    try:
        source = Path(file.abs_src_path).read_text(encoding="utf-8")
    except OSError:
        return 1
    return source[: len(source) - len(markdown)].count("\n") + 1 if source.endswith(markdown) else 1


def _check_translations(config) -> None:
    """Translation drift is an error of the translated page (sitebuild.parity)."""
    root = Path(config.config_file_path).resolve().parent
    codes = languages.codes(config)
    for drift in parity.check_docs(Path(config.docs_dir).resolve(), codes, root):
        _fail(drift.path, drift.message, drift.line)


def on_page_content(html: str, page, config, files) -> str:
    if page.file.src_uri in _build.notebooks:
        html = _finish_notebook_page(html, page, config)
    html = dashes.unbroken_before_dashes(html)
    try:
        return images.sized_and_lazy(html, lambda src: images.published_file(src, page.url,
                                                                             files))
    except images.ImageSizeError as error:
        _fail(_source_path(page.file, config), str(error))
        return html


def _finish_notebook_page(html: str, page, config) -> str:
    """mkdocs-jupyter's HTML with the site's heading ids, alt texts and copy buttons, and
    nothing from another host."""
    if not hasattr(page, "nb_url"):  # what mkdocs-jupyter's on_pre_page sets
        raise PluginError(f"{page.file.src_uri}: mkdocs-jupyter did not render this notebook; "
                          "its `include` in mkdocs.yml must match the assembled .ipynb")
    done = _build.notebooks[page.file.src_uri][0]
    try:
        html = notebook.finish(html, page.toc, done.assembled, done.path)
    except notebook.NotebookError as error:
        _fail(_source_path(page.file, config), str(error))
        return _error_html(str(error), config) + html
    return html


@event_priority(-100)  # after mkdocs-static-i18n has set the language links
def on_page_context(context, page, config, nav):
    languages.relative_links(config.extra)
    return context


def on_post_template(output: str, template_name: str, config) -> str:
    if not languages.writes_template(template_name, config):  # MkDocs skips an empty output
        return ""
    return _with_policy(output, config) if template_name.endswith(".html") else output


@event_priority(-100)  # after every other plugin: the policy hashes the final HTML
def on_post_page(output: str, page, config) -> str:
    return _with_policy(output, config)


def _with_policy(html: str, config) -> str:
    """The page with its Content-Security-Policy (sitebuild.csp); not in a preview, whose
    live-reload script MkDocs adds to each page as it serves it."""
    previewing = _build.serving or publish.served(config.site_dir)
    return html if previewing else csp.with_policy(html)


@event_priority(-200)  # after mkdocs-static-i18n's, which builds the other languages
def on_post_build(config) -> None:
    """Fail with every page's error, once the last language is built: within
    mkdocs-static-i18n's builds of the other languages, its `building` is set."""
    if languages.building_other_language(config):
        return
    report, _build.report = _build.report, Report()
    seconds = time.perf_counter() - (_build.started or time.perf_counter())
    _build.started = None
    if _build.serving:
        if report.count:
            log.error(report.text(published=True))
        log.info(report.summary(seconds))
        return
    if report.count:
        raise PluginError(report.text())
    if _build.staged is not None:  # gh-deploy reads site_dir after on_shutdown
        config.site_dir, _build.staged.built = str(_build.staged.target), True


def on_build_error(error) -> None:
    """A failed build publishes nothing: no page with stale or partial numbers
    (on_shutdown discards what it staged).

    An exception before on_post_build would hide the pages' errors collected so
    far: they are logged here."""
    if _build.report.count:
        log.error("Errors in pages before the build stopped:\n\n%s", _build.report.text())
        _build.report = Report()
    _build.started = None
    if _build.staged is not None:
        _build.staged.built = False
        log.error("Build failed; %s is left as it was: nothing is published.",
                  _build.staged.target)


def _error_banner(message: str) -> str:
    body = "\n".join("    " + line for line in message.splitlines())
    title = "The build could not compute this page"
    return f'!!! failure "{title}"\n\n    ```text\n{body}\n    ```\n\n'


def _error_html(message: str, config) -> str:
    """The error banner for a page that MkDocs does not render from Markdown."""
    return Markdown(extensions=config.markdown_extensions,
                    extension_configs=config.mdx_configs).convert(_error_banner(message))
