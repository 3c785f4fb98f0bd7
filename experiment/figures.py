"""Figures from a results dict, each in a light and a dark version.

fig_<name>(results, scheme) builds the Figure; write(name, results, out_dir)
saves <name>.svg and <name>.png, and <name>-dark.svg and <name>-dark.png drawn
for a dark page (its own background and colours, not an inversion). Figures
hold symbols and numbers only, no words, so one file per scheme serves every
language, but for the decimal mark: a figure that prints decimals has
<name>-comma.svg and <name>-comma-dark.svg too, for the pages of a language that
writes a decimal comma. The site's captions say what to look at. Colours are
colour-blind safe in both schemes (Okabe-Ito lines, which also differ by line style and
marker; heat maps in PuOr's orange against purple). Output is
deterministic (drawing.files saves them) and uses no pyplot global state.
"""

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
from matplotlib import colors, rc_context
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import NullFormatter
from mpl_toolkits.mplot3d import proj3d
from mpl_toolkits.mplot3d.art3d import Poly3DCollection

from drawing import files as figure_files
from drawing.style import (  # noqa: F401 (callers name DARK and LIGHT here)
    DARK,
    DECIMAL_MARKS,
    LIGHT,
    SCHEMES,
    Scheme,
    signed,
    with_decimal_mark,
)

SEED_LINESTYLES = ["-", "--", ":", "-."]
SEED_MARKERS = ["o", "s", "^", "D", "v", "P"]
# Latent features by role: query, payload, noise; the same labels as in the articles.
LATENT_LABELS = ["q1", "q2", "q3", "p1", "p2", "p3", "n1", "n2", "n3"]
# The only runs of letters in any figure; everything else is a number or a one-letter
# symbol. Symbols are Unicode text rather than mathtext ($...$), whose parser would be a
# third of the drawing time.
# The optimisers' names, like MSE, are written so in every language.
SYMBOLS = {*LATENT_LABELS, "MSE", "Adam", "SGD"}
SUBSCRIPTS = str.maketrans("0123456789j", "₀₁₂₃₄₅₆₇₈₉ⱼ")
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def subscript(symbol: str, index) -> str:
    return symbol + str(index).translate(SUBSCRIPTS)


def power_of_ten(value: float, _position=None) -> str:
    """A log axis's tick label, 10⁻³⁰, as plain text."""
    return "10" + str(round(np.log10(value))).translate(SUPERSCRIPTS)


def style(scheme: Scheme) -> dict:
    return figure_files.style("feature-recovery", scheme.background, scheme.foreground)


# A response's columns are coordinates of the query (or the value): c₁, c₂, c₃, a letter
# of their own, so that they cannot be read as the rows' latent features q1, q2, q3.
COLUMN_SYMBOL = "c"


def heatmap(ax, response, scheme: Scheme, limit: float, numbers: bool = True):
    """A 9 x 3 response matrix on `ax`: rows are latent features, columns the query's
    (or value's) coordinates, colour symmetric about 0 up to `limit`; returns the image."""
    values = np.asarray(response)  # (9, 3)
    image = ax.imshow(values, cmap=scheme.diverging, vmin=-limit, vmax=limit, aspect="auto",
                      interpolation="none")
    if numbers:
        for (row, column), value in np.ndenumerate(values):
            ax.text(column, row, signed(f"{value:.2f}"), ha="center", va="center", fontsize=9,
                    color=readable_on(image.cmap(image.norm(value))))
    ax.set_xticks(range(values.shape[1]), [subscript(COLUMN_SYMBOL, j + 1) for j in range(3)],
                  fontstyle="italic")
    ax.xaxis.tick_top()
    ax.set_yticks(range(values.shape[0]), LATENT_LABELS)
    ax.tick_params(length=0)
    for boundary in (2.5, 5.5):  # between the query, payload and noise rows
        ax.axhline(boundary, color=scheme.foreground, linewidth=1.5)
    return image


def readable_on(colour) -> str:
    """Black or white text, whichever contrasts more with `colour`."""
    red, green, blue = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                        for c in colors.to_rgb(colour))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "black" if luminance > 0.179 else "white"  # equal contrast at L = 0.179


def symmetric_limit(*responses) -> float:
    """The colour limit that shows every matrix with 0 as the neutral colour."""
    return max(max(float(np.abs(np.asarray(r)).max()) for r in responses), 1e-12)


def single_heatmap(response, scheme: Scheme) -> Figure:
    with rc_context(style(scheme)):  # also when the notebook calls it on its own
        fig = Figure(figsize=(3.0, 4.6), layout="constrained")
        ax = fig.add_subplot()
        image = heatmap(ax, response, scheme, symmetric_limit(response))
        fig.colorbar(image, ax=ax, shrink=0.8)
    return fig


