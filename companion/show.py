"""show(draw): a figure of the companion notebook for every page that shows it, from
the one execution. draw(scheme, words) is called for each language of the site
(locales/<code>.toml), with that language's words, and for a light page and a dark
one; the figure gets the language's decimal sign (drawing.style.with_decimal_mark).
Each output names its language and scheme in its metadata (LANGUAGE, DARK_PAGE): the
site puts each page's own on the page and into its download. That is the site's
execution (python -m companion sets EVERY_PAGE in the kernel's environment); run by a
reader in Jupyter, a figure cell shows one figure, for a light page, in the language
NOTEBOOK_LANGUAGE names (`make notebook lang=CODE` sets it), else in the site's default.

Drawing is what the execution spends its time on, so a figure is drawn only as often
as its pictures differ. draw is given nothing of a language but its words, so two
languages' figures differ only in the texts they hold and the decimal mark: a twin
that holds the texts of one already drawn, in the same colours and decimal mark, is
that picture; and twins that hold the same texts take the first one's layout (they
differ in colour and decimal mark only, and a comma is as wide as a point).
"""

import io
import os

from IPython.display import Image, display
from matplotlib.figure import Figure
from matplotlib.text import Text

import locales
from companion import DARK_PAGE, EVERY_PAGE, LANGUAGE, NOTEBOOK_LANGUAGE
from drawing.style import DARK, LIGHT, SCHEMES, decimal_mark, with_decimal_mark

DPI = 100  # Jupyter's inline figures'


def show(draw) -> None:
    """Display draw(scheme, words) for each language and colour scheme (above)."""
    pictures: dict[tuple, bytes] = {}  # (scheme, decimal mark, texts) -> PNG
    layouts: dict[tuple, list] = {}  # texts -> the axes' positions
    languages, schemes = _pages()
    for language in languages:
        # The training playground's words: its loss chart is the notebook's training curve.
        words = language.words["playground"]
        mark = decimal_mark(language.numbers.decimal)
        for scheme in schemes:
            fig = draw(scheme, words)
            printed = texts(fig)  # its words, whatever its decimal mark
            fig = with_decimal_mark(fig, mark)
            key = (scheme.suffix, mark, printed)
            if key not in pictures:
                pictures[key] = png(fig, layouts.get(printed))
                layouts.setdefault(printed, [ax.get_position() for ax in fig.axes])
            display(Image(pictures[key]),
                    metadata={LANGUAGE: language.code, DARK_PAGE: scheme is DARK})


def _pages() -> tuple[list, tuple]:
    """The languages and schemes to draw: every page's in the site's execution, else
    the one a reader in Jupyter reads."""
    records = locales.records()
    if os.environ.get(EVERY_PAGE):
        return list(records.values()), SCHEMES
    wanted = os.environ.get(NOTEBOOK_LANGUAGE, "")
    return [records.get(wanted) or records[locales.default_code()]], (LIGHT,)


def texts(fig: Figure) -> tuple[str, ...]:
    """Every text FIG holds before it is drawn: its words, and its numbers but the ticks'."""
    return tuple(text.get_text() for text in fig.findobj(Text))


def png(fig: Figure, layout: list | None = None) -> bytes:
    """FIG as PNG; laid out by its layout engine, or with its axes at LAYOUT."""
    if layout is not None:
        fig.set_layout_engine("none")
        for ax, position in zip(fig.axes, layout, strict=True):
            ax.set_position(position)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()
