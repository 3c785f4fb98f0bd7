"""Figures of the attention article: fig_<name>() writes <name>.svg/.png, drawn for
a light page, and <name>-dark.svg/.png, drawn for a dark one (not inverted).

The scaling figure holds symbols only, no words, so one file serves every language
but for the decimal mark: scaling-comma[-dark].svg is the decimal-comma pages'. The
bank model's figures (bank_figures) carry each page's words. The pages' captions
say what to look at. Output is deterministic (drawing.files
saves them) and uses no pyplot global state.
"""

from pathlib import Path

from matplotlib.figure import Figure

from drawing import files as figure_files
from drawing.style import DECIMAL_MARKS, SCHEMES, with_decimal_mark

# The shared schemes (drawing.style), in this module's terms.
THEMES = {scheme.suffix: {"background": scheme.background, "ink": scheme.foreground,
                          "grid": scheme.grid, "scaled": scheme.seed_colours[0],
                          "unscaled": scheme.seed_colours[1], "reference": scheme.reference}
          for scheme in SCHEMES}


def style(theme: dict) -> dict:
    return figure_files.style("attention-examples", theme["background"], theme["ink"])


def scaling_figure(scaling: dict, theme: dict) -> Figure:
    """Mean largest attention weight against d_k (log axis), with and without ÷√d_k."""
    d_k = scaling["d_k"]
    fig = Figure(figsize=(4.4, 3.1), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(d_k, scaling["largest_unscaled"], color=theme["unscaled"],
            linestyle="--", marker="s", linewidth=1.6, label=r"$\mathrm{softmax}(qK^\top)$")
    ax.plot(d_k, scaling["largest_scaled"], color=theme["scaled"],
            linestyle="-", marker="o", linewidth=1.6,
            label=r"$\mathrm{softmax}(qK^\top/\sqrt{d_k})$")
    ax.axhline(scaling["uniform_weight"], color=theme["reference"], linestyle=":",
               linewidth=1.2, label=f"$1/{scaling['keys']}$")  # the uniform weight
    ax.set_xscale("log", base=2)
    ax.set_xticks(d_k, [str(d) for d in d_k])
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(r"$d_k$")
    # The mean largest weight, named level above its axis rather than turned on its side.
    ax.set_title(r"$\langle \max\, a_j \rangle$", loc="left", fontsize=10)
    ax.grid(True, color=theme["grid"], linewidth=0.6)
    ax.legend(frameon=False, loc="center right")
    return fig


def _scaling_twins() -> list[figure_files.Twin]:
    return figure_files.twins("scaling", THEMES, DECIMAL_MARKS)


def fig_scaling(data: dict, out_dir: Path) -> None:
    """scaling[-dark].svg/.png, and scaling-comma[-dark].svg for the decimal-comma pages."""
    figure_files.save_twins(
        _scaling_twins(), lambda twin: style(THEMES[twin.suffix]),
        lambda twin: with_decimal_mark(scaling_figure(data["scaling"], THEMES[twin.suffix]),
                                       twin.mark), out_dir)


FIGURES = {"scaling": fig_scaling}


def write_all(data: dict, out_dir: Path) -> None:
    from examples import bank_figures  # the bank model's figures, one set per language

    for fig_function in [*FIGURES.values(), *bank_figures.FIGURES.values()]:
        fig_function(data, out_dir)


def file_names() -> list[str]:
    """The files write_all writes: the scaling figure's and the bank figures'."""
    from examples import bank_figures

    return figure_files.file_names(_scaling_twins()) + bank_figures.file_names()
