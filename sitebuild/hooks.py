"""MkDocs hooks: run the computations, hand their files to MkDocs, fill the pages.

mkdocs-static-i18n builds each language by running the whole build again, so
every event here fires once per language. Expensive work is keyed by the hash
of its source (sitebuild.runs.RunCache): the first language runs it, the
others reuse it.

``mkdocs build`` fails loudly on anything wrong. A failed run stops it at once;
what is wrong with a page (an unknown result name, a claim the run refutes, a
notebook cell that fails) is collected over every page of every language, and
the build then fails naming all of it, so that an author fixes everything in one
round. ``mkdocs serve`` shows the same errors on the pages and in the log instead,
and recovers by itself once the cause is fixed, because the experiment's folder
is watched and its new hash forces a new run.
"""

from __future__ import annotations

import logging
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import nbformat
from markdown import Markdown
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from sitebuild import (
    csp,
    images,
    mathml,
    notebook_download,
    notebook_page,
    notebooks,
    publish,
    scratch,
    templates,
)
from sitebuild.runs import RunCache, RunFailed, computations, watched_paths
from sitebuild.shortcodes import SHORTCODE, ShortcodeError, expand, expand_language

log = logging.getLogger("mkdocs.hooks.sitebuild")

GENERATED_DIR = "run"  # where results.json and the figures are published
_caches: dict[Path, RunCache] = {}  # by project root: tests build copies of the project
_notebooks: dict[Path, notebooks.NotebookCache] = {}  # likewise


@dataclass
class NotebookPage:
    """A language's notebook page in this build: what mkdocs-jupyter renders, from what."""

    page_path: str  # "uk/notebook/"
    executed: nbformat.NotebookNode  # the language's notebook with the execution's outputs
    dark: nbformat.NotebookNode | None  # the same with the dark execution's (figure twins)
    rendered: Path  # its page form, the .ipynb mkdocs-jupyter converts
    error: str | None  # a failed execution: shown on the page (a build then fails)


@dataclass
class _Build:
    """What the events of one build (under `serve`, the latest rebuild) share."""

    command: str = "build"  # or "serve", "gh-deploy"
    dirty: bool = False
    staged: publish.Staged | None = None  # the site until it is put in place (build only)
    built: bool = False  # the last language's build has ended without an error
    error: str | None = None  # why the computations failed: the pages show it, and no number
    failures: list[str] = field(default_factory=list)  # what is wrong with pages (build only)
    runs: dict = field(default_factory=dict)  # name -> runs.Run
    values: dict = field(default_factory=dict)  # name -> its JSON, as the pages look values up
    notebooks: notebooks.NotebookCache | None = None  # this project's executions
    notebook_pages: dict[str, NotebookPage] = field(default_factory=dict)  # by abs_src_path
    rendered_from: dict[str, str] = field(default_factory=dict)  # src_uri -> abs_src_path,
    # while mkdocs-jupyter renders the page from its executed notebook

    @property
    def serving(self) -> bool:
        return self.command == "serve"


_build = _Build()


def on_startup(command: str, dirty: bool) -> None:
    _build.command, _build.dirty, _build.built = command, dirty, False
    _build.failures.clear()
    scratch.remove_leftovers()  # of builds that were killed


def on_shutdown() -> None:
    if _build.staged is not None:  # put in place only after the strict check
        (publish.publish if _build.built else publish.discard)(_build.staged)
        _build.staged = None
    for cache in _caches.values():
        cache.clear()
    for notebook_cache in _notebooks.values():
        notebook_cache.close()


def _stop(message: str) -> None:
    """Stop a build now; in a preview, log the error (the pages show it)."""
    if not _build.serving:
        raise PluginError(message)
    log.error(message)


def _fail(message: str) -> None:
    """What is wrong with a page: a build fails once every language is built
    (on_post_build); a preview logs it (the page shows it)."""
    if not _build.serving:
        _build.failures.append(message)
        return
    log.error(message)


def on_config(config):
    _configure_mkdocs_jupyter(config)
    root = Path(config.config_file_path).resolve().parent
    cache = _caches.setdefault(root, RunCache(computations(root)))
    config.watch.extend(sorted(set(watched_paths(cache.computations)) - set(config.watch)))
    if _build.staged is None and not _build.serving and not publish.served(config.site_dir):
        _build.staged = publish.stage(Path(config.site_dir), _build.dirty)
        config.site_dir = str(_build.staged.folder)  # for every language (sitebuild.publish)
    # Before the runs: the kernel executes the notebook while they compute.
    _build.notebooks = _notebooks.setdefault(root, notebooks.NotebookCache(root))
    _build.notebooks.start(notebooks.find(Path(config.docs_dir)))
    try:
        runs = cache.refresh()
        _build.error = None
    except RunFailed as error:
        runs = {}
        _build.error = str(error)
        _stop(str(error))
    _build.values = {name: run.data for name, run in runs.items()}
    _build.runs = runs
    return config


