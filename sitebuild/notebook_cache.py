"""mkdocs-jupyter's rendering of a notebook page, kept for the rebuilds of `serve`.

mkdocs-jupyter renders a notebook page by replacing the page's ``render`` with its
own, which converts the .ipynb with nbconvert at every build, in every language. Its
``cache`` option keeps the result on disk, but evicts at the end of one language's
build what the other languages' builds have not used yet, so under mkdocs-static-i18n
two of three pages are converted again each time. Here the rendering is kept in
memory, keyed on the notebook's bytes and mkdocs-jupyter's settings: a prose edit of
another page converts nothing, an edit of the notebook's page converts that page.
"""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path

_RENDERED: dict[str, tuple] = {}  # page -> (key, (content, toc, title)): the last only


def render_once(page, settings: dict) -> None:
    """Make PAGE's render (mkdocs-jupyter's, set by its on_pre_page) convert its .ipynb
    only when that notebook or SETTINGS (mkdocs-jupyter's) changed since a build that
    converted it."""
    digest = hashlib.sha256(Path(page.file.abs_src_path).read_bytes())
    digest.update(repr(sorted(settings.items())).encode())
    key, render = digest.hexdigest(), page.render

    def render_once(config, files):
        kept_key, kept = _RENDERED.get(page.file.src_uri, (None, None))
        if kept_key != key:
            render(config, files)
            kept = copy.deepcopy((page.content, page.toc, page.title))
            _RENDERED[page.file.src_uri] = key, kept
        # A copy: the hooks give the table of contents the site's heading ids.
        page.content, page.toc, page.title = copy.deepcopy(kept)

    page.render = render_once
