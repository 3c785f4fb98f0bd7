"""An executed notebook as a page of the site: its Markdown, its code, its outputs.

The page is rendered by MkDocs like every other page (same headings and ids,
links checked by --strict, code blocks styled as the articles' listings), with
each code cell's outputs placed right after it:

- printed text as a preformatted block (``.notebook-output``);
- an image as a file of its own under ``run/notebook/`` (named by the hash of
  its bytes, so the three languages share one file), with the alt text of the
  page's language from the code cell's metadata: ```` ```python alt="…" ````.

Raw cells (the page's YAML front matter, as Jupytext keeps it) are not shown.
An output of a kind this module does not know fails loudly.
"""

from __future__ import annotations

import base64
import hashlib
import html
from pathlib import Path

import nbformat

IMAGE_DIR = "run/notebook"  # below the site root, next to the run's own files
TEXT = "text/plain"
PNG = "image/png"


class UnknownOutput(ValueError):
    """A cell produced something the page cannot show."""


def image_name(data: bytes) -> str:
    return f"{hashlib.sha256(data).hexdigest()[:16]}.png"


def images(notebook: nbformat.NotebookNode) -> dict[str, bytes]:
    """Every image the outputs show, by file name."""
    found = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if PNG in output.get("data", {}):
                data = base64.b64decode(output["data"][PNG])
                found[image_name(data)] = data
    return found


def write_images(notebook: nbformat.NotebookNode, folder: Path) -> list[Path]:
    """Write every image of NOTEBOOK into FOLDER (once: the name is the content's hash)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in images(notebook).items():
        path = folder / name
        if not path.exists():
            path.write_bytes(data)
        written.append(path)
    return written


def markdown(notebook: nbformat.NotebookNode) -> str:
    """The page's Markdown: Markdown cells as written, code cells as Python code
    blocks, each followed by its outputs."""
    blocks = []
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type == "markdown":
            blocks.append(cell.source)
        elif cell.cell_type == "code":
            blocks.append(f"```python\n{cell.source}\n```")
            blocks.extend(_output(output, cell, number) for output in cell.outputs)
    return "\n\n".join(blocks) + "\n"


def _output(output, cell, number: int) -> str:
    kind = output.output_type
    if kind == "stream":
        return _text(output.text, f"notebook-output notebook-{output.name}")
    if kind in ("display_data", "execute_result"):
        data = output.get("data", {})
        if PNG in data:
            alt = cell.metadata.get("alt")
            if not alt:
                raise UnknownOutput(f"code cell {number} shows an image but has no alt text: "
                                    'write its fence as ```python alt="what the figure shows"')
            name = image_name(base64.b64decode(data[PNG]))
            return f"![{_attribute(alt)}]({IMAGE_DIR}/{name}){{ .notebook-output }}"
        if TEXT in data:
            return _text(data[TEXT], "notebook-output")
        raise UnknownOutput(f"code cell {number} has an output of type "
                            f"{', '.join(sorted(data)) or 'none'}; the page shows text and PNG")
    raise UnknownOutput(f"code cell {number} has an output of kind {kind!r}")


def _text(text: str, classes: str) -> str:
    # Braces escaped too, so that no output can read as a shortcode.
    body = html.escape(text.rstrip("\n")).replace("{", "&#123;").replace("}", "&#125;")
    return f'<pre class="{classes}"><code>{body}</code></pre>'


def _attribute(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]").replace("\n", " ")
