"""The bank model's figures, one set per language (each page's own sentences label
them): fig_<name>() writes <name>-<lang>.svg and <name>-<lang>-dark.svg.

Each figure is one panel, at most 4.4 inches wide, so that it shows its text at a
readable size on a phone, where the page stacks a pair of panels (the look plane
and the sense plane, the weight matrices and W_Q's quarter turn, one
sentence's sense plane and the other's, head 1 and head 2) that a wide screen shows
side by side. Numbers are written the page's way (its record's decimal sign,
and a true minus sign). The pages show SVG only, so no PNG is drawn.

The words in them are the page's tokens, its quotes and a few labels, all from the
language's record (locales/<code>.toml: [bank], quote, [figures]); every number
comes from examples.json. Symbols are Unicode in italic rather than mathtext ($...$),
whose parser is slow; only the weight matrices' subscripts (W_Q, hW_O) use it.
Colours are Okabe-Ito's, one per role of a word, each chosen for its background;
shapes and line styles tell the roles apart as well, for a reader who cannot tell
the colours apart.
"""

from pathlib import Path

import numpy as np
from matplotlib.colors import LinearSegmentedColormap, to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

import locales
from drawing import files as figure_files
from drawing.style import SCHEMES, signed
from examples.bank import senses as bank_senses
from examples.figures import THEMES, style

# Per theme: the colour of each role's arrows. Plain words take the shared style's
# reference colour and the head output its ink (drawing/style.py); the roles
# that carry meaning take Okabe-Ito hues that read on that theme's background.
ROLES = {
    scheme.suffix: {"plain": scheme.reference, "h": scheme.foreground, **hues}
    for scheme, hues in zip(SCHEMES, (
        {"clue_1": "#0072B2", "clue_2": "#D55E00", "ambiguous": "#009E73", "query": "#CC79A7"},
        {"clue_1": "#56B4E9", "clue_2": "#E69F00", "ambiguous": "#5fd3ad", "query": "#e59cc9"},
    ), strict=True)
}


def number(value: float, language: str, digits: int | None = 2) -> str:
    """VALUE as the page writes it: DIGITS decimals (None: as few as needed), the
    decimal sign of the language's record, and a minus sign rather than a hyphen."""
    text = f"{value:g}" if digits is None else f"{value:.{digits}f}"
    return signed(text).replace(".", locales.record(language).numbers.decimal)


def _quoted(word: str, language: str) -> str:
    return locales.record(language).quote.format(word)


def _cmap(theme: dict) -> LinearSegmentedColormap:
    """Background to blue: light cells read as little weight on either page."""
    return LinearSegmentedColormap.from_list("weights", [theme["background"], theme["scaled"]])


def _arrow(ax, start, end, colour, width=1.6, style="-", label=None, zorder=3):
    ax.annotate("", xy=end, xytext=start, zorder=zorder,
                arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": width,
                            "linestyle": style, "shrinkA": 0, "shrinkB": 0,
                            "mutation_scale": 12})
    if label:
        ax.plot([], [], color=colour, linewidth=width, linestyle=style, label=label)


def _plane(ax, theme, language, limits, ticks, xlabel, ylabel, symbols=False):
    """Axes of a plane at one scale, with a few ticks written the page's way; the axis
    labels are words, or symbols (set in italic)."""
    ax.set_xlim(*limits[0])
    ax.set_ylim(*limits[1])
    ax.set_aspect("equal")
    for axis, values in ((ax.xaxis, ticks[0]), (ax.yaxis, ticks[1])):
        axis.set_ticks(values, [number(v, language, None) for v in values])
    ax.axhline(0, color=theme["grid"], linewidth=0.8, zorder=0)
    ax.axvline(0, color=theme["grid"], linewidth=0.8, zorder=0)
    ax.grid(True, color=theme["grid"], linewidth=0.4)
    style = "italic" if symbols else "normal"
    ax.set_xlabel(xlabel, fontstyle=style)
    ax.set_ylabel(ylabel, fontstyle=style)