def on_pre_build(config) -> None:
    """Headings' links titled in the language being built (after mkdocs-static-i18n's
    on_config has set its `extra`; MkDocs makes each page's Markdown from mdx_configs)."""
    config.mdx_configs.setdefault("toc", {})["permalink_title"] = config.extra["permalink_title"]


def _configure_mkdocs_jupyter(config) -> None:
    """mkdocs-jupyter renders what sitebuild.notebooks executed once: it must not
    execute again (once per language) nor load scripts from a CDN.

    Its cache (keyed on the bytes of the executed notebook it renders) is off for
    `mkdocs build`, so no page comes from an earlier build. `mkdocs serve` turns it
    on in a folder of this process, one per language (mkdocs-jupyter evicts, after
    each language's build, every entry that build did not use): a prose edit
    elsewhere then does not convert the notebook pages again.
    """
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None:
        raise PluginError("mkdocs.yml must enable mkdocs-jupyter: it renders the notebook pages")
    wrong = [name for name in ("execute", "include_requirejs") if plugin.config[name]]
    if wrong:
        raise PluginError(f"mkdocs.yml: mkdocs-jupyter must not {', '.join(wrong)} (the build "
                          "executes each notebook once, sitebuild/notebooks.py, and the site "
                          "loads nothing from another host)")
    plugin.config["cache"] = _build.serving
    i18n = config.plugins["i18n"]  # its on_config, which sets the language, runs after this
    language = i18n.current_language or i18n.default_language
    plugin.config["cache_dir"] = str(notebooks.output_dir() / "mkdocs-jupyter" / language)


def on_files(files: Files, config) -> Files:
    for run in _build.runs.values():
        for path in run.files():
            files.append(File.generated(config, f"{GENERATED_DIR}/{path.name}",
                                        abs_src_path=str(path)))
    i18n = config.plugins["i18n"]
    for path in _build.notebooks.paths():
        page_path = _page_path(path.relative_to(config.docs_dir).as_posix(), i18n)
        if page_path is not None:
            _publish_notebook(path, page_path, files, config)
    return files


def _page_path(src_uri: str, i18n) -> str | None:
    """"uk/notebook/" for "notebook.uk.md" in the Ukrainian build; None in another's."""
    stem, _, language = src_uri.removesuffix(".md").partition(".")
    if (language or i18n.default_language) != i18n.current_language:
        return None
    return f"{language}/{stem}/" if language else f"{stem}/"


def _publish_notebook(path: Path, page_path: str, files: Files, config) -> None:
    """The notebook mkdocs-jupyter renders as the page, the images it shows, and the
    .ipynb download next to the page, all from the one execution.

    A failed execution leaves the page its code without outputs, under the error
    (a build then fails at its end, on_post_build).
    """
    # Files on disk, not File.generated(content=...): mkdocs-static-i18n sorts
    # files by their source path and fails on a file that has none.
    folder = notebooks.output_dir()
    stem = path.name.partition(".")[0]
    to_render = folder / "to-render" / page_path / f"{stem}.ipynb"  # unpublished
    error = None
    try:
        executed = _build.notebooks.result(path)
        dark = _build.notebooks.dark_result(path)
        page_url = notebook_download.page_url(config.site_url, page_path)
        published = [*(image for book in (executed, dark) if book is not None
                       for image in notebook_page.write_images(
                           book, folder / notebook_page.IMAGE_DIR)),
                     notebook_download.write(executed, page_url,
                                             folder / page_path / f"{stem}.ipynb")]
        notebook_page.write(executed, page_path, to_render, dark)
    except (notebooks.NotebookFailed, ValueError) as failure:
        error = f"{path.name}: {failure}"
        _fail(error)
        executed, dark, published = _build.notebooks.source(path).notebook, None, []
        notebook_page.write(executed, page_path, to_render)
    _build.notebook_pages[str(path)] = NotebookPage(page_path, executed, dark, to_render,
                                                    error)
    for file in published:
        files.append(File.generated(config, file.relative_to(folder).as_posix(),
                                    abs_src_path=str(file)))


def _language(page, config) -> str:
    return getattr(page.file, "locale", None) or config.theme.get("language", "en")


def on_env(env, config, files):
    """Each language's build compiles the theme's templates once for all (sitebuild.templates)."""
    env.bytecode_cache = templates.CACHE
    return env


@event_priority(100)  # before other plugins read the Markdown
def on_page_markdown(markdown: str, page, config, files) -> str:
    if _build.notebooks.has(page.file.abs_src_path):
        _render_executed_notebook(page)
        return markdown
    if _build.error:
        # No numbers at all rather than stale ones: every value shows as "?".
        return _error_banner(_build.error) + SHORTCODE.sub("?", markdown)
    try:
        expanded, checked = expand(markdown, _build.values, _language(page, config))
    except ShortcodeError as error:
        message = f"{page.file.src_uri}: {error}"
        _fail(message)
        return _error_banner(message) + expand_language(markdown, _language(page, config))
    if checked:
        log.debug("%s: %d claims hold for this run", page.file.src_uri, len(checked))
    return expanded