def fig_query_response(results: dict, scheme: Scheme) -> Figure:
    """R @ W_Q of the main student's first seed."""
    return single_heatmap(results["seeds"][0]["query_response"], scheme)


def fig_value_response(results: dict, scheme: Scheme) -> Figure:
    """R @ W_V of the main student's first seed."""
    return single_heatmap(results["seeds"][0]["value_response"], scheme)


def fig_three_keys_query_response(results: dict, scheme: Scheme) -> Figure:
    """R @ W_Q of the three-keys student's first seed."""
    return single_heatmap(results["variants"]["three_keys"]["seeds"][0]["query_response"],
                          scheme)


def fig_three_keys_split(results: dict, scheme: Scheme) -> Figure:
    """R @ W_Q of the three-keys student's first seed as the sum of two heat maps on one
    colour scale: left, the part that the loss sees, R W_Q (I - u uᵀ); right, the
    rank-one part along the invisible direction u, (R W_Q u) uᵀ, each row a multiple
    of u."""
    seed = results["variants"]["three_keys"]["seeds"][0]
    parts = (seed["visible_query_response"], seed["invisible_query_response"])
    limit = symmetric_limit(*parts)
    # As wide as a phone's column shows without shrinking its text below 9 px.
    fig = Figure(figsize=(4.4, 4.4), layout="constrained")
    axes = fig.subplots(1, 2)
    for ax, part, title in zip(axes, parts, (r"$R\,W_Q\,(I - u\,u^\top)$",
                                             r"$R\,W_Q\,u\,u^\top$"), strict=True):
        image = heatmap(ax, part, scheme, limit)
        ax.set_title(title, fontsize=10)
    axes[1].tick_params(labelleft=False)
    fig.colorbar(image, ax=axes, shrink=0.8, aspect=30)
    return fig


def _step_axis(ax) -> None:
    """Steps on a log axis that also holds step 0, the start: linear below one."""
    ax.set_xscale("symlog", linthresh=1, linscale=0.4)
    # No tick at 1: on a phone its label would touch 0's.
    ax.set_xticks([0, 10, 100, 1000], ["0", "10", "10²", "10³"])
    ax.xaxis.set_minor_formatter(NullFormatter())


def fig_three_keys_along_u(results: dict, scheme: Scheme) -> Figure:
    """For each latent row of the three-keys student's first seed, R @ W_Q's component
    along the invisible direction u against step, trained with Adam and with plain SGD
    from the same start (a ring at t = 0), against E_q's own component (dotted, its
    value printed where it is not 0). One small panel per row, rows q, p, n from top
    to bottom, on one scale."""
    three, control = (results["variants"][name] for name in ("three_keys", "three_keys_sgd"))
    steps = np.asarray(three["trace_steps"])
    intended = np.asarray(three["intended_invisible_component"])  # (9,)
    adam = np.asarray(three["seeds"][0]["invisible_component_trace"])  # (steps, 9)
    sgd = np.asarray(control["seeds"][0]["invisible_component_trace"])
    limit = 1.15 * symmetric_limit(intended, adam, sgd)
    fig = Figure(figsize=(4.4, 4.6), layout="constrained")
    axes = fig.subplots(3, 3, sharex=True, sharey=True)
    adam_colour, sgd_colour = scheme.seed_colours[0], scheme.seed_colours[1]
    for row, ax in enumerate(axes.flat):
        ax.axhline(intended[row], color=scheme.reference, linewidth=1.2, dashes=(1, 2),
                   label="$E_q$")
        if intended[row] != 0:
            ax.text(steps[-1], intended[row] - 0.06 * limit * np.sign(intended[row]),
                    signed(f"{intended[row]:.2f}"), ha="right",
                    va="top" if intended[row] > 0 else "bottom", fontsize=9,
                    color=scheme.foreground)
        ax.plot(steps, sgd[:, row], color=sgd_colour, linestyle="--", linewidth=1.6,
                label="SGD")
        ax.plot(steps, adam[:, row], color=adam_colour, linewidth=1.6, label="Adam")
        ax.plot([0], [adam[0, row]], linestyle="none", marker="o", markersize=5,
                markerfacecolor=scheme.background, markeredgecolor=scheme.foreground,
                label="t = 0")
        ax.axhline(0, color=scheme.grid, linewidth=0.6, zorder=0)
        ax.set_title(LATENT_LABELS[row], fontsize=10, pad=2)
        _step_axis(ax)
    ax.set_ylim(-limit, limit)
    for ax in axes[-1]:
        ax.set_xlabel("t", fontstyle="italic")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    order = [labels.index(name) for name in ("Adam", "SGD", "$E_q$", "t = 0")]
    fig.legend([handles[k] for k in order], [labels[k] for k in order], loc="outside upper center",
               ncols=4, frameon=False, handlelength=1.8, columnspacing=1.0)
    return fig