SENSE_LIMITS = ((-0.15, 2.35), (-0.15, 2.35))
SENSE_TICKS = ((0, 0.5, 1, 1.5, 2), (0, 0.5, 1, 1.5, 2))


def teaser(data, language, theme, roles) -> Figure:
    """Where "bank" ends up in the sense plane in each sentence: the article's result."""
    pair = data["bank"]["sentences"][language]
    senses = bank_senses()[language]
    fig = Figure(figsize=(3.8, 3.6), layout="constrained")
    ax = fig.add_subplot()
    _plane(ax, theme, language, SENSE_LIMITS, SENSE_TICKS, senses[0], senses[1])
    ax.plot([0, 1.55], [0, 1.55], color=theme["reference"], linestyle=":", linewidth=1)
    start = pair[0]["sense_before"]
    ax.plot(*start, marker="o", color=roles["ambiguous"], markersize=8, zorder=4)
    words = locales.record(language).figures
    ax.annotate(words["start"].format(w=pair[0]["tokens"][pair[0]["ambiguous"]]), start,
                xytext=(8, -14), textcoords="offset points")
    for index, (s, marker) in enumerate(zip(pair, ("s", "D"), strict=True), start=1):
        colour = roles[f"clue_{index}"]
        end = s["sense_after"]
        _arrow(ax, start, end, colour, width=2)
        ax.plot(*end, marker=marker, color=colour, markersize=7, zorder=4)
        clue = words["end"].format(w=_quoted(s["tokens"][s["clue"]], language))
        # Sentence 1 ends low and right, sentence 2 high: each label on the free side.
        offset, align = ((-2, 9), "right") if index == 1 else ((9, -4), "left")
        ax.annotate(clue, end, xytext=offset, textcoords="offset points", color=colour,
                    ha=align, va="center" if index == 2 else "bottom")
    return fig


# A word's shape wherever the figures place it, so that a reader who cannot tell the
# colours apart tells the roles apart: "bank" a circle, the clues a square and a
# diamond (as where "bank" ends in each sentence), the plain words a triangle.
MARKERS = {"plain": "^", "ambiguous": "o", "clue_1": "s", "clue_2": "D"}
MARKER_SIZES = {"plain": 7, "ambiguous": 8, "clue_1": 9, "clue_2": 6}  # a diamond fits
# inside the square where the two clues share a point


def _words_by_role(data, language) -> dict[str, list[str]]:
    """The words of the page's two sentences by role, each once, in order, each in the
    language's quotes, as the prose and every figure quote a word."""
    words: dict[str, list[str]] = {}
    for s in data["bank"]["sentences"][language]:
        for token, role in zip(s["tokens"], s["roles"], strict=True):
            if _quoted(token, language) not in words.setdefault(role, []):
                words[role].append(_quoted(token, language))
    return words


def _wrapped(words, width: int = 22, separator: str = ",") -> list[str]:
    """WORDS joined by SEPARATOR and a space, in lines of at most WIDTH characters where
    a word allows."""
    lines = [words[0]]
    for word in words[1:]:
        if len(lines[-1]) + 2 + len(word) > width:
            lines[-1] += separator
            lines.append(word)
        else:
            lines[-1] += f"{separator} {word}"
    return lines


def _vector(values, language: str) -> str:
    """A vector as the page writes it: [3, 0], or [3; 0] where the decimal sign is a comma."""
    separator = "; " if locales.record(language).numbers.decimal == "," else ", "
    return "[" + separator.join(number(v, language, None) for v in values) + "]"


def _label(ax, point, lines, offset, ha="left", va="center", fontsize=9,
           xycoords="data") -> None:
    """LINES, [(text, colour)], stacked one under the other beside POINT (in XYCOORDS):
    the block's edge VA sits OFFSET points away from it."""
    step = fontsize + 2
    for i, (text, colour) in enumerate(lines):
        shift = {"top": -i, "bottom": len(lines) - 1 - i,
                 "center": (len(lines) - 1) / 2 - i}[va] * step
        ax.annotate(text, point, xycoords=xycoords, xytext=(offset[0], offset[1] + shift),
                    textcoords="offset points", ha=ha, va=va, color=colour,
                    fontsize=fontsize)


