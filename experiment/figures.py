"""Figures from a results dict: each fig_<name>() writes <name>.svg and <name>.png.

Figures hold symbols only, no words, so one file serves every language; the
site's captions say what to look at. Backgrounds are opaque white so the
figures stay readable on a dark page. Output is deterministic: fixed SVG hash
salt, no dates in metadata, text as paths, and no pyplot global state.
"""

import io
from pathlib import Path

import numpy as np
from matplotlib import rc_context
from matplotlib.figure import Figure

from provenance.files import atomic_write

STYLE = {
    "svg.hashsalt": "feature-recovery",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
    "savefig.transparent": False,
}
PNG_DPI = 150
# Okabe-Ito colours that read well on white; seeds also differ by line style and marker.
SEED_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
SEED_LINESTYLES = ["-", "--", ":", "-."]
SEED_MARKERS = ["o", "s", "^", "D", "v", "P"]
# Latent features by role: query, payload, noise.
LATENT_LABELS = ["q1", "q2", "q3", "p1", "p2", "p3", "n1", "n2", "n3"]


def save(fig: Figure, out_dir: Path, name: str) -> None:
    """Write <name>.svg and <name>.png atomically."""
    for fmt, metadata in (("svg", {"Date": None}), ("png", {"Software": None})):
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, dpi=PNG_DPI, metadata=metadata)
        atomic_write(Path(out_dir) / f"{name}.{fmt}", buffer.getvalue())


def response_heatmap(response, column_symbol: str) -> Figure:
    """A 9 x 3 response matrix: rows are latent features, columns learned coordinates."""
    values = np.asarray(response)  # (9, 3)
    limit = max(float(np.abs(values).max()), 1e-12)  # symmetric, so 0 is the neutral colour
    fig = Figure(figsize=(3.0, 4.6), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(values, cmap="PuOr", vmin=-limit, vmax=limit, aspect="auto")
    for (row, column), value in np.ndenumerate(values):
        text = f"{value:.2f}".replace("-0.00", "0.00")
        # Both ends of PuOr are dark: light text there, dark text near zero.
        colour = "white" if abs(value) > 0.55 * limit else "black"
        ax.text(column, row, text, ha="center", va="center", color=colour, fontsize=9)
    ax.set_xticks(range(values.shape[1]), [f"${column_symbol}_{j + 1}$" for j in range(3)])
    ax.xaxis.tick_top()
    ax.set_yticks(range(values.shape[0]), LATENT_LABELS)
    ax.tick_params(length=0)
    for boundary in (2.5, 5.5):  # between the query, payload and noise rows
        ax.axhline(boundary, color="black", linewidth=1.5)
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig


def first_seed(results: dict) -> dict:
    """The seed the heat maps show: the run's first (seed 0 by default)."""
    return results["seeds"][0]


def fig_query_response(results: dict, out_dir: Path) -> None:
    with rc_context(STYLE):
        save(response_heatmap(first_seed(results)["query_response"], "q"), out_dir,
             "query_response")


def fig_value_response(results: dict, out_dir: Path) -> None:
    with rc_context(STYLE):
        save(response_heatmap(first_seed(results)["value_response"], "v"), out_dir,
             "value_response")


def fig_loss_curves(results: dict, out_dir: Path) -> None:
    """Training MSE of every seed against step, on a log scale."""
    with rc_context(STYLE):
        fig = Figure(figsize=(5.2, 3.2), layout="constrained")
        ax = fig.add_subplot()
        for k, run in enumerate(results["seeds"]):
            trace = np.asarray(run["loss_trace"])
            steps = np.arange(1, len(trace) + 1)
            ax.plot(
                steps, trace,
                color=SEED_COLOURS[k % len(SEED_COLOURS)],
                linestyle=SEED_LINESTYLES[k % len(SEED_LINESTYLES)],
                marker=SEED_MARKERS[k % len(SEED_MARKERS)],
                # Markers staggered per seed so overlapping curves stay distinguishable.
                markevery=(k * max(len(trace) // 30, 1), max(len(trace) // 8, 1)),
                markersize=5, linewidth=1.4, label=f"$s = {run['seed']}$",
            )
        ax.set_yscale("log")
        ax.set_xlabel("$t$")
        ax.set_ylabel("MSE")
        ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
        ax.legend(frameon=False)
        save(fig, out_dir, "loss_curves")


FIGURES = {
    "query_response": fig_query_response,
    "value_response": fig_value_response,
    "loss_curves": fig_loss_curves,
}


def write_all(results: dict, out_dir: Path) -> None:
    for fig_function in FIGURES.values():
        fig_function(results, out_dir)
