"""One line per figure in page Markdown: ``{{ figure NAME "ALT" }}``.

    {{ figure query_response "Heat map of the learned query response: …" }}
    {{ figure bank-pattern-LANG "A square grid of attention weights: …" }}

A figure is drawn for a light page and for a dark one, and, if it prints decimals,
once more with decimal commas (drawing.style). The line becomes the two
images of the page's twins, with the alt text written once for both; Material shows
the one whose address ends in #only-light on a light page, #only-dark on a dark one:

    ![ALT](run/query_response-comma.svg#only-light)
    ![ALT](run/query_response-comma-dark.svg#only-dark)

A figure drawn in a phone layout too (panels stacked: <name>-narrow…) gets both
layouts' pairs, each image marked with its layout's class, { .figure-wide } or
{ .figure-narrow }; the site's style sheet shows one layout per screen width.

The page's language picks the decimal mark: its record's decimal sign, where the
figure has a twin with that mark (a figure without decimals has none). A segment
LANG of NAME stands for the page's language, as in value paths: the bank model's
figures are drawn once per language. NAME must be a figure that this build's runs
published, as SVG, light and dark; anything else is an error that names the line.
"""

from __future__ import annotations

import re

import locales
from drawing.files import NARROW
from drawing.style import SCHEMES, decimal_mark

PUBLISHED = "run"  # the key of the values that lists the runs' published files
RUN_DIR = "run"  # where the runs' files are published (sitebuild.notebook.RUN_DIR)
USAGE = '{{ figure NAME "ALT TEXT" }}'
ARGUMENTS = re.compile(r'(?P<name>[\w-]+)\s+"(?P<alt>[^"\[\]]+)"')
SHOWN_IN = {"": "only-light", "-dark": "only-dark"}  # Scheme.suffix -> Material's fragment
# A figure with a phone layout (drawing.files.NARROW) has both layouts' images, each
# with its class; widgets.css shows the wide ones on a wide screen, the narrow ones on
# a narrow screen.
LAYOUT_CLASS = {"": "figure-wide", NARROW: "figure-narrow"}


class FigureError(ValueError):
    pass


def published_files(runs) -> dict[str, list[str]]:
    """The values entry that render() reads: the names of the files RUNS
    (sitebuild.runs.Run by package) publish under run/."""
    return {"files": sorted(path.name for run in runs.values() for path in run.files())}


def render(arguments: str, language: str, values: dict) -> str:
    """The Markdown of `{{ figure ARGUMENTS }}` on a page in LANGUAGE: one image per
    colour scheme, of the twin with the page's decimal mark if the figure has one."""
    match = ARGUMENTS.fullmatch(arguments.strip())
    if not match:
        raise FigureError(f"`{{{{ figure {arguments} }}}}`: usage {USAGE} "
                          "(an alt text in straight double quotes, without [ ] or \")")
    name = "-".join(language if part == "LANG" else part for part in match["name"].split("-"))
    published = set(values.get(PUBLISHED, {}).get("files", ()))
    mark = decimal_mark(locales.record(language).numbers.decimal)
    mark = mark if f"{name}{mark}.svg" in published else ""
    layouts = ["", NARROW] if f"{name}{NARROW}{mark}.svg" in published else [""]
    images = []
    for layout in layouts:
        stem = f"{name}{layout}{mark}"
        files = [f"{stem}{scheme.suffix}.svg" for scheme in SCHEMES]
        missing = [file for file in files if file not in published]
        if missing:
            raise FigureError(f"figure {match['name']!r}: this build's runs published no "
                              f"{', '.join(missing)}")
        shown_as = f"{{ .{LAYOUT_CLASS[layout]} }}" if len(layouts) > 1 else ""
        images += [f"![{match['alt']}]({RUN_DIR}/{file}#{SHOWN_IN[scheme.suffix]}){shown_as}"
                   for file, scheme in zip(files, SCHEMES, strict=True)]
    return "\n".join(images)
