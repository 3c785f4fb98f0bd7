"""Figure files that are the same bytes on every run, for both computations.

style() gives the settings that make them reproducible: a fixed SVG hash salt,
text as paths (no font needed to show them), one font; save() writes a figure as
<name>.svg and <name>.png (or one of them) without a date or software version in
the metadata, each file atomically; twins() names a figure's twins, which
save_twins() writes.
"""

import io
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from matplotlib import rc_context
from matplotlib.figure import Figure

from atomicfile import atomic_write
from drawing.style import DECIMAL_COMMA

PNG_DPI = 150


def style(salt: str, background: str, ink: str) -> dict:
    """matplotlib rc settings: reproducible output, drawn in INK on BACKGROUND."""
    return {
        "svg.hashsalt": salt,
        "svg.fonttype": "path",
        "font.family": "DejaVu Sans",
        "font.size": 10,
        "figure.facecolor": background,
        "axes.facecolor": background,
        "savefig.facecolor": background,
        "savefig.transparent": False,
        "text.color": ink,
        "axes.edgecolor": ink,
        "axes.labelcolor": ink,
        "xtick.color": ink,
        "ytick.color": ink,
        "legend.labelcolor": ink,
    }


METADATA = {"svg": {"Date": None}, "png": {"Software": None}}
FORMATS = ("svg", "png")


def save(fig: Figure, out_dir: Path, name: str, formats=FORMATS) -> list[str]:
    """Write <name>.<format> for each of FORMATS atomically; return their file names.
    FIG is left without a layout engine: it keeps the layout of its first save."""
    written = []
    for fmt in formats:
        metadata = METADATA[fmt]
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, dpi=PNG_DPI, metadata=metadata)
        # Laid out once: the PNG keeps the SVG's positions rather than laying out again.
        fig.set_layout_engine("none")
        atomic_write(Path(out_dir) / f"{name}.{fmt}", buffer.getvalue())
        written.append(f"{name}.{fmt}")
    return written


# The file-name part of a figure's phone layout: the same content arranged for a
# narrow column (panels stacked), which a page shows on a narrow screen instead.
NARROW = "-narrow"


class Twin(NamedTuple):
    stem: str  # the file name without its extension
    suffix: str  # the colour scheme's part of it ("" or "-dark")
    mark: str  # the decimal mark's ("" or DECIMAL_COMMA)
    formats: tuple[str, ...]
    layout: str = ""  # "" or NARROW


def twins(name: str, suffixes, marks=("",), formats=FORMATS, layouts=("",)) -> list[Twin]:
    """Figure NAME's files: one twin per layout, decimal mark and scheme suffix, in
    FORMATS; a decimal-comma twin, and a narrow one, as SVG only (pages show them; the
    downloads are the wide twins with points)."""
    return [Twin(f"{name}{layout}{mark}{suffix}", suffix, mark,
                 ("svg",) if mark == DECIMAL_COMMA or layout else tuple(formats), layout)
            for layout in layouts for mark in marks for suffix in suffixes]


def file_names(figure_twins: Iterable[Twin]) -> list[str]:
    return [f"{twin.stem}.{fmt}" for twin in figure_twins for fmt in twin.formats]


def save_twins(figure_twins: Iterable[Twin], settings: Callable[[Twin], dict],
               build: Callable[[Twin], Figure], out_dir: Path) -> list[str]:
    """Save each of a figure's twins: BUILD(twin) drawn under the rc SETTINGS(twin);
    return the file names. Twins of one layout differ in colour or decimal mark only,
    so the first is laid out and the others take its axes' positions: one layout
    computation per arrangement of the panels."""
    written, positions = [], {}
    for twin in figure_twins:
        with rc_context(settings(twin)):
            fig = build(twin)
            if twin.layout in positions:
                fig.set_layout_engine("none")
                for ax, position in zip(fig.axes, positions[twin.layout], strict=True):
                    ax.set_position(position)
            written += save(fig, out_dir, twin.stem, twin.formats)
            positions[twin.layout] = [ax.get_position() for ax in fig.axes]
    return written
