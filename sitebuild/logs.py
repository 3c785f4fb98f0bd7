"""A quiet build log: the build's own lines, warnings and errors, and little else.

Other libraries' INFO lines are not logged (their loggers log from WARNING up):
mkdocs-static-i18n prints a line of several kilobytes per language on every build
(the files it reconfigured), and mkdocs-jupyter a line per notebook page converted,
which under `mkdocs serve` bury the errors an author is looking for.
"""

from __future__ import annotations

import logging

CHATTY = (
    "mkdocs.plugins.mkdocs_static_i18n",
    "mkdocs.plugins.mkdocs_jupyter",
    "mkdocs.mkdocs-jupyter",
)


def quiet() -> None:
    for name in CHATTY:
        logging.getLogger(name).setLevel(logging.WARNING)
