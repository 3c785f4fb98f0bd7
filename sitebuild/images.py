"""Images that do not move the page while it loads, and that load only when needed.

Every ``<img>`` of a page gets the intrinsic ``width`` and ``height`` of its file
(read from the SVG's root element or the PNG's header), so the browser reserves
its box before the image arrives; Material's CSS scales it to the column
keeping that ratio. Figures from the page's first section heading on are below
the fold on any screen: they get ``loading="lazy"``, and a twin that the colour
scheme hides (``#only-dark`` on a light page) is then never fetched at all.
"""

from __future__ import annotations

import posixpath
import re
import struct
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

IMG = re.compile(r"<img\b[^>]*?/?>")
ATTRIBUTE = r'\b{}="([^"]*)"'
SVG_ROOT = re.compile(r"<svg\b[^>]*>", re.DOTALL)
LENGTH = re.compile(r"^\s*([0-9.]+)\s*(px|pt|)\s*$")
PX_PER_UNIT = {"": 1.0, "px": 1.0, "pt": 96 / 72}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class ImageSizeError(ValueError):
    """An image whose size this build cannot read; the message names it."""


def size(path: Path) -> tuple[int, int]:
    """(width, height) in CSS pixels of an SVG or PNG file."""
    path = Path(path)
    if path.suffix == ".png":
        head = path.read_bytes()[:24]
        if not head.startswith(PNG_SIGNATURE) or head[12:16] != b"IHDR":
            raise ImageSizeError(f"{path.name} is not a PNG file")
        return struct.unpack(">II", head[16:24])
    if path.suffix == ".svg":
        root = SVG_ROOT.search(path.read_text(encoding="utf-8", errors="replace"))
        width, height = (_attribute(root[0], name) if root else None
                         for name in ("width", "height"))
        if width and height and LENGTH.match(width) and LENGTH.match(height):
            return _px(width), _px(height)
        box = _attribute(root[0], "viewBox") if root else None
        if box and len(box.split()) == 4:
            return tuple(round(float(v)) for v in box.split()[2:])
        raise ImageSizeError(f"{path.name}: its <svg> has no width and height in px or pt "
                             "and no viewBox")
    raise ImageSizeError(f"{path.name}: only SVG and PNG sizes are read")


def _attribute(tag: str, name: str) -> str | None:
    found = re.search(ATTRIBUTE.format(name), tag)
    return found[1] if found else None


def _px(length: str) -> int:
    value, unit = LENGTH.match(length).groups()
    return round(float(value) * PX_PER_UNIT[unit])


def sized_and_lazy(html: str, resolve: Callable[[str], Path | None]) -> str:
    """HTML with width, height (and, below the fold, loading="lazy") on every <img>.

    RESOLVE maps an image's src (as written in the page) to its file, or None
    for an image this build did not publish (then it is left alone).
    """
    fold = html.find("<h2")

    def rewrite(match: re.Match) -> str:
        tag = match[0]
        src = _attribute(tag, "src")
        path = resolve(src) if src else None
        added = []
        if path is not None and _attribute(tag, "width") is None:
            width, height = size(path)
            added.append(f'width="{width}" height="{height}"')
        if 0 <= fold < match.start() and _attribute(tag, "loading") is None:
            added.append('loading="lazy"')
        if not added:
            return tag
        return f"<img {' '.join(added)}{tag[4:]}"

    return IMG.sub(rewrite, html)


def published_file(src: str, page_url: str, files) -> Path | None:
    """The file behind an image's SRC on the page at PAGE_URL, among FILES (MkDocs'),
    or None if it is not one of this build's."""
    parts = urlsplit(src)
    if parts.scheme or parts.netloc:
        return None
    url = posixpath.normpath(urljoin("/" + page_url, unquote(parts.path))).lstrip("/")
    found = files.get_file_from_path(url) or next((f for f in files if f.url == url), None)
    return Path(found.abs_src_path) if found and found.abs_src_path else None
