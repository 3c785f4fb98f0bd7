"""A dash set between spaces never begins a line.

Ukrainian and Swedish set a dash between words with a space on each side (« — »,
” – ”). With a plain space before it, a browser may break the line there, and the
next line then starts with the dash, which typesetting in both languages forbids;
the space before such a dash becomes a no-break space. Code, preformatted text,
scripts, styles and math keep their spaces as written.
"""

from __future__ import annotations

import re

NO_BREAK_SPACE = "\u00a0"
# Elements whose text is not prose: a listing's dash is the program's.
KEPT = re.compile(r"<(pre|code|script|style|math)\b.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
# Spaces (a source line may end before the dash) before an em or en dash that a
# space follows; a range's dash stands between digits or thin spaces, not spaces.
SPACE_BEFORE_DASH = re.compile(r"[ \n]+(?=[—–][ \n])")


def unbroken_before_dashes(html: str) -> str:
    """HTML with a no-break space before every spaced dash in its prose."""
    parts, start = [], 0
    for kept in KEPT.finditer(html):
        parts += [SPACE_BEFORE_DASH.sub(NO_BREAK_SPACE, html[start:kept.start()]), kept[0]]
        start = kept.end()
    parts.append(SPACE_BEFORE_DASH.sub(NO_BREAK_SPACE, html[start:]))
    return "".join(parts)
