"""The dark execution runs again exactly the cells that `dark` can change: those that
show an image, and those that read `dark` or a name derived from it."""

from __future__ import annotations

import nbformat
import pytest

from sitebuild.dark_execution import SKIP_TAG, dark_variant, runs_again


def code(source: str, tags: tuple[str, ...] = (), image: bool = False):
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": list(tags)} if tags else {})
    if image:
        cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="})]
    return cell


def notebook(*cells) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=list(cells))


def test_a_cell_that_reads_dark_runs_again_and_one_that_does_not_is_skipped():
    assert runs_again(["trained = train()", "colours = 'night' if dark else 'day'"],
                      [False, False]) == [False, True]


def test_what_a_statement_that_reads_dark_binds_is_followed_from_cell_to_cell():
    sources = ["scheme = DARK if dark else LIGHT",   # binds scheme
               "palette = scheme.colours",            # reads scheme: binds palette
               "steps = 1200",                        # reads nothing derived
               "print(palette, steps)"]               # reads palette
    assert runs_again(sources, [False] * 4) == [True, True, False, True]


def test_only_the_statements_that_read_a_derived_name_make_names_derived():
    sources = ["import torch\nscheme = DARK if dark else LIGHT",  # torch is not derived
               "model = torch.zeros(3)"]
    assert runs_again(sources, [False, False]) == [True, False]


def test_setting_an_attribute_or_an_item_derives_the_object():
    sources = ["style.colour = 'white' if dark else 'black'", "draw(style)",
               "table['bg'] = dark", "print(table)"]
    assert runs_again(sources, [False] * 4) == [True, True, True, True]


def test_a_cell_that_showed_an_image_runs_again():
    assert runs_again(["plot(losses)", "plot(losses)"], [True, False]) == [True, False]


def test_line_magics_are_left_out_and_a_cell_that_is_not_python_runs_everything_after_it():
    assert runs_again(["%matplotlib inline\nx = 1", "print(x)"], [False, False]) == [False, False]
    assert runs_again(["x = 1", "%%bash\necho hi", "print(x)"], [False] * 3) == [False, True, True]


def test_the_dark_variant_injects_the_parameter_and_tags_what_it_skips():
    source = notebook(code("import numpy"), code("dark = False", tags=("parameters",)),
                      code("trained = train()"), code("plot(trained, dark)"))
    executed = notebook(*(nbformat.from_dict(dict(c)) for c in source.cells))
    executed.cells[3] = code("plot(trained, dark)", image=True)
    variant = dark_variant(source, executed)
    assert variant.cells[2].source.startswith("dark = True")
    assert [SKIP_TAG in cell.metadata.get("tags", []) for cell in variant.cells] == [
        False, False, False, True, False], "only the training is skipped"
    assert not any(SKIP_TAG in cell.metadata.get("tags", [])
                   for cell in dark_variant(source).cells), "without the first execution: all"
    assert dark_variant(notebook(code("x = 1"))) is None, "no parameters cell"
    with pytest.raises(ValueError, match="2 cells tagged"):
        dark_variant(notebook(code("dark = 0", tags=("parameters",)),
                              code("dark = 1", tags=("parameters",))))
