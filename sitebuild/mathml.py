"""TeX to MathML at build time, so that math needs no script and no CDN.

pymdownx.arithmatex (generic mode) leaves ``<span class="arithmatex">\\(...\\)</span>``
and ``<div class="arithmatex">\\[...\\]</div>`` in the page; this replaces each
with MathML, which browsers render natively. A Python-Markdown extension
(``- sitebuild.mathml`` in mkdocs.yml's markdown_extensions), so that any generator
that loads those (MkDocs, ProperDocs, Zensical) renders math the same way; TeX it
cannot render stops the build, naming the page and the formula.
"""

from __future__ import annotations

import html
import re

from latex2mathml.converter import convert
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor

# Inline math, with what follows it up to the next space: punctuation, "'s", evidence
# marks (sitebuild.evidence). A browser may break a line right after a <math> element,
# even before a comma, so the formula and that run are kept on one line together.
INLINE = re.compile(r'<span class="arithmatex">\\\((?P<tex>.*?)\\\)</span>'
                    r'(?P<after>(?:[^\s<]|<sup class="evidence"[^>]*>.*?</sup>)*)', re.DOTALL)
BLOCK = re.compile(r'<div class="arithmatex">\\\[(?P<tex>.*?)\\\]</div>', re.DOTALL)


class MathError(ValueError):
    pass


# A function name (\ln, \log, \exp: latex2mathml's only <mi> of several letters) and
# the atom it applies to: TeX sets a thin space between them, MathML sets none, so
# "\ln 3" would read "ln3". Before "(" TeX sets none either.
FUNCTION_THEN_ATOM = re.compile(
    r"(<mi>[A-Za-z]{2,}</mi>)(?=<(?:mi|mn|msub|msup|msubsup|mfrac|msqrt|mrow)[ >])")
THIN_SPACE = '<mspace width="0.1667em"></mspace>'


def _converter(display: str):
    def replace(match: re.Match) -> str:
        tex = html.unescape(match["tex"]).strip()
        try:
            mathml = convert(tex, display=display)
        except Exception as error:  # latex2mathml raises many kinds for bad TeX
            raise MathError(f"cannot render TeX {tex!r}: {error}") from error
        mathml = FUNCTION_THEN_ATOM.sub(rf"\1{THIN_SPACE}", mathml)
        # The TeX stays as the accessible name's fallback for search and copy.
        mathml = mathml.replace("<math ", f'<math alttext="{html.escape(tex)}" ', 1)
        if display == "block":
            return f'<div class="math-display">{mathml}</div>'
        after = match["after"]
        return f'<span class="math-run">{mathml}{after}</span>' if after else mathml

    return replace


def render(page_html: str) -> str:
    page_html = BLOCK.sub(_converter("block"), page_html)
    return INLINE.sub(_converter("inline"), page_html)


class _MathML(Postprocessor):
    def run(self, text: str) -> str:
        return render(text)


class MathMLExtension(Extension):
    """Python-Markdown's form of render(): after raw HTML is put back (priority 30)."""

    def extendMarkdown(self, md) -> None:  # noqa: N802 (Python-Markdown's name)
        md.postprocessors.register(_MathML(md), "mathml", 5)


def makeExtension(**kwargs) -> MathMLExtension:  # noqa: N802 (how Python-Markdown loads it)
    return MathMLExtension(**kwargs)
