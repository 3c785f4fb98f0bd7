"""Computed values: looked up by dotted path, formatted, and marked in the HTML.

Every value a page shows is wrapped as
``<span class="value" data-key="experiment.seeds.0.heldout_mse" data-style="sci2">…</span>``
so that tests can check each printed number against results.json, and the
structural-parity test can compare the values the three languages show.
"""

from __future__ import annotations

import html

from sitebuild.numbers import (
    format_items,
    format_list,
    format_matrix,
    format_range,
    format_value,
    format_vector,
)


class UnknownValue(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def lookup(values: dict, path: str):
    node = values
    walked = []
    for part in path.split("."):
        walked.append(part)
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise UnknownValue(f"unknown result name {'.'.join(walked)!r} (in {path!r})")
    return node


def range_ends(node, path: str):
    if isinstance(node, dict) and {"min", "max"} <= node.keys():
        return node["min"], node["max"]
    if isinstance(node, list) and node and all(isinstance(v, int | float) for v in node):
        return min(node), max(node)
    raise UnknownValue(f"{path!r} is neither {{min, max}} nor a list of numbers")


FORMATTERS = {
    "num": format_value,
    "list": format_list,
    "items": format_items,
    "vec": format_vector,
    "mat": format_matrix,
    "range": lambda node, style, language: format_range(*node, style, language),
}


def render(kind: str, values: dict, path: str, style: str, language: str) -> str:
    """The value at PATH as KIND ('num', 'list', 'vec', 'mat', 'range'), marked up."""
    node = lookup(values, path)
    if kind == "range":
        node = range_ends(node, path)
    text = FORMATTERS[kind](node, style, language)
    return (f'<span class="value" data-kind="{kind}" data-key="{html.escape(path)}" '
            f'data-style="{style}">{text}</span>')
