"""Help for a misspelt name: the closest names that exist, and what exists at all."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

# Past this many names a list stops helping: the message says where to find them all.
SHOWN = 12


def closest(name: str, known: Iterable[str], count: int = 3) -> str:
    """The names of KNOWN closest to NAME, as "`a`, `b` or `c`"; '' if none is close."""
    matches = difflib.get_close_matches(name, [str(k) for k in known], n=count, cutoff=0.6)
    quoted = [f"`{m}`" for m in matches]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def listing(known: Iterable[str]) -> str:
    """KNOWN as a short list, cut after SHOWN names."""
    names = sorted(str(k) for k in known)
    shown = ", ".join(names[:SHOWN])
    return shown + (f", … ({len(names) - SHOWN} more)" if len(names) > SHOWN else "")