# A phone layout's width: as wide as a phone's column shows without shrinking its
# text below 9 px.
NARROW_WIDTH = 4.4


def fig_learned_keys_query_responses(results: dict, scheme: Scheme,
                                     narrow: bool = False) -> Figure:
    """R @ W_Q of the learned-keys student, one panel per seed, on one colour scale:
    side by side, or stacked (NARROW)."""
    seeds = results["variants"]["learned_keys"]["seeds"]
    limit = symmetric_limit(*(seed["query_response"] for seed in seeds))
    if narrow:
        fig = Figure(figsize=(NARROW_WIDTH, 0.8 + 3.1 * len(seeds)), layout="constrained")
        axes = fig.subplots(len(seeds), 1, squeeze=False)[:, 0]
    else:
        fig = Figure(figsize=(1.0 + 2.3 * len(seeds), 4.8), layout="constrained")
        axes = fig.subplots(1, len(seeds), squeeze=False)[0]
    for ax, seed in zip(axes, seeds, strict=True):
        image = heatmap(ax, seed["query_response"], scheme, limit)
        if narrow:  # the columns' symbols stand above each panel, the seed beside it
            ax.set_ylabel(f"s = {seed['seed']}", fontstyle="italic", fontsize=11)
        else:
            ax.set_title(f"s = {seed['seed']}", fontstyle="italic")
    if not narrow:
        for ax in axes[1:]:
            ax.tick_params(labelleft=False)
    fig.colorbar(image, ax=axes, shrink=0.8, **({"location": "bottom", "aspect": 30}
                                               if narrow else {}))
    return fig