def _place(ax, point, role, roles) -> None:
    ax.plot(*point, linestyle="none", marker=MARKERS[role], color=roles[role],
            markersize=MARKER_SIZES[role], zorder=4)


def _data_ticks(points, axis: int) -> list[float]:
    """The coordinates the points take on AXIS, and 0: the grid runs through each."""
    return sorted({0.0, *(float(p[axis]) for p in points)})


def _planes(data, plane: int) -> dict[str, tuple[float, float]]:
    """Each role's point in PLANE (0: look, 1: sense) of the model's embeddings."""
    embeddings = data["bank"]["model"]["embeddings"]
    return {role: tuple(e[2 * plane: 2 * plane + 2]) for role, e in embeddings.items()}


# Where each role's words stand beside its point, per plane: (offset, ha, va).
PLACED_LABELS = {
    0: {"plain": ((9, 0), "left", "center"), "ambiguous": ((9, 0), "left", "center"),
        "clue_1": ((0, 8), "center", "bottom"), "clue_2": ((0, -8), "center", "top")},
    1: {"plain": ((5, -7), "left", "top"), "ambiguous": ((9, -2), "left", "top"),
        "clue_1": ((0, 9), "center", "bottom"), "clue_2": ((9, 0), "left", "center")},
}


def placed(plane: int):
    """Every word of both sentences at its embedding's point in PLANE (0: the look
    plane, whose point W_K copies into the key; 1: the sense plane), in its role's
    colour and shape, labelled with its words; the grid runs through the points."""

    def draw(data, language, theme, roles) -> Figure:
        words = locales.record(language).figures
        points = _planes(data, plane)
        by_role = _words_by_role(data, language)
        fig = Figure(figsize=(3.8, 3.7), layout="constrained")
        ax = fig.add_subplot()
        if plane == 0:
            limits, labels = ((-1.05, 1.6), (-1.25, 1.35)), ("u", "w")
        else:
            limits, labels = ((-0.3, 1.45), (-0.5, 1.3)), bank_senses()[language]
            ax.plot([0, 1.2], [0, 1.2], color=theme["reference"], linestyle=":", linewidth=1)
        ticks = tuple(_data_ticks(points.values(), axis) for axis in (0, 1))
        _plane(ax, theme, language, limits, ticks, *labels, symbols=plane == 0)
        for role in sorted(points, key=lambda r: -MARKER_SIZES[r]):  # small on top
            _place(ax, points[role], role, roles)
            offset, ha, va = PLACED_LABELS[plane][role]
            _label(ax, points[role], [(line, roles[role]) for line in _wrapped(by_role[role])],
                   offset, ha, va)
        ax.set_title(words[("look_plane", "sense_plane")[plane]], fontsize=10)
        return fig

    return draw


def _turn(ax, look, query, colour) -> None:
    """LOOK (dashed) turned into QUERY (solid) along a spiral: the quarter turn
    clockwise, its radius growing from the look arrow's length to the query's, kept
    off both arrows' tips."""
    start = np.arctan2(look[1], look[0])
    t = np.linspace(0.1, 0.85, 40)
    angles = start - t * np.pi / 2  # clockwise
    radii = np.hypot(*look) + t * (np.hypot(*query) - np.hypot(*look))
    arc = radii[:, None] * np.column_stack((np.cos(angles), np.sin(angles)))
    ax.plot(arc[:-1, 0], arc[:-1, 1], color=colour, linewidth=1.1, zorder=2)
    _arrow(ax, arc[-3], arc[-1], colour, width=1.1, zorder=2)
    _arrow(ax, (0, 0), query, colour, width=2.2)
    _arrow(ax, (0, 0), look, colour, width=1.4, style="--", zorder=4)


QUARTER_TURN_ORDER = ("ambiguous", "clue_1", "plain")  # the page's order: "bank" first


