"""Computed values: looked up by dotted path, formatted, and marked in the HTML.

Every value a page shows is wrapped as
``<span class="value" data-key="experiment.seeds.0.heldout_mse" data-style="sci2">…</span>``
so that tests can check each printed number against results.json, and the
structural-parity test can compare the values the three languages show.
"""

from __future__ import annotations

import contextlib
import html
from contextvars import ContextVar

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


# The paths looked up while a `reading()` block runs: what a claim read.
_read: ContextVar[list[str] | None] = ContextVar("read", default=None)


@contextlib.contextmanager
def reading():
    """Record every path that `lookup` resolves inside the block, in the list it yields."""
    paths: list[str] = []
    token = _read.set(paths)
    try:
        yield paths
    finally:
        _read.reset(token)


# Where to browse every name, for the message of an unknown one.
BROWSE = ("browse the names in run/results.json and run/examples.json (the preview serves "
          "them at /run/results.json and /run/examples.json; experiment/results.schema.json "
          "and examples/examples.schema.json describe them)")


# A list of numbers also answers .min and .max, as a summary's {min, max} does: a
# sentence that names both ends ("between 0.20 and 0.25") prints each on its own.
ENDS = {"min": min, "max": max}


def _numbers(node) -> bool:
    return isinstance(node, list) and bool(node) and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in node)


def lookup(values: dict, path: str):
    node = values
    walked = []
    for part in path.split("."):
        walked.append(part)
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif part in ENDS and _numbers(node):  # a list's smallest or largest number
            node = ENDS[part](node)
        else:
            raise UnknownValue(_unknown(path, walked, node))
    if (read := _read.get()) is not None:
        read.append(path)
    return node


def _unknown(path: str, walked: list[str], node) -> str:
    """Why PATH does not resolve at its segment WALKED[-1], with what exists there."""
    from sitebuild.suggest import closest, listing

    where = ".".join(walked[:-1]) or "the top level"
    if isinstance(node, dict):
        hint = closest(walked[-1], node)
        return (f"unknown result name {'.'.join(walked)!r} (in {path!r})"
                + (f"; did you mean {hint}?" if hint else "")
                + f" {where} holds: {listing(node)}; {BROWSE}")
    if isinstance(node, list):
        ends = ", or .min and .max" if _numbers(node) else ""
        return (f"unknown result name {'.'.join(walked)!r} (in {path!r}): {where} is a list "
                f"of {len(node)}, indexed 0 to {len(node) - 1}{ends}")
    return (f"unknown result name {'.'.join(walked)!r} (in {path!r}): {where} is a value "
            f"({type(node).__name__}), with no names below it")


def range_ends(node, path: str):
    if isinstance(node, dict) and {"min", "max"} <= node.keys():
        return node["min"], node["max"]
    if _numbers(node):
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
