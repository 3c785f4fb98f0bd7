"""The colours of every figure, for a light page and for a dark one: one home for
the experiment's figures and the attention article's, so that they cannot drift.

A dark twin is drawn for Material's slate scheme (its own background and colours,
not an inversion), so a figure sits on either page without a frame. Colours are
colour-blind safe in both schemes: Okabe-Ito lines, which the figures also tell
apart by line style and marker, and heat maps in PuOr's orange against purple.
"""

import re
from typing import NamedTuple

from matplotlib import colormaps, colors, ticker
from matplotlib.figure import Figure
from matplotlib.text import Text


class Scheme(NamedTuple):
    suffix: str  # appended to the figure's name
    background: str
    foreground: str  # text, axes, rules
    grid: str
    reference: str  # reference lines
    diverging: colors.Colormap  # for signed values: neutral at 0, hue for the sign
    seed_colours: tuple[str, ...]  # lines, in order: one per seed or per series


LIGHT = Scheme(
    suffix="", background="white", foreground="black", grid="#dddddd", reference="#555555",
    diverging=colormaps["PuOr"],  # orange below 0, purple above; light at 0
    # Okabe-Ito colours that read well on white.
    seed_colours=("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"),
)
DARK = Scheme(
    # Material's slate background, so the figure sits on the page without a frame.
    suffix="-dark", background="#1e2029", foreground="#e2e4e9", grid="#3b3f4c",
    reference="#b4b8c4",
    # PuOr's hues on a dark page: 0 is the page itself, so zeros recede as they do on
    # white, and the larger |value|, the lighter the orange (below 0) or purple (above).
    diverging=colors.LinearSegmentedColormap.from_list(
        "PuOr_on_slate", ["#fdb863", "#1e2029", "#b2abd2"]),
    # The lighter Okabe-Ito colours: each keeps a contrast of at least 3:1 on the slate.
    seed_colours=("#56B4E9", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#D55E00"),
)
SCHEMES = (LIGHT, DARK)


# The pages' decimal marks: a figure that prints decimals is drawn twice, with points
# (the downloads, and each page whose language writes a decimal point) and with
# commas (each page whose language writes a decimal comma), as <name>-comma.svg.
DECIMAL_COMMA = "-comma"
DECIMAL_MARKS = ("", DECIMAL_COMMA)  # file-name parts: points, commas
_MARK_OF_SIGN = {".": "", ",": DECIMAL_COMMA}


def decimal_mark(sign: str) -> str:
    """The file-name part of the twin for a page whose decimal sign is SIGN (its
    language record's)."""
    try:
        return _MARK_OF_SIGN[sign]
    except KeyError:
        raise ValueError(f"figures are drawn with a decimal point or comma, not {sign!r}") \
            from None
NUMBER = re.compile(r"[\N{MINUS SIGN}-]?\d+\.\d+")


def signed(text: str) -> str:
    """A number's TEXT as a figure prints it: a minus sign rather than a hyphen, and
    no sign on a value that rounds to zero ("-0.00" is "0.00")."""
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text.replace("-", "\N{MINUS SIGN}")


class _CommaFormatter(ticker.Formatter):
    """A tick formatter's labels with a decimal comma."""

    def __init__(self, inner: ticker.Formatter):
        self.inner = inner

    def set_axis(self, axis) -> None:
        super().set_axis(axis)
        self.inner.set_axis(axis)

    def set_locs(self, locs) -> None:
        self.inner.set_locs(locs)

    def __call__(self, value, position=None) -> str:
        return self.inner(value, position).replace(".", ",")

    def get_offset(self) -> str:
        return self.inner.get_offset().replace(".", ",")


def with_decimal_mark(fig: Figure, mark: str) -> Figure:
    """FIG as it is (MARK ""), or with a decimal comma (MARK DECIMAL_COMMA) in every
    tick label and in every text that is a number."""
    if mark != DECIMAL_COMMA:
        return fig
    # The figure's axes, colour bars' among them, and insets (which are the axes' own)
    for ax in [*fig.axes, *(inset for parent in fig.axes for inset in parent.child_axes)]:
        # x and y (and z in 3-D)
        for axis in (ax.xaxis, ax.yaxis, *([ax.zaxis] if hasattr(ax, "zaxis") else [])):
            axis.set_major_formatter(_CommaFormatter(axis.get_major_formatter()))
    for text in fig.findobj(Text):
        if NUMBER.fullmatch(text.get_text()):
            text.set_text(text.get_text().replace(".", ","))
    return fig
