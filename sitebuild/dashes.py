"""A dash set between spaces never begins a line.

Ukrainian and Swedish set a dash between words with a space on each side (« — »,
” – ”). With a plain space before it, a browser may break the line there, and the
next line then starts with the dash, which typesetting in both languages forbids;
the space before such a dash becomes a no-break space in the text a reader sees.
Attributes (alt texts) are not laid out in lines and keep their spaces, as do code,
preformatted text, scripts, styles and math. So do headings: the theme also writes
a heading's words into the page's title and table of contents, from the Markdown,
and the three stay alike.
"""

from __future__ import annotations

import re

NO_BREAK_SPACE = "\u00a0"
KEPT = re.compile(r"<(pre|code|script|style|math|h[1-6])\b.*?</\1\s*>",
                  re.DOTALL | re.IGNORECASE)
TAG = re.compile(r"(<[^>]*>)")
# Spaces (a source line may end before the dash) before an em or en dash that a
# space follows; a range's dash stands between digits or thin spaces, not spaces.
SPACE_BEFORE_DASH = re.compile(r"[ \n]+(?=[—–][ \n])")


def _text_set(html: str) -> str:
    """HTML with no kept element: the text between its tags set, the tags as they are."""
    pieces = TAG.split(html)  # text, tag, text, …, text
    pieces[::2] = [SPACE_BEFORE_DASH.sub(NO_BREAK_SPACE, text) for text in pieces[::2]]
    return "".join(pieces)


def unbroken_before_dashes(html: str) -> str:
    """HTML with a no-break space before every spaced dash in its prose."""
    parts, start = [], 0
    for kept in KEPT.finditer(html):
        parts += [_text_set(html[start:kept.start()]), kept[0]]
        start = kept.end()
    parts.append(_text_set(html[start:]))
    return "".join(parts)