def quarter_turn(data, language, theme, roles) -> Figure:
    """W_Q on the look plane, one panel per kind of word ("bank", the clues, the plain
    words): its look coordinates (u, w) (dashed), the quarter turn clockwise that W_Q gives
    them, stretched (a spiral), and its query q = xW_Q (solid), labelled with the
    run's numbers; the fourth corner says which line is which."""
    words = locales.record(language).figures
    by_role = _words_by_role(data, language)
    looks = _planes(data, 0)
    queries = {}
    for s in data["bank"]["sentences"][language]:
        for role, q in zip(s["roles"], s["Q"], strict=True):
            queries.setdefault(role, tuple(q))
    groups: dict[tuple, list[str]] = {}  # one panel per distinct look point
    for role in sorted(by_role, key=lambda r: QUARTER_TURN_ORDER.index(r)
                       if r in QUARTER_TURN_ORDER else len(QUARTER_TURN_ORDER)):
        groups.setdefault(looks[role], []).append(role)
    points = [*looks.values(), *queries.values()]
    reach = max(abs(x) for p in points for x in p) + 0.6
    ticks = tuple(range(-int(reach), int(reach) + 1, max(1, int(reach))))
    fig = Figure(figsize=(4.0, 4.4), layout="constrained")
    fig.get_layout_engine().set(h_pad=0.06)  # room above a title of two lines
    *panels, key = fig.subplots(2, 2).flat  # three kinds of word, and the key
    for ax, (look, members) in zip(panels, groups.items(), strict=True):
        colour = roles[members[0]]
        query = queries[members[-1]]
        _plane(ax, theme, language, ((-reach, reach), (-reach, reach)), (ticks, ticks),
               "u", "w", symbols=True)
        ax.xaxis.labelpad = 0
        ax.yaxis.labelpad = 0
        ax.tick_params(labelsize=8, length=2, pad=1)
        _turn(ax, look, query, colour)
        lines = [(word, roles[role]) for role in members for word in _wrapped(by_role[role])]
        _label(ax, (0.5, 1), lines, (0, 4), "center", "bottom", xycoords="axes fraction")
        offset, ha, va = _turned_label(query)
        _label(ax, query, [(_vector(query, language), colour)], offset, ha, va, fontsize=8)
    key.set_axis_off()
    handles = [key.plot([], [], color=theme["ink"], linewidth=1.4, linestyle="--")[0],
               key.plot([], [], color=theme["ink"], linewidth=1.1)[0],
               key.plot([], [], color=theme["ink"], linewidth=2.2)[0]]
    stretch = data["bank"]["model"]["W_Q"][1][0]
    names = [f"{words['look']} $(u, w)$", words["turn"].format(k=number(stretch, language, None)),
             f"{words['queries']} $q = xW_Q$"]
    key.legend(handles, names, frameon=False, loc="center", fontsize=8.5,
               handlelength=1.8)
    return fig


def _turned_label(query) -> tuple[tuple[float, float], str, str]:
    """Where a query's numbers go: beside its tip, on the side the spiral that reaches
    it does not come from (it arrives from the anticlockwise side)."""
    u, w = query
    if abs(w) < 1e-9:
        return ((0, -6), "right", "top") if u > 0 else ((0, 6), "left", "bottom")
    if abs(u) < 1e-9:
        return ((6, 0), "left", "center") if w < 0 else ((-6, 0), "right", "center")
    return (6, 2), "left", "bottom"


