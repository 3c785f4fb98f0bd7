"""The bank model's figures, one set per language (each page's own sentences label
them): fig_<name>() writes <name>-<lang>.svg/.png and <name>-<lang>-dark.svg/.png.

The words in them are the page's tokens and a few labels (WORDS); every number
comes from examples.json. Colours are Okabe-Ito's, one per role of a word, each
chosen for its background; shapes and line styles tell the roles apart as well,
for a reader who cannot tell the colours apart.
"""

from pathlib import Path

import numpy as np
from matplotlib import rc_context
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

from examples.bank import SENSES, SENTENCES
from examples.figures import THEMES, style
from provenance import figures as figure_files
from provenance.figure_style import SCHEMES

# Per theme: the colour of each role's arrows. Plain words take the shared style's
# reference colour and the head output its ink (provenance/figure_style.py); the roles
# that carry meaning take Okabe-Ito hues that read on that theme's background.
ROLES = {
    scheme.suffix: {"plain": scheme.reference, "h": scheme.foreground, **hues}
    for scheme, hues in zip(SCHEMES, (
        {"clue_1": "#0072B2", "clue_2": "#D55E00", "ambiguous": "#009E73", "query": "#CC79A7"},
        {"clue_1": "#56B4E9", "clue_2": "#E69F00", "ambiguous": "#5fd3ad", "query": "#e59cc9"},
    ), strict=True)
}
WORDS = {
    "en": {"head": "head {i}", "query": "query of “{w}”", "key": "key of “{w}”",
           "start": "“{w}” before", "masked": "masked"},
    "uk": {"head": "голова {i}", "query": "запит «{w}»", "key": "ключ «{w}»",
           "start": "«{w}» до оновлення", "masked": "замасковано"},
    "sv": {"head": "huvud {i}", "query": "fråga för ”{w}”", "key": "nyckel för ”{w}”",
           "start": "”{w}” före", "masked": "maskerad"},
}
QUOTE = {"en": "“{}”", "uk": "«{}»", "sv": "”{}”"}


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


def _plane(ax, theme, limits, xlabel, ylabel):
    ax.set_xlim(*limits[0])
    ax.set_ylim(*limits[1])
    ax.set_aspect("equal")
    ax.axhline(0, color=theme["grid"], linewidth=0.8, zorder=0)
    ax.axvline(0, color=theme["grid"], linewidth=0.8, zorder=0)
    ax.grid(True, color=theme["grid"], linewidth=0.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)


def teaser(data, language, theme, roles) -> Figure:
    """Where "bank" ends up in the sense plane in each sentence: the article's result."""
    pair = data["bank"]["sentences"][language]
    senses = SENSES[language]
    fig = Figure(figsize=(4.6, 4.0), layout="constrained")
    ax = fig.add_subplot()
    _plane(ax, theme, ((0, 1.6), (0, 1.6)), senses[0], senses[1])
    ax.plot([0, 1.6], [0, 1.6], color=theme["reference"], linestyle=":", linewidth=1)
    start = pair[0]["sense_before"]
    ax.plot(*start, marker="o", color=roles["ambiguous"], markersize=8, zorder=4)
    ax.annotate(WORDS[language]["start"].format(w=pair[0]["tokens"][pair[0]["ambiguous"]]),
                start, xytext=(8, -14), textcoords="offset points", fontsize=9)
    for number, (s, marker) in enumerate(zip(pair, ("s", "D"), strict=True), start=1):
        colour = roles[f"clue_{number}"]
        end = s["sense_after"]
        _arrow(ax, start, end, colour, width=2)
        ax.plot(*end, marker=marker, color=colour, markersize=7, zorder=4)
        clue = QUOTE[language].format(s["tokens"][s["clue"]])
        offset = (6, 6) if number == 1 else (-10, 8)
        ax.annotate(clue, end, xytext=offset, textcoords="offset points", color=colour,
                    ha="left" if number == 1 else "right", fontsize=10)
    return fig


def _distinct_keys(s):
    """One arrow per distinct key: [(key, tokens that share it, role)]."""
    groups = {}
    for token, role, key in zip(s["tokens"], s["roles"], s["K"], strict=True):
        groups.setdefault(tuple(key), (role, []))[1].append(token)
    return [(key, tokens, role) for key, (role, tokens) in groups.items()]


def query_keys(data, language, theme, roles) -> Figure:
    """The look plane of sentence 2: "bank"'s query, every word's key, the projections."""
    s = data["bank"]["sentences"][language][1]
    words = WORDS[language]
    bank_word = s["tokens"][s["ambiguous"]]
    fig = Figure(figsize=(5.6, 3.3), layout="constrained")
    ax = fig.add_subplot()
    _plane(ax, theme, ((-1.9, 3.4), (-1.3, 1.4)), "$u$", "$w$")
    q = np.array(s["query"])
    unit = q / np.linalg.norm(q)
    _arrow(ax, (0, 0), q, roles["query"], width=2.6,
           label=words["query"].format(w=bank_word) + r", $q$")
    for key, tokens, role in _distinct_keys(s):
        colour = roles[role if role != "ambiguous" else "ambiguous"]
        style = "--" if role == "plain" else "-"
        _arrow(ax, (0, 0), key, colour, width=1.6, style=style)
        foot = unit * float(np.dot(key, unit))  # the key's shadow on the query's line
        ax.plot([key[0], foot[0]], [key[1], foot[1]], color=colour, linestyle=":",
                linewidth=1)
        label = ", ".join(tokens)
        # Plain words' keys point down: their (long) label goes below the head.
        below = role == "plain"
        ax.annotate(label, key, xytext=(0, -6) if below else (4, 4),
                    textcoords="offset points", color=colour,
                    ha="center" if below else "left", va="top" if below else "bottom",
                    fontsize=9)
    ax.legend(frameon=False, loc="upper right", fontsize=9)
    return fig


