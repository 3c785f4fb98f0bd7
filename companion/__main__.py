"""python -m companion --out DIR: notebook.pct.py executed in a fresh kernel (nbclient)
in the project's folder, written as DIR/companion.ipynb and each figure as a file. A
failing cell stops it: the error names the cell, it exits 1, and nothing is written."""

import argparse
import base64
import os
import re
import sys
from pathlib import Path

import jupytext
import nbclient
import nbformat

import locales
from atomicfile import atomic_write
from companion import DARK_PAGE, EVERY_PAGE, LANGUAGE

SOURCE = Path(__file__).with_name("notebook.pct.py")
OUTPUT = "companion.ipynb"
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}
PNG = "image/png"
TIMEOUT = 600  # seconds per cell: one seed trains in seconds, so this means hung
# A loaded machine is slow to start a kernel, not broken: as long as a cell may take.
STARTUP_TIMEOUT = TIMEOUT
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class CellFailed(RuntimeError):
    """A cell raised; the message names it."""


def read(source: Path = SOURCE) -> nbformat.NotebookNode:
    """The notebook's code cells, named, and no Markdown (each language writes its own)."""
    notebook = jupytext.read(source)
    notebook.cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for cell in notebook.cells:
        if not cell.metadata.get("name"):
            raise ValueError(f"{source.name}: every cell needs a name (# %% name=\"…\"):\n"
                             f"{cell.source[:200]}")
        cell.metadata = {key: value for key, value in cell.metadata.items()
                         if key in ("name", "tags")}
    notebook.metadata = {"kernelspec": KERNEL}
    return notebook


def execute(notebook: nbformat.NotebookNode, cwd: Path) -> nbformat.NotebookNode:
    """NOTEBOOK executed in place in a fresh kernel in CWD; raise CellFailed."""
    client = nbclient.NotebookClient(notebook, timeout=TIMEOUT, startup_timeout=STARTUP_TIMEOUT,
                                     allow_errors=False, resources={"metadata": {"path": str(cwd)}})
    try:  # the kernel's environment tells show.py to draw every page's figures
        client.execute(env={**os.environ, EVERY_PAGE: "1"})
    except nbclient.exceptions.CellExecutionError as error:
        failed = next((cell for cell in notebook.cells if any(
            output.output_type == "error" for output in cell.get("outputs", []))), None)
        name = failed.metadata["name"] if failed is not None else "?"
        tail = "\n".join(ANSI.sub("", str(error)).strip().splitlines()[-18:])
        raise CellFailed(f"the notebook's cell {name!r} ({SOURCE.parent.name}/{SOURCE.name}) "
                         f"failed:\n{tail}") from None
    return notebook


def figure_files(notebook: nbformat.NotebookNode) -> dict[str, bytes]:
    """notebook-<cell>-<code>.png and its dark twin notebook-<cell>-<code>-dark.png for
    each language <code> of the site -> PNG, each name recorded in its output
    (``filenames``, as nbconvert reads it)."""
    expected = [(code, dark) for code in locales.codes() for dark in (False, True)]
    files = {}
    for cell in notebook.cells:
        images = [output for output in cell.get("outputs", []) if PNG in output.get("data", {})]
        shown = [(output.metadata.get(LANGUAGE), bool(output.metadata.get(DARK_PAGE)))
                 for output in images]
        if images and shown != expected:
            raise ValueError(f"cell {cell.metadata['name']!r} shows the images {shown} "
                             "(language, dark): a figure cell shows one figure for each "
                             f"language, for a light page and its dark twin, {expected} "
                             "(companion/show.py)")
        for output, (code, dark) in zip(images, shown, strict=True):
            name = f"notebook-{cell.metadata['name']}-{code}{'-dark' if dark else ''}.png"
            output.metadata["filenames"] = {PNG: name}
            files[name] = base64.b64decode(output.data[PNG])
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion",
                                     description="Execute the companion notebook once.")
    parser.add_argument("--out", required=True, type=Path,
                        help="folder for the notebook and its figures")
    args = parser.parse_args(argv)
    try:
        notebook = execute(read(), SOURCE.parent.parent)
        files = figure_files(notebook)
    except (CellFailed, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        atomic_write(args.out / name, data)
    atomic_write(args.out / OUTPUT, (nbformat.writes(notebook) + "\n").encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