def weights(data, language, theme, roles) -> Figure:
    """W_Q, W_K and W_V as grids of cells with the run's entries, one row per embedding
    coordinate (the look plane's u and w, a gap, the two senses): W_Q and W_K read the
    look plane, W_V the sense plane. A non-zero entry is tinted: W_Q's in the query's
    colour, W_V's in the colour of the sense its column writes."""
    model = data["bank"]["model"]
    senses = bank_senses()[language]
    fills = {"W_Q": lambda column: to_rgba(roles["query"], 0.3),  # per column of the matrix
             "W_K": lambda column: to_rgba(theme["reference"], 0.25),
             "W_V": lambda column: to_rgba(roles[f"clue_{column + 1}"], 0.3)}
    names = ("u", "w", *(_wrapped(sense.split(), 10, separator="") for sense in senses))
    fig = Figure(figsize=(3.4, 1.9), layout="constrained")
    ax = fig.add_subplot()
    ax.set_axis_off()
    ax.set_aspect("equal")
    rows_y = (3.3, 2.3, 1.0, 0.0)  # u, w, then a gap, then the senses
    step = 2.9  # from one grid's left edge to the next's; the first's is at 0
    for k, (name, fill) in enumerate(fills.items()):
        x = k * step
        for y, row in zip(rows_y, model[name], strict=True):
            _cells(ax, x, y, row, language, [fill(c) if v else None for c, v in enumerate(row)],
                   theme, digits=None)
        ax.text(x + 1, rows_y[0] + 1.25, f"${name}$", ha="center", va="bottom",
                fontsize=12, color=theme["ink"])
    for y, name in zip(rows_y, names, strict=True):
        symbol = isinstance(name, str)
        ax.text(-0.25, y + 0.5, name if symbol else "\n".join(name), ha="right",
                va="center", fontsize=10 if symbol else 8, color=theme["ink"],
                fontstyle="italic" if symbol else "normal")
    ax.set_xlim(-2.9, 2 * step + 2.1)  # room for a two-line sense name
    ax.set_ylim(-0.1, rows_y[0] + 2.1)
    return fig


def _distinct_keys(tokens, roles, keys):
    """One arrow per distinct key: [(key, tokens that share it, role)]."""
    groups = {}
    for token, role, key in zip(tokens, roles, keys, strict=True):
        groups.setdefault(tuple(key), (role, []))[1].append(token)
    return [(key, tokens, role) for key, (role, tokens) in groups.items()]


def _shadows(ax, s, query, keys, theme, language, roles, limits, ticks) -> None:
    """The look plane of sentence S: "bank"'s QUERY, the KEYS of its words, and each
    key's shadow on the query's line, whose length times the query's is the dot product."""
    words = locales.record(language).figures
    _plane(ax, theme, language, limits, ticks, "u", "w", symbols=True)
    q = np.asarray(query)
    unit = q / np.linalg.norm(q)
    _arrow(ax, (0, 0), q, roles["query"], width=2.6,
           label=words["query"].format(w=s["tokens"][s["ambiguous"]]))
    for key, tokens, role in _distinct_keys(s["tokens"], s["roles"], keys):
        colour = roles[role]
        _arrow(ax, (0, 0), key, colour, width=1.6, style="--" if role == "plain" else "-")
        foot = unit * float(np.dot(key, unit))  # the key's shadow on the query's line
        ax.plot([key[0], foot[0]], [key[1], foot[1]], color=colour, linestyle=":",
                linewidth=1)
        # Plain words' keys point down and left: their (long) label runs right, below.
        # Any other key's label stands on the far side of the key from the query's line,
        # clear of the query's arrow.
        below = role == "plain"
        beneath = not below and q[0] * key[1] - q[1] * key[0] < 0
        ax.annotate(", ".join(_quoted(t, language) for t in tokens), key,
                    xytext=(-6, -5) if below else (4, -4) if beneath else (4, 4),
                    textcoords="offset points", color=colour, ha="left",
                    va="top" if below or beneath else "bottom", fontsize=9)
    ax.legend(frameon=False, loc="upper right", fontsize=9, handlelength=1.5)


def query_keys(data, language, theme, roles) -> Figure:
    """The look plane of sentence 2: "bank"'s query, every word's key, the projections."""
    s = data["bank"]["sentences"][language][1]
    fig = Figure(figsize=(4.4, 3.0), layout="constrained")
    _shadows(fig.add_subplot(), s, s["query"], s["K"], theme, language, roles,
             ((-1.3, 3.3), (-1.3, 1.4)), ((-1, 0, 1, 2, 3), (-1, 0, 1)))
    return fig


def _span(values, margin) -> tuple[float, float]:
    """An axis's limits: from below 0 and every value to above them, by MARGIN."""
    return min(0.0, *values) - margin, max(0.0, *values) + margin


