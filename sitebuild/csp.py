"""A Content-Security-Policy for every page, as a <meta> element early in its <head>.

The page may load scripts, styles, images, fonts, workers and data from its own
origin only, and no other host. Its inline scripts (Material's, and on the notebook
pages mkdocs-jupyter's) and inline style elements (mkdocs-jupyter's) run because
the policy names the sha256 hash of each, computed here from the page's final HTML:
no 'unsafe-inline'. So the browser refuses anything else: a script, style or image
from another host or port, an inline script the build did not emit, an inline
event handler (onclick="…"), a style attribute in the HTML, eval() and
new Function(), a worker from a blob: or data: URL, an <object>, a <base> elsewhere.

A <meta> policy applies to what follows it, so it goes right after <meta charset>,
before every script and style. (frame-ancestors, report-uri and sandbox cannot be
set from a <meta>; a browser would log an error for each.)
"""

from __future__ import annotations

import base64
import hashlib
import html
import re

# Executable inline scripts: no src, and no type or a JavaScript one. A JSON data
# block (<script type="application/json">) is not run, and needs no hash.
_SCRIPT = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script\s*>",
                     re.IGNORECASE | re.DOTALL)
_STYLE = re.compile(r"<style(?:\s[^>]*)?>(?P<body>.*?)</style\s*>", re.IGNORECASE | re.DOTALL)
_SRC = re.compile(r"\ssrc\s*=", re.IGNORECASE)
_TYPE = re.compile(r"""\stype\s*=\s*["']?(?P<type>[^"'\s>]*)""", re.IGNORECASE)
_JAVASCRIPT = {"", "text/javascript", "application/javascript", "module"}
_CHARSET = re.compile(r"<meta\s+charset=[^>]*>", re.IGNORECASE)
_HEAD = re.compile(r"<head(?:\s[^>]*)?>", re.IGNORECASE)


class PolicyError(ValueError):
    """A page with no <head> to put the policy in."""


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def inline_scripts(page: str) -> list[str]:
    """The bodies of PAGE's inline scripts that a browser runs."""
    found = []
    for match in _SCRIPT.finditer(page):
        attrs = match["attrs"]
        kind = _TYPE.search(attrs)
        if not _SRC.search(attrs) and (kind["type"].lower() if kind else "") in _JAVASCRIPT:
            found.append(match["body"])
    return found


def inline_styles(page: str) -> list[str]:
    return [match["body"] for match in _STYLE.finditer(page)]


def policy(page: str) -> str:
    """The policy for PAGE: its own origin, and the hashes of its inline scripts and styles."""
    scripts = " ".join(sorted({_hash(body) for body in inline_scripts(page)}))
    styles = " ".join(sorted({_hash(body) for body in inline_styles(page)}))
    directives = {
        "default-src": "'self'",
        "script-src": f"'self' {scripts}".strip(),
        "style-src": f"'self' {styles}".strip(),
        # data: for images: Material's and mkdocs-jupyter's style sheets draw their
        # icons as SVG in data: URLs (mask-image), which CSS loads as images. A data:
        # URL is part of the page, from no host.
        "img-src": "'self' data:",
        "font-src": "'self'",
        "connect-src": "'self'",  # fetch of run/results.json, the search index
        "worker-src": "'self'",  # Material's search worker, a widget's worker from a file
        "object-src": "'none'",
        "base-uri": "'self'",
        "form-action": "'self'",
    }
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def with_policy(page: str) -> str:
    """PAGE with its policy in a <meta> right after <meta charset> (or <head>)."""
    anchor = _CHARSET.search(page) or _HEAD.search(page)
    if anchor is None:
        raise PolicyError("the page has no <head> for its Content-Security-Policy")
    meta = (f'<meta http-equiv="Content-Security-Policy" '
            f'content="{html.escape(policy(page), quote=False)}">')  # no " in a policy
    return page[:anchor.end()] + meta + page[anchor.end():]