def _render_executed_notebook(page) -> None:
    """Point mkdocs-jupyter at this language's executed notebook.

    mkdocs-jupyter's on_pre_page replaced the page's render with one that converts
    the file at page.file.abs_src_path when it runs, which is right after this
    event. Until then the page is its Jupytext source: MkDocs has read its front
    matter (the description) from there. on_page_content points it back.
    """
    if not hasattr(page, "nb_url"):  # what mkdocs-jupyter's on_pre_page sets
        raise PluginError(f"{page.file.src_uri}: mkdocs-jupyter does not render this "
                          "notebook; its `include` in mkdocs.yml must match the file")
    source = page.file.abs_src_path
    if SHORTCODE.search(page.markdown or ""):
        _fail(f"{page.file.src_uri}: a notebook cannot use shortcodes: its Markdown is "
              "shown as written, on the page and in Jupyter")
    page.file.abs_src_path = str(_build.notebook_pages[source].rendered)
    _build.rendered_from[page.file.src_uri] = source


def on_page_content(html: str, page, config, files) -> str:
    if page.file.src_uri in _build.rendered_from:
        html = _finish_notebook_page(html, page, config)
    try:
        html = mathml.render(html)
    except mathml.MathError as error:
        _fail(f"{page.file.src_uri}: {error}")
    try:
        return images.sized_and_lazy(html, lambda src: _published_file(src, page, files))
    except images.ImageSizeError as error:
        _fail(f"{page.file.src_uri}: {error}")
        return html


def _finish_notebook_page(html: str, page, config) -> str:
    """mkdocs-jupyter's HTML with the site's heading ids, alt texts and no other host;
    under the error of a failed execution (a build then fails at its end)."""
    page.file.abs_src_path = _build.rendered_from.pop(page.file.src_uri)
    notebook = _build.notebook_pages[page.file.abs_src_path]
    try:
        html = notebook_page.finish(html, page.toc, notebook.executed, notebook.page_path,
                                    notebook.dark)
    except notebook_page.PageError as error:
        _fail(f"{page.file.src_uri}: {error}")
        return _error_html(str(error), config) + html
    if notebook.error or _build.error:
        return _error_html(notebook.error or _build.error, config) + html
    return html


def _published_file(src: str, page, files: Files) -> Path | None:
    """The file behind an image's src on PAGE, or None if it is not one of this build's."""
    parts = urlsplit(src)
    if parts.scheme or parts.netloc:
        return None
    url = posixpath.normpath(urljoin("/" + page.url, unquote(parts.path))).lstrip("/")
    found = files.get_file_from_path(url) or next((f for f in files if f.url == url), None)
    return Path(found.abs_src_path) if found and found.abs_src_path else None


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

    A server has one 404 page, at the root, and every language's build writes
    it there: left alone, the last language built (Swedish) is the one every
    reader gets (mkdocs-static-i18n#284). MkDocs skips a template whose output
    is empty, so the English page stays.
    """
    i18n = config.plugins["i18n"]
    if template_name == "404.html" and i18n.current_language != i18n.default_language:
        return ""
    return _with_policy(output, config) if template_name.endswith(".html") else output


@event_priority(-100)  # after every other plugin: the policy hashes the final HTML
def on_post_page(output: str, page, config) -> str:
    return _with_policy(output, config)


def _with_policy(html: str, config) -> str:
    """The page with its Content-Security-Policy (sitebuild.csp); not in a preview, whose
    live-reload script MkDocs adds to each page as it serves it."""
    if _build.serving or publish.served(config.site_dir):
        return html
    return csp.with_policy(html)


@event_priority(-200)  # after mkdocs-static-i18n's, which builds the other languages
def on_post_build(config) -> None:
    """Fail with every page's error, once the last language is built: within
    mkdocs-static-i18n's builds of the other languages, its `building` is set."""
    if config.plugins["i18n"].building:
        return
    if _build.failures:
        failures, _build.failures = _build.failures, []
        raise PluginError(f"{len(failures)} error(s) on the pages; nothing is published:\n\n"
                          + "\n\n".join(failures))
    if _build.staged is not None:  # gh-deploy reads site_dir after on_shutdown
        config.site_dir, _build.built = str(_build.staged.target), True


def on_build_error(error) -> None:
    """A failed build publishes nothing: no page with stale or partial numbers
    (on_shutdown discards what it staged).

    An exception before on_post_build would hide the pages' errors collected so
    far: they are logged here."""
    if _build.failures:
        log.error("Errors in pages before the build stopped:\n\n%s",
                  "\n\n".join(_build.failures))
        _build.failures.clear()
    _build.built = False
    if _build.staged is not None:
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