def basis_change(data, language, theme, roles) -> Figure:
    """The look plane of sentence 2 again, in head 1's changed basis: the query x W_Q M,
    the keys x W_K M^-T; the clue's dot product with the query is written on it."""
    s = data["bank"]["sentences"][language][1]
    heads = data["heads"]
    query, keys = heads["query_new"], heads["keys_new"][language]
    points = [query, *keys]
    limits = tuple(_span([p[axis] for p in points], 0.6) for axis in (0, 1))
    ticks = tuple(range(int(np.ceil(low)), int(np.floor(high)) + 1) for low, high in limits)
    fig = Figure(figsize=(4.4, 3.3), layout="constrained")
    ax = fig.add_subplot()
    _shadows(ax, s, query, keys, theme, language, roles, limits, ticks)
    clue = keys[s["clue"]]
    ax.text(0.98, 0.04, f"q · k = {number(float(np.dot(query, clue)), language, None)}",
            transform=ax.transAxes, ha="right", color=roles[s["roles"][s["clue"]]],
            fontstyle="italic", fontsize=10)
    return fig


def _tokens_axis(ax, tokens, axis="x"):
    ticks = range(len(tokens))
    if axis in ("x", "both"):
        ax.set_xticks(ticks, tokens, rotation=40, ha="right", rotation_mode="anchor")
    if axis in ("y", "both"):
        ax.set_yticks(ticks, tokens)


def _hatched(x, y, theme):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, hatch="////",
                     edgecolor=theme["grid"], linewidth=0)


def _pattern(ax, weights, tokens, theme, language):
    """A causal attention matrix as a grid: masked cells empty and hatched."""
    w = np.array(weights)
    n = len(tokens)
    shown = np.ma.masked_where(np.triu(np.ones((n, n), dtype=bool), 1), w)
    ax.imshow(shown, cmap=_cmap(theme), vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            if j > i:
                ax.add_patch(_hatched(j, i, theme))
                continue
            ink = theme["background"] if w[i, j] > 0.55 else theme["ink"]
            ax.text(j, i, number(w[i, j], language), ha="center", va="center", fontsize=8,
                    color=ink)
    _tokens_axis(ax, tokens, "both")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)


def _panel() -> tuple[Figure, object]:
    """A figure of one panel at the size of the grids'."""
    fig = Figure(figsize=(3.8, 3.7), layout="constrained")
    return fig, fig.add_subplot()


def pattern(data, language, theme, roles) -> Figure:
    """Sentence 2: the whole causal attention matrix of head 1."""
    s = data["bank"]["sentences"][language][1]
    fig, ax = _panel()
    _pattern(ax, s["weights"], s["tokens"], theme, language)
    return fig


def values_update(index: int):
    """Sentence INDEX (1 or 2) in the sense plane: value arrows, their weighted sum h,
    and "bank" moved by h (W_O writes h into the sense plane; the residual add)."""

    def draw(data, language, theme, roles) -> Figure:
        s = data["bank"]["sentences"][language][index - 1]
        senses = bank_senses()[language]
        fig = Figure(figsize=(3.7, 3.8), layout="constrained")
        ax = fig.add_subplot()
        _plane(ax, theme, language, SENSE_LIMITS, SENSE_TICKS, senses[0], senses[1])
        h, start, end = (np.array(s[key]) for key in ("h", "sense_before", "sense_after"))
        for j, (v, role) in enumerate(zip(s["V"], s["roles"], strict=True)):
            if role == "plain":
                continue  # a plain word's value is the zero vector
            _arrow(ax, (0, 0), v, roles[role], width=1.2, style="--")
            label = _quoted(s["tokens"][j], language)
            if role == "ambiguous":  # its head is where "bank" starts: label away from
                # the update arrow, which leaves it rightwards (1) or upwards (2)
                offset, align, va = ((-6, 4), "right", "bottom") if index == 1 else (
                    (6, -6), "left", "top")
            else:
                offset, align, va = (3, 4), "left", "bottom"
            ax.annotate(label, v, xytext=offset, textcoords="offset points", ha=align,
                        va=va, color=roles[role], fontsize=9)
            ax.plot(*np.array(s["contributions"][j]), marker=".", color=roles[role])
        _arrow(ax, (0, 0), h, roles["h"], width=2.2)
        # h's label beside its head, on the side towards the diagonal, off the values.
        normal = np.array((-h[1], h[0])) / np.linalg.norm(h)
        if np.dot(normal, np.ones(2) / np.sqrt(2) - h / np.linalg.norm(h)) < 0:
            normal = -normal
        ax.annotate("h", h, xytext=tuple(9 * normal), textcoords="offset points",
                    ha="center", va="center", fontsize=11, fontstyle="italic")
        _arrow(ax, start, end, roles[f"clue_{index}"], width=2.2)
        ax.plot(*start, marker="o", color=roles["ambiguous"], markersize=7, zorder=4)
        ax.plot(*end, marker="s" if index == 1 else "D", color=roles[f"clue_{index}"],
                markersize=6, zorder=4)
        # The end lies near the right edge (1) or the top (2): the label inside.
        offset, align, va = ((-2, 9), "right", "bottom") if index == 1 else (
            (9, -2), "left", "center")
        ax.annotate(r"$x + hW_O$", end, xytext=offset, textcoords="offset points",
                    ha=align, va=va, fontsize=10)
        ax.set_title(" ".join(s["tokens"]), fontsize=10)
        return fig

    return draw