def fig_training_snapshots(results: dict, scheme: Scheme, narrow: bool = False) -> Figure:
    """R @ W_Q (top) and R @ W_V (bottom) of the first seed after t steps, side by side
    for every recorded t, on one colour scale; colours only, no printed entries. NARROW:
    each strip broken into two rows, so that a block stays large enough to read."""
    snapshots = results["snapshots"]
    steps = snapshots["steps"]
    limit = symmetric_limit(*snapshots["query_response"], *snapshots["value_response"])
    per_row = -(-len(steps) // 2) if narrow else len(steps)
    rows = [range(start, min(start + per_row, len(steps)))
            for start in range(0, len(steps), per_row)]
    fig = Figure(figsize=(NARROW_WIDTH, 1.2 + 3.4 * len(rows)) if narrow
                 else (1.0 + 0.95 * len(steps), 5.6), layout="constrained")
    axes = fig.subplots(2 * len(rows), 1)
    cmap = scheme.diverging.with_extremes(bad=scheme.background)
    gap = np.full((9, 1), np.nan)
    blank = np.full((9, 3), np.nan)  # where a shorter last row has no snapshot
    for k, (key, symbol) in enumerate((("query_response", "Q"), ("value_response", "V"))):
        for r, shown in enumerate(rows):
            ax = axes[k * len(rows) + r]
            # One image per row: the snapshots' 9 x 3 blocks with a blank column between.
            blocks = [np.asarray(snapshots[key][i]) for i in shown]
            blocks += [blank] * (per_row - len(blocks))
            strip = np.hstack([part for block in blocks for part in (block, gap)][:-1])
            image = ax.imshow(strip, cmap=cmap, vmin=-limit, vmax=limit, aspect="auto",
                              interpolation="none")
            ax.set_xticks([4 * j + 1 for j in range(len(shown))], [str(steps[i]) for i in shown])
            ax.set_yticks(range(9), LATENT_LABELS)
            ax.set_ylabel(f"$R\\,W_{symbol}$")
            ax.tick_params(length=0)
            ax.spines[:].set_visible(False)
            for j in range(len(shown)):  # each block framed, and ruled between row roles
                ax.add_patch(Rectangle((4 * j - 0.5, -0.5), 3, 9, fill=False, linewidth=0.8,
                                       edgecolor=scheme.foreground))
                for boundary in (2.5, 5.5):
                    ax.plot([4 * j - 0.5, 4 * j + 2.5], [boundary] * 2,
                            color=scheme.foreground, linewidth=1.2)
    axes[-1].set_xlabel("t", fontstyle="italic")
    fig.colorbar(image, ax=axes, shrink=0.7, **({"location": "bottom", "aspect": 30}
                                               if narrow else {}))
    return fig


def fig_loss_curves(results: dict, scheme: Scheme) -> Figure:
    """Training MSE of every seed of the main student against step, on a log scale,
    with each seed's uniform-attention MSE as a reference line."""
    fig = Figure(figsize=(5.2, 3.2), layout="constrained")
    ax = fig.add_subplot()
    for k, seed in enumerate(results["seeds"]):
        # One line per seed; they differ by less than a line's width on this scale.
        ax.axhline(seed["uniform_attention_mse"], color=scheme.reference, linewidth=1.0,
                   dashes=(1, 3), label="aⱼ = ¼" if k == 0 else None)
    for k, seed in enumerate(results["seeds"]):
        trace = np.asarray(seed["loss_trace"])
        steps = np.arange(1, len(trace) + 1)
        ax.plot(
            steps, trace,
            color=scheme.seed_colours[k % len(scheme.seed_colours)],
            linestyle=SEED_LINESTYLES[k % len(SEED_LINESTYLES)],
            marker=SEED_MARKERS[k % len(SEED_MARKERS)],
            # Markers staggered per seed so overlapping curves stay distinguishable.
            markevery=(k * max(len(trace) // 30, 1), max(len(trace) // 8, 1)),
            markersize=5, linewidth=1.4, label=f"s = {seed['seed']}",
        )
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(power_of_ten)
    ax.yaxis.set_minor_formatter(NullFormatter())
    # Steps on a log axis too: the crossing of the uniform-attention level, within the
    # first ten steps, is as wide as the last thousand.
    ax.set_xscale("log")
    ax.set_xlim(1, len(trace))
    ax.xaxis.set_major_formatter(lambda value, _position: f"{value:g}")
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("t", fontstyle="italic")
    ax.set_ylabel("MSE")
    ax.grid(True, which="major", color=scheme.grid, linewidth=0.6)
    legend = ax.legend(frameon=False, loc="center", bbox_to_anchor=(0.6, 0.45))
    for text in legend.get_texts():
        text.set_fontstyle("italic")
    early_steps(ax, results, scheme)
    return fig


# The inset's steps: the maps take shape, and the loss crosses the uniform level, here.
INSET_STEPS = 50


def early_steps(ax, results: dict, scheme: Scheme) -> None:
    """An inset over the first INSET_STEPS steps, on a linear MSE axis, where each
    curve's crossing of its uniform-attention level can be seen."""
    inset = ax.inset_axes([0.07, 0.07, 0.4, 0.42])
    inset.set_facecolor(scheme.background)
    for seed in results["seeds"]:
        inset.axhline(seed["uniform_attention_mse"], color=scheme.reference, linewidth=1.0,
                      dashes=(1, 3))
    for k, seed in enumerate(results["seeds"]):
        trace = np.asarray(seed["loss_trace"][:INSET_STEPS])
        inset.plot(np.arange(1, len(trace) + 1), trace,
                   color=scheme.seed_colours[k % len(scheme.seed_colours)],
                   linestyle=SEED_LINESTYLES[k % len(SEED_LINESTYLES)], linewidth=1.2)
    inset.set_xlim(1, INSET_STEPS)
    inset.set_ylim(0, None)
    inset.set_xticks([1, INSET_STEPS // 2, INSET_STEPS])
    inset.tick_params(labelsize=8)
    for spine in inset.spines.values():
        spine.set_edgecolor(scheme.foreground)


# The key geometry's labels: the figure is as wide as the column, so on a phone it is
# shown at half its size, and a label must stay readable there.
LABEL_SIZE = 15


def _tetrahedron_axes(ax, scheme: Scheme, limit: float, names: bool = True) -> None:
    """A 3-D view of query space: the three coordinate axes through 0, no panes; the
    axes named q1, q2, q3 unless NAMES is false."""
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        axis.set_pane_color((0, 0, 0, 0))
        axis.line.set_color((0, 0, 0, 0))
    ax.set_xticks([]), ax.set_yticks([]), ax.set_zticks([])
    for k in range(3):
        end = np.zeros(3)
        end[k] = limit
        # Beneath everything else where a panel sets its own drawing order.
        ax.plot(*zip(-end, end, strict=True), color=scheme.grid, linewidth=0.8, zorder=0)
        if names:
            ax.text(*(1.08 * end), subscript("q", k + 1), color=scheme.reference,
                    fontstyle="italic", ha="center", va="center", fontsize=LABEL_SIZE)
    ax.set_xlim(-limit, limit), ax.set_ylim(-limit, limit), ax.set_zlim(-limit, limit)
    ax.set_box_aspect((1, 1, 1), zoom=1.3)
    # A view in which no key hides behind another or behind the origin.
    ax.view_init(elev=14, azim=-75)
    ax.grid(False)


# How far a key's label stands from its key, in points.
LABEL_OFFSET = 16


def _keys_drawn(ax, keys, colour: str, linestyle: str, marker: str, labels: bool,
                scheme: Scheme, alpha: float = 1.0, avoid=None) -> None:
    """Keys as points, with every difference between two of them as an edge; each
    label set off from its key outward, away from the keys' centroid as the view shows
    them, turned as little as it takes to clear every edge (and those of the keys
    AVOID, drawn in the same axes) and every other key. Call it once the axes' view
    and limits are set."""
    keys = np.asarray(keys)
    for i, j in itertools.combinations(range(len(keys)), 2):
        ax.plot(*zip(keys[i], keys[j], strict=True), color=colour, linestyle=linestyle,
                linewidth=1.4, alpha=alpha)
    ax.scatter(*keys.T, color=colour, marker=marker, s=22, depthshade=False, alpha=alpha,
               zorder=3)
    if labels:
        ax.figure.draw_without_rendering()  # the layout first: it sets where keys fall
        seen = _on_screen(ax, keys)
        drawn = np.column_stack(proj3d.proj_transform(*keys.T, ax.get_proj())[:2])
        others = [seen] + ([] if avoid is None else [_on_screen(ax, np.asarray(avoid))])
        edges = [(group[i], group[j]) for group in others
                 for i, j in itertools.combinations(range(len(group)), 2)]
        points = np.vstack(others)
        centre, spots = seen.mean(axis=0), []
        for i, at in enumerate(seen):
            offset = _label_offset(at, at - centre, edges, points, spots)
            spots.append(at + offset)
            ax.annotate(subscript("k", i + 1), xy=tuple(drawn[i]),
                        xycoords="data", xytext=tuple(offset), textcoords="offset points",
                        color=scheme.foreground, fontstyle="italic", ha="center",
                        va="center", fontsize=LABEL_SIZE)


def _on_screen(ax, points) -> np.ndarray:
    """3-D POINTS where ax's view draws them, in points (1/72 inch) on the figure."""
    x, y, _ = proj3d.proj_transform(*np.asarray(points).T, ax.get_proj())
    return ax.transData.transform(np.column_stack([x, y])) * 72 / ax.figure.dpi


def _segment_distance(point, a, b) -> float:
    """The distance from POINT to the segment from A to B."""
    along = b - a
    t = float(np.clip((point - a) @ along / max(float(along @ along), 1e-12), 0.0, 1.0))
    return float(np.linalg.norm(point - (a + t * along)))


def _label_offset(at, outward, edges, points, labels) -> np.ndarray:
    """The offset, in points, of a label for the key AT: of the directions nearest
    OUTWARD first, and of LABEL_OFFSET before longer reaches, the first whose label
    clears every edge and every point other than AT by about half a label, and the
    LABELS placed before it by a label; failing that, the one clearing them most."""
    heading = float(np.arctan2(outward[1], outward[0])) if np.any(outward) else np.pi / 2
    turns = sorted(np.radians(np.arange(-180, 180, 15)), key=abs)
    best, best_clear = None, -np.inf
    for reach in (LABEL_OFFSET, 1.3 * LABEL_OFFSET, 1.6 * LABEL_OFFSET):
        for turn in turns:
            offset = reach * np.array([np.cos(heading + turn), np.sin(heading + turn)])
            spot = at + offset
            clear = min([_segment_distance(spot, a, b) for a, b in edges]
                        + [float(np.linalg.norm(spot - p)) for p in points
                           if np.linalg.norm(p - at) > 1e-6]
                        + [float(np.linalg.norm(spot - label)) - 0.6 * LABEL_SIZE
                           for label in labels])
            if clear >= 0.75 * LABEL_SIZE:
                return offset
            if clear > best_clear:
                best, best_clear = offset, clear
    return best


def _right_angle(ax, corner, along_plane, normal, colour: str, size: float = 0.25) -> None:
    """A right-angle mark at CORNER between a direction in the plane and its NORMAL."""
    e = np.asarray(along_plane) / np.linalg.norm(along_plane)
    n = np.asarray(normal) / np.linalg.norm(normal)
    corner = np.asarray(corner)
    path = [corner + size * e, corner + size * (e + n), corner + size * n]
    ax.plot(*zip(*path, strict=True), color=colour, linewidth=1.4)


def _look_from(ax, eye, up) -> None:
    """Turn ax's view so that it looks at the origin from the direction EYE, with the
    direction UP drawn straight up the screen."""
    eye = np.asarray(eye) / np.linalg.norm(eye)
    elev, azim = np.degrees(np.arcsin(eye[2])), np.degrees(np.arctan2(eye[1], eye[0]))
    ax.view_init(elev=elev, azim=azim, roll=0)
    drawn = np.subtract(_seen(ax, up), _seen(ax, np.zeros(3)))  # UP as the screen shows it
    ax.view_init(elev=elev, azim=azim, roll=np.degrees(np.arctan2(drawn[0], drawn[1])))


def _seen(ax, point) -> tuple[float, float]:
    """Where ax's current view draws the 3-D POINT, in its 2-D data coordinates."""
    x, y, _ = proj3d.proj_transform(*point, ax.get_proj())
    return float(x), float(y)


# How far the view of the three keys is tilted out of their plane, in degrees: little
# enough that the plane reads as seen nearly edge-on, enough to show it is a triangle.
EDGE_ON_TILT = 18
# The patch of the keys' plane drawn around their triangle, a square of this half-side
# turned this many degrees from the line of sight: seen at a slant, it reads as a floor.
PLANE_HALF_SIDE = 1.4
PLANE_TURN = 25


def fig_key_geometry(results: dict, scheme: Scheme) -> Figure:
    """Left: the four fixed keys, a tetrahedron whose six edges are their differences.
    Right: the first three keys, the triangle of their differences on a patch of their
    plane, seen nearly edge-on, and the invisible direction u standing straight up from
    it, with a right-angle mark: a view in which u cannot be mistaken for a direction in
    the plane."""
    fixed = np.asarray(results["fixed_keys"])  # (4, 3)
    direction = np.asarray(results["variants"]["three_keys"]["invisible_direction"])  # (3,)
    fig = Figure(figsize=(7.2, 3.2), layout="constrained")
    limit = 1.6
    four = fig.add_subplot(1, 2, 1, projection="3d")
    _tetrahedron_axes(four, scheme, limit)
    _keys_drawn(four, fixed, scheme.seed_colours[0], "-", "o", True, scheme)
    three = fig.add_subplot(1, 2, 2, projection="3d")
    # Unnamed axes: seen from here, their names would sit on the keys.
    _tetrahedron_axes(three, scheme, limit, names=False)
    three.computed_zorder = False  # drawn in order: the plane, the triangle on it, u on top
    centre = fixed[:3].mean(axis=0)
    # The view runs along the median from k1: from there the three keys stand apart.
    median = (fixed[0] - centre) / np.linalg.norm(fixed[0] - centre)
    tilt = np.radians(EDGE_ON_TILT)
    _look_from(three, np.cos(tilt) * median + np.sin(tilt) * direction, direction)
    turn = np.radians(PLANE_TURN)
    side = np.cos(turn) * median + np.sin(turn) * np.cross(direction, median)  # in the plane
    other = np.cross(direction, side)
    patch = [centre + PLANE_HALF_SIDE * (a * side + b * other)
             for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))]
    three.add_collection3d(Poly3DCollection([patch], facecolor=scheme.grid, alpha=0.5,
                                            edgecolor=scheme.reference, linewidth=0.6))
    three.add_collection3d(Poly3DCollection([fixed[:3]], facecolor=scheme.seed_colours[0],
                                            alpha=0.25, edgecolor="none"))
    _keys_drawn(three, fixed[:3], scheme.seed_colours[0], "-", "o", True, scheme)
    colour = scheme.seed_colours[1]
    # A 2-D arrow between the projected ends: a 3-D quiver's head would be seen edge-on.
    three.annotate("", xy=_seen(three, centre + 1.3 * direction), xycoords="data",
                   xytext=_seen(three, centre), textcoords="data",
                   arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": 2.0,
                               "mutation_scale": 16, "shrinkA": 0, "shrinkB": 0})
    three.text(*(centre + 1.45 * direction), "u", color=colour, fontstyle="italic",
               fontweight="bold", ha="center", va="center", fontsize=LABEL_SIZE)
    # In the plane across the view (along k2 - k3), so that the mark is seen square on.
    _right_angle(three, centre, fixed[1] - fixed[2], direction, colour)
    return fig


def fig_learned_keys_geometry(results: dict, scheme: Scheme, narrow: bool = False) -> Figure:
    """Each learned-keys seed's keys (coloured, solid, labelled) against the fixed ones
    (grey, dotted), in that seed's own query coordinates, and the fixed keys in that seed's
    basis, K M^-T + c, as rings around them: one panel per seed, side by side or
    stacked (NARROW)."""
    fixed = np.asarray(results["fixed_keys"])  # (4, 3)
    seeds = results["variants"]["learned_keys"]["seeds"]
    fig = Figure(figsize=(NARROW_WIDTH, 3.2 * len(seeds)) if narrow
                 else (7.2, 2.9 * -(-len(seeds) // 3)), layout="constrained")
    for k, seed in enumerate(seeds):
        learned = np.asarray(seed["keys"])
        reach = max(float(np.abs(learned).max()), float(np.abs(fixed).max())) * 1.25
        ax = (fig.add_subplot(len(seeds), 1, k + 1, projection="3d") if narrow
              else fig.add_subplot(-(-len(seeds) // 3), 3, k + 1, projection="3d"))
        # Unnamed axes: each seed has coordinates of its own, and the keys' labels need
        # the room.
        _tetrahedron_axes(ax, scheme, reach, names=False)
        _keys_drawn(ax, fixed, scheme.reference, ":", ".", False, scheme, alpha=0.8)
        colour = scheme.seed_colours[k % len(scheme.seed_colours)]
        # The fixed keys in this seed's basis, K M^-T + c, as rings: the learned keys sit
        # in them.
        ax.scatter(*np.asarray(seed["mapped_fixed_keys"]).T, s=110, facecolors="none",
                   edgecolors=scheme.foreground, linewidths=1.0, depthshade=False)
        # Solid for every seed, told apart by colour and marker: dotted is the fixed keys'.
        _keys_drawn(ax, learned, colour, "-", SEED_MARKERS[k % len(SEED_MARKERS)], True,
                    scheme, avoid=fixed)
        ax.text2D(0.02, 0.92, f"s = {seed['seed']}", transform=ax.transAxes,
                  fontstyle="italic", color=scheme.foreground, fontsize=LABEL_SIZE)
    return fig


# The sketch of a loss that is flat along one direction: the valley floor's angle to the
# first axis (an angle at which Adam's per-entry steps slant visibly off the gradient),
# the start, and each optimiser's learning rate and steps (enough to reach the floor).
VALLEY_ANGLE = np.radians(70)
VALLEY_START = (1.2, -0.8)  # (across the floor, along it)
SKETCH_LR = {"SGD": 0.2, "Adam": 0.04}
SKETCH_STEPS = 120


def _sketch_paths(betas, eps) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """The floor's direction u, the downhill normal n, and each optimiser's path from one
    start on the loss L(w) = (n · w)² / 2, which no step along u changes: SGD's update
    and Adam's (torch.optim.Adam's, bias-corrected, with the run's betas and eps), two
    parameters standing for W_Q's entries."""
    u = np.array([np.cos(VALLEY_ANGLE), np.sin(VALLEY_ANGLE)])
    n = np.array([u[1], -u[0]])
    start = VALLEY_START[0] * n + VALLEY_START[1] * u
    paths = {}
    for name, lr in SKETCH_LR.items():
        w, m, v, path = start.copy(), np.zeros(2), np.zeros(2), [start]
        for t in range(1, SKETCH_STEPS + 1):
            grad = (n @ w) * n
            if name == "SGD":
                w = w - lr * grad
            else:
                m = betas[0] * m + (1 - betas[0]) * grad
                v = betas[1] * v + (1 - betas[1]) * grad**2
                m_hat, v_hat = m / (1 - betas[0] ** t), v / (1 - betas[1] ** t)
                w = w - lr * m_hat / (np.sqrt(v_hat) + eps)
            path.append(w)
        paths[name] = np.asarray(path)
    return u, n, paths


def fig_flat_direction(results: dict, scheme: Scheme) -> Figure:
    """A sketch, in two parameters, of a loss that is flat along u, as the three-keys
    student's is along its invisible direction: the contour lines run along u, SGD's
    path (dashed) goes straight downhill at right angles to them, and Adam's (solid),
    rescaling each parameter's step, slants and ends elsewhere on the floor."""
    u, n, paths = _sketch_paths(results["optimizer"]["betas"], results["optimizer"]["eps"])
    fig = Figure(figsize=(4.4, 3.0), layout="constrained")
    ax = fig.add_subplot()
    reach = 2.0
    for level in np.arange(-1.5, 2.01, 0.5):  # contour lines of L: n · w = level
        centre = level * n
        ax.plot(*np.stack([centre - 3 * u, centre + 3 * u]).T,
                color=scheme.reference if level == 0 else scheme.grid,
                linewidth=1.2 if level == 0 else 0.8, dashes=(1, 2) if level == 0 else (None, None),
                zorder=0)
    ax.annotate("", xy=1.15 * u, xytext=0.35 * u,
                arrowprops={"arrowstyle": "-|>", "color": scheme.foreground, "linewidth": 1.4,
                            "shrinkA": 0, "shrinkB": 0})
    ax.text(*(1.1 * u + 0.2 * n), "u", fontstyle="italic", fontweight="bold",
            color=scheme.foreground, ha="center", va="center", fontsize=12)
    styles = {"Adam": (scheme.seed_colours[0], "-"), "SGD": (scheme.seed_colours[1], "--")}
    for name in ("Adam", "SGD"):
        colour, linestyle = styles[name]
        path = paths[name]
        ax.plot(*path.T, color=colour, linestyle=linestyle, linewidth=1.8, label=name)
        ax.plot(*path[-1], linestyle="none", marker="o", markersize=5, color=colour)
    start = paths["SGD"][0]
    ax.plot(*start, linestyle="none", marker="o", markersize=6, markerfacecolor=scheme.background,
            markeredgecolor=scheme.foreground, label="t = 0")
    ax.set_xlim(-reach, reach)
    ax.set_ylim(-0.7 * reach, 0.7 * reach)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_xlabel("w₁", fontstyle="italic")
    ax.set_ylabel("w₂", fontstyle="italic", rotation=0, labelpad=10)
    ax.legend(loc="upper left", frameon=False, handlelength=1.8)
    return fig


class Drawing(NamedTuple):
    variant: str  # the variant whose results it draws: it can be drawn once that is measured
    build: Callable[[dict, Scheme], Figure]
    decimals: bool = True  # it prints decimal numbers, so it has a decimal-comma twin
    narrow: bool = False  # build takes narrow=True: a phone layout, panels stacked


FIGURES = {
    "query_response": Drawing("main", fig_query_response),
    "value_response": Drawing("main", fig_value_response),
    "loss_curves": Drawing("main", fig_loss_curves),
    "training_snapshots": Drawing("main", fig_training_snapshots, narrow=True),
    "learned_keys_query_responses": Drawing("learned_keys", fig_learned_keys_query_responses,
                                            narrow=True),
    "learned_keys_geometry": Drawing("learned_keys", fig_learned_keys_geometry,
                                     decimals=False, narrow=True),
    # Drawn once the three-keys student is in: it needs u.
    "key_geometry": Drawing("three_keys", fig_key_geometry, decimals=False),
    "three_keys_query_response": Drawing("three_keys", fig_three_keys_query_response),
    "three_keys_split": Drawing("three_keys", fig_three_keys_split),
    # Drawn once the SGD control is in: it draws the course of both.
    "three_keys_along_u": Drawing("three_keys_sgd", fig_three_keys_along_u),
    # A sketch that reads nothing of the run but Adam's settings.
    "flat_direction": Drawing("main", fig_flat_direction, decimals=False),
}


SCHEME_OF = {scheme.suffix: scheme for scheme in SCHEMES}


def _twins(name: str) -> list[figure_files.Twin]:
    drawing = FIGURES[name]
    return figure_files.twins(name, SCHEME_OF,
                              DECIMAL_MARKS if drawing.decimals else DECIMAL_MARKS[:1],
                              layouts=("", figure_files.NARROW) if drawing.narrow else ("",))


def write(name: str, results: dict, out_dir: Path) -> list[str]:
    """Write figure NAME in every scheme as SVG and PNG, and, if it prints decimals,
    with a decimal comma as SVG (<name>-comma.svg: the decimal-comma pages); a figure
    with a phone layout, that too, as SVG (<name>-narrow.svg, <name>-narrow-comma.svg);
    return the file names."""
    return figure_files.save_twins(
        _twins(name), lambda twin: style(SCHEME_OF[twin.suffix]),
        lambda twin: with_decimal_mark(_built(name, results, twin), twin.mark), out_dir)


def _built(name: str, results: dict, twin: figure_files.Twin) -> Figure:
    build, scheme = FIGURES[name].build, SCHEME_OF[twin.suffix]
    return build(results, scheme, narrow=True) if twin.layout else build(results, scheme)


def file_names(name: str) -> list[str]:
    """The files write(NAME, ...) writes."""
    return figure_files.file_names(_twins(name))
