"""The notebook's dark execution: its parameter, and which cells it runs again.

A notebook that draws figures says how in a cell tagged ``parameters``
(papermill's convention), here ``dark = False``. The build executes it a second
time, in the first execution's kernel, with DARK_PARAMETERS injected after that
cell, and the page shows each figure of the first execution with its twin from
the second (sitebuild.notebook_page).

The kernel already holds everything the first execution computed, so the second
runs again only what ``dark`` can change: after the parameters cell, a cell runs
again if it showed an image, or if one of its statements reads ``dark`` or a name
that an earlier such statement bound. Every other cell is tagged SKIP_TAG and
skipped (nbclient's ``skip_cells_with_tag``). For the companion notebook that
skips the training: it runs once, not twice.

The rule sees names, not objects: a statement that changes an object in place
without binding a name (``colours.append(scheme.grid)``) is not followed. Where
it cannot follow the names (see runs_again), every cell runs again. The site's
test executes the companion notebook both ways and compares the images.
"""

from __future__ import annotations

import ast
import copy

import nbformat

PARAMETERS_TAG = "parameters"  # the cell after which the dark execution sets its own
PARAMETER = "dark"
DARK_PARAMETERS = f"{PARAMETER} = True  # injected by the site's build: the figures' dark twins"
INJECTED_TAG = "injected-parameters"  # papermill's tag for the cell it adds
SKIP_TAG = "same-in-dark-execution"  # a cell whose outputs `dark` cannot change


def parameters_index(notebook: nbformat.NotebookNode) -> int | None:
    """The index of the cell tagged ``parameters``, or None if there is none."""
    tagged = [index for index, cell in enumerate(notebook.cells)
              if PARAMETERS_TAG in cell.get("metadata", {}).get("tags", [])]
    if len(tagged) > 1:
        raise ValueError(f"the notebook has {len(tagged)} cells tagged {PARAMETERS_TAG!r}")
    return tagged[0] if tagged else None


def dark_variant(notebook: nbformat.NotebookNode,
                 executed: nbformat.NotebookNode | None = None) -> nbformat.NotebookNode | None:
    """NOTEBOOK with DARK_PARAMETERS injected after its parameters cell; None if it
    has no such cell. Given EXECUTED, NOTEBOOK's first execution in the kernel that
    the dark one continues, the cells that need not run again are tagged SKIP_TAG."""
    index = parameters_index(notebook)
    if index is None:
        return None
    variant = copy.deepcopy(notebook)
    if executed is not None:
        later = [cell for cell in variant.cells[index + 1:] if cell.cell_type == "code"]
        shown = [shows_image(cell) for cell in executed.cells[index + 1:]
                 if cell.cell_type == "code"]
        for cell, again in zip(later, runs_again([c.source for c in later], shown),
                               strict=True):
            tags = cell.get("metadata", {}).get("tags", [])
            if not again or "skip-execution" in tags:  # nbclient's own skip tag, too
                cell.setdefault("metadata", {}).setdefault("tags", []).append(SKIP_TAG)
    variant.cells.insert(index + 1, nbformat.v4.new_code_cell(
        DARK_PARAMETERS, metadata={"tags": [INJECTED_TAG]}))
    return variant


def without_injected(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """An executed dark variant without the cell the build injected: its code cells
    line up with the source's again."""
    result = copy.deepcopy(notebook)
    result.cells = [cell for cell in result.cells
                    if INJECTED_TAG not in cell.get("metadata", {}).get("tags", [])]
    return result


def shows_image(cell: nbformat.NotebookNode) -> bool:
    return any(name.startswith("image/") for output in cell.get("outputs", [])
               for name in output.get("data", {}))


def runs_again(sources: list[str], shown: list[bool]) -> list[bool]:
    """For the code cells after the parameters cell (SOURCES; SHOWN: whether each
    showed an image), whether the dark execution runs it again. Every cell runs
    again when the rule cannot follow the names: a cell that is not plain Python,
    a function, class or lambda anywhere (they read globals when called, not when
    defined), or a name that a cell run again reads and a later cell binds (the
    kernel holds the later value)."""
    everything = [True] * len(sources)
    cells = [_statements(source) for source in sources]
    if any(statements is None or any(isinstance(node, _DEFINITIONS) for s in statements
                                     for node in ast.walk(s))
           for statements in cells):
        return everything
    derived = {PARAMETER}  # names whose value may differ in the dark execution
    again = []
    for statements, image in zip(cells, shown, strict=True):
        reading = [s for s in statements if _names_read(s) & derived]
        for statement in reading:
            derived |= _names_bound(statement)
        again.append(image or bool(reading))
    for index, statements in enumerate(cells):
        if again[index]:
            read = set().union(*map(_names_read, statements))
            later = set().union(*(_names_bound(s) for c in cells[index + 1:] for s in c))
            if read & later:
                return everything
    return again


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
LINE_MAGICS = ("%matplotlib", "%config")  # they set up the kernel and read no name


def _statements(source: str) -> list[ast.stmt] | None:
    """The top-level statements of a cell, its LINE_MAGICS left out; None for a cell
    that is not plain Python (a cell magic, another magic, a shell escape)."""
    lines = ["" if line.lstrip().startswith(LINE_MAGICS) else line
             for line in source.splitlines()]
    if any(line.lstrip().startswith(("%", "!")) for line in lines):
        return None
    try:
        return ast.parse("\n".join(lines)).body
    except SyntaxError:
        return None


def _names_read(statement: ast.stmt) -> set[str]:
    return {node.id for node in ast.walk(statement)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def _names_bound(statement: ast.stmt) -> set[str]:
    """Names the statement assigns, imports or defines, and the objects whose
    attributes or items it sets (``style.colour = ...`` binds ``style``)."""
    bound = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.Attribute, ast.Subscript)) and \
                isinstance(node.ctx, (ast.Store, ast.Del)):
            base = node.value
            while isinstance(base, (ast.Attribute, ast.Subscript)):
                base = base.value
            if isinstance(base, ast.Name):
                bound.add(base.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return bound