def head_pattern(index: int):
    """Sentence 2 read by head INDEX (1 or 2): its causal attention matrix."""

    def draw(data, language, theme, roles) -> Figure:
        weights = (data["bank"]["sentences"][language][1]["weights"] if index == 1
                   else data["heads"]["sentences"][language][1]["weights_2"])
        fig, ax = _panel()
        _pattern(ax, weights, data["bank"]["sentences"][language][1]["tokens"], theme,
                 language)
        ax.set_title(locales.record(language).figures["head"].format(i=index), fontsize=11)
        return fig

    return draw


def _cells(ax, x, y, values, language, fills, theme, width=1.0, digits=2) -> None:
    """A row of cells from (X, Y), left to right, each value written the page's way on
    its fill (None: the background)."""
    for i, (value, fill) in enumerate(zip(values, fills, strict=True)):
        ax.add_patch(Rectangle((x + i * width, y), width, 1, facecolor=fill or "none",
                               edgecolor=theme["ink"], linewidth=0.8))
        ax.text(x + (i + 0.5) * width, y + 0.5, number(value, language, digits), ha="center",
                va="center", fontsize=9, color=theme["ink"])


LAYER_WIDTH = 4.4  # inches, as every bank figure at most


def _fit_height(fig, ax, xlim, bottom, base, names) -> None:
    """FIG, which AX fills, just tall enough for what AX draws from BOTTOM up to the
    NAMES that stand on BASE (rotated, as long as the language makes them), and wide
    enough for them, at one scale on both axes: no blank band above the drawing."""
    width = fig.get_figwidth()
    fig.draw_without_rendering()
    extents = [name.get_window_extent() for name in names]  # in pixels, whatever the limits
    low, high = xlim
    for name, extent in zip(names, extents, strict=True):
        # The right end of NAME, x + w (high - low) / width, must stay below HIGH.
        w = extent.width / fig.dpi
        high = max(high, (name.get_position()[0] - w * low / width) / (1 - w / width) + 0.1)
    per_inch = (high - low) / width  # data units per inch, on both axes
    rise = max(extent.height for extent in extents) / fig.dpi * per_inch
    top = base + rise + 0.15
    ax.set_xlim(low, high)
    ax.set_ylim(bottom, top)
    fig.set_size_inches(width, (top - bottom) / per_inch)