def _tokens_axis(ax, tokens, axis="x"):
    ticks = range(len(tokens))
    if axis in ("x", "both"):
        ax.set_xticks(ticks, tokens, rotation=40, ha="right", rotation_mode="anchor")
    if axis in ("y", "both"):
        ax.set_yticks(ticks, tokens)


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
            ax.text(j, i, f"{w[i, j]:.2f}".replace(".", "," if language != "en" else "."),
                    ha="center", va="center", fontsize=7, color=ink)
    _tokens_axis(ax, tokens, "both")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)


def _hatched(x, y, theme):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, hatch="////",
                     edgecolor=theme["grid"], linewidth=0)


def softmax_pattern(data, language, theme, roles) -> Figure:
    """Sentence 2: "bank"'s weights as bars that sum to one; the whole causal grid."""
    s = data["bank"]["sentences"][language][1]
    tokens = s["tokens"]
    fig = Figure(figsize=(7.6, 3.6), layout="constrained")
    bars, grid = fig.subplots(1, 2, width_ratios=(1, 1.1))
    row = s["weights"][s["ambiguous"]]
    colours = [roles[r] for r in s["roles"]]
    hatches = ["//" if r == "plain" else "" for r in s["roles"]]
    for j, (w, colour, hatch) in enumerate(zip(row, colours, hatches, strict=True)):
        bars.bar(j, w, color=colour, hatch=hatch, edgecolor=theme["background"])
        text = f"{w:.2f}".replace(".", "," if language != "en" else ".")
        bars.text(j, w + 0.02, text, ha="center", fontsize=8)
    bars.set_ylim(0, 1)
    bars.set_ylabel(r"$a_j$")
    _tokens_axis(bars, tokens, "x")
    bars.grid(True, axis="y", color=theme["grid"], linewidth=0.4)
    bars.set_axisbelow(True)
    _pattern(grid, s["weights"], tokens, theme, language)
    return fig


def values_update(data, language, theme, roles) -> Figure:
    """Both sentences in the sense plane: value arrows, their weighted sum h, and "bank"
    moved by h (W_O writes h into the sense plane; the residual add moves the word)."""
    pair = data["bank"]["sentences"][language]
    senses = SENSES[language]
    fig = Figure(figsize=(7.6, 3.9), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    for number, (ax, s) in enumerate(zip(axes, pair, strict=True), start=1):
        _plane(ax, theme, ((-0.1, 1.5), (-0.1, 1.5)), senses[0], senses[1] if number == 1
               else "")
        for j, (v, role) in enumerate(zip(s["V"], s["roles"], strict=True)):
            if role == "plain":
                continue  # a plain word's value is the zero vector
            _arrow(ax, (0, 0), v, roles[role], width=1.2, style="--")
            ax.annotate(f"$v$ {QUOTE[language].format(s['tokens'][j])}", v,
                        xytext=(3, 3), textcoords="offset points", color=roles[role],
                        fontsize=8)
            ax.plot(*np.array(s["contributions"][j]), marker=".", color=roles[role])
        h, start, end = s["h"], s["sense_before"], s["sense_after"]
        _arrow(ax, (0, 0), h, roles["h"], width=2.2)
        ax.annotate("$h$", h, xytext=(4, -10), textcoords="offset points", fontsize=10)
        _arrow(ax, start, end, roles[f"clue_{number}"], width=2.2)
        ax.plot(*start, marker="o", color=roles["ambiguous"], markersize=7, zorder=4)
        ax.plot(*end, marker="s" if number == 1 else "D", color=roles[f"clue_{number}"],
                markersize=6, zorder=4)
        ax.annotate(r"$x + hW_O$", end, xytext=(-4, 6), textcoords="offset points",
                    ha="right" if number == 2 else "left", fontsize=9)
        ax.set_title(" ".join(s["tokens"]), fontsize=9)
    return fig


def two_heads(data, language, theme, roles) -> Figure:
    """Sentence 2 read by both heads: two causal attention matrices side by side."""
    s = data["bank"]["sentences"][language][1]
    s2 = data["heads"]["sentences"][language][1]
    fig = Figure(figsize=(7.6, 3.7), layout="constrained")
    axes = fig.subplots(1, 2)
    for i, (ax, weights) in enumerate(zip(axes, (s["weights"], s2["weights_2"]),
                                          strict=True), start=1):
        _pattern(ax, weights, s["tokens"], theme, language)
        ax.set_title(WORDS[language]["head"].format(i=i), fontsize=10)
    return fig


DRAWINGS = {"bank-teaser": teaser, "bank-query-keys": query_keys,
            "bank-softmax": softmax_pattern, "bank-values": values_update,
            "bank-heads": two_heads}


def figure_function(name: str):
    def fig(data: dict, out_dir: Path) -> None:
        for language in SENTENCES:
            for suffix, theme in THEMES.items():
                with rc_context(style(theme)):
                    drawing = DRAWINGS[name](data, language, theme, ROLES[suffix])
                    figure_files.save(drawing, out_dir, f"{name}-{language}{suffix}")

    fig.__name__ = f"fig_{name.replace('-', '_')}"
    return fig


FIGURES = {name: figure_function(name) for name in DRAWINGS}


def file_names() -> list[str]:
    return [f"{name}-{language}{suffix}.{fmt}" for name in DRAWINGS for language in SENTENCES
            for suffix in THEMES for fmt in ("svg", "png")]
