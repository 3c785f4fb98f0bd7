"""Figure files that are the same bytes on every run, for both computations.

style() gives the settings that make them reproducible: a fixed SVG hash salt,
text as paths (no font needed to show them), one font; save() writes a figure as
<name>.svg and <name>.png (or one of them) without a date or software version in the metadata,
each file atomically.
"""

import io
from collections.abc import Callable, Iterable
from pathlib import Path

from matplotlib import rc_context
from matplotlib.figure import Figure

from provenance.files import atomic_write

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
        # Laid out once: the PNG keeps the SVG's positions (a fifth of the drawing time).
        fig.set_layout_engine("none")
        atomic_write(Path(out_dir) / f"{name}.{fmt}", buffer.getvalue())
        written.append(f"{name}.{fmt}")
    return written


def save_twins(drawings: Iterable[tuple[str, dict, Callable[[], Figure], tuple[str, ...]]],
               out_dir: Path) -> list[str]:
    """Save one figure's twins, each (name, rc settings, build, formats) with BUILD run
    under its settings; return the file names. Twins differ in colour or in decimal
    mark only, so the first is laid out and the others take its axes' positions (a
    layout is most of a drawing's time)."""
    written, positions = [], None
    for name, settings, build, formats in drawings:
        with rc_context(settings):
            fig = build()
            if positions is not None:
                fig.set_layout_engine("none")
                for ax, position in zip(fig.axes, positions, strict=True):
                    ax.set_position(position)
            written += save(fig, out_dir, name, formats)
            positions = [ax.get_position() for ax in fig.axes]
    return written