def layer(data, language, theme, roles) -> Figure:
    """"bank"'s row through the whole layer, in the page's row-vector convention: its
    head outputs h⁽¹⁾ and h⁽²⁾ side by side, one row, their concatenation, times W_O,
    whose blocks route head 1 into the sense plane and head 2 into the look plane; under
    W_O, in its columns, the residual add x + [h⁽¹⁾ h⁽²⁾] W_O = x′."""
    s = data["heads"]["sentences"][language][1]
    W_O = data["heads"]["W_O"]
    heads = (roles["clue_2"], roles["ambiguous"])  # head 1 finds the clue; head 2 the word
    tint = [to_rgba(colour, 0.28) for colour in heads]
    row_head = [0, 0, 1, 1]  # which head each entry of the concatenation comes from
    fig = Figure(figsize=(LAYER_WIDTH, LAYER_WIDTH))
    ax = fig.add_axes((0, 0, 1, 1))  # the figure is the plot: _fit_height sizes it
    ax.set_axis_off()
    left, top = 5.0, 8.0  # W_O's top-left corner; the concatenation stands left of it
    row_y = top - 2.5  # the concatenation, level with W_O's middle
    _cells(ax, 0.0, row_y, [*s["h_1"], *s["h_2"]], language,
           [tint[head] for head in row_head], theme)
    for index, colour in enumerate(heads):  # a bracket and a name over each head's part
        x0, x1 = 2 * index + 0.05, 2 * index + 1.95
        y = row_y + 1.15
        ax.plot([x0, x0, x1, x1], [y - 0.1, y, y, y - 0.1], color=colour, linewidth=1.4)
        ax.text((x0 + x1) / 2, y + 0.1, f"$h^{{({index + 1})}}$", ha="center", va="bottom",
                color=colour, fontsize=11)
    for i, row in enumerate(W_O):  # row i of W_O meets entry i of the concatenation
        _cells(ax, left, top - 1 - i, row, language,
               [tint[row_head[i]] if entry else None for entry in row], theme, digits=None)
    ax.text(left - 0.5, row_y + 0.5, "×", ha="center", va="center", fontsize=13,
            color=theme["ink"])
    ax.text(left + 4.15, top - 2, "$W_O$", ha="left", va="center", fontsize=11,
            color=theme["ink"])
    senses = bank_senses()[language]
    names = [ax.text(left + j + 0.3, top + 0.15, name, ha="left", va="bottom", fontsize=8,
                     color=theme["ink"], fontstyle="italic" if j < 2 else "normal",
                     rotation=0 if j < 2 else 35, rotation_mode="anchor")
             for j, name in enumerate(("u", "w", *senses))]  # look plane, sense plane
    rows = (("x", s["x"], [None] * 4), ("+", s["written"], [tint[1]] * 2 + [tint[0]] * 2),
            ("= x′", s["updated"], [None] * 4))
    for k, (label, values, fills) in enumerate(rows):
        y = top - 5.4 - 1.15 * k
        _cells(ax, left, y, values, language, fills, theme)
        ax.text(left - 0.2, y + 0.5, label, ha="right", va="center", fontsize=11,
                color=theme["ink"], fontstyle="italic")
    _fit_height(fig, ax, (-0.2, left + 5.0), top - 5.4 - 1.15 * 2 - 0.2, top + 0.15, names)
    return fig


DRAWINGS = {"bank-teaser": teaser, "bank-look-plane": placed(0),
            "bank-sense-plane": placed(1), "bank-weights": weights,
            "bank-quarter-turn": quarter_turn, "bank-query-keys": query_keys,
            "bank-basis-change": basis_change, "bank-layer": layer,
            "bank-pattern": pattern,
            "bank-values-1": values_update(1), "bank-values-2": values_update(2),
            "bank-head-1": head_pattern(1), "bank-head-2": head_pattern(2)}
FORMATS = ("svg",)  # the pages show SVG; nothing links a PNG of these


def _twins(name: str, language: str) -> list[figure_files.Twin]:
    return figure_files.twins(f"{name}-{language}", THEMES, formats=FORMATS)


def figure_function(name: str):
    def fig(data: dict, out_dir: Path) -> None:
        for language in locales.codes():
            figure_files.save_twins(
                _twins(name, language), lambda twin: style(THEMES[twin.suffix]),
                lambda twin, language=language: DRAWINGS[name](
                    data, language, THEMES[twin.suffix], ROLES[twin.suffix]), out_dir)

    fig.__name__ = f"fig_{name.replace('-', '_')}"
    return fig


FIGURES = {name: figure_function(name) for name in DRAWINGS}


def file_names() -> list[str]:
    return [file for name in DRAWINGS for language in locales.codes()
            for file in figure_files.file_names(_twins(name, language))]
