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


def test_the_kernels_set_up_magics_are_left_out_and_any_other_magic_runs_everything():
    assert runs_again(["%matplotlib inline\nx = 1", "print(x)"], [False, False]) == [False, False]
    assert runs_again(["x = 1", "%%bash\nls", "print(x)"], [False] * 3) == [True] * 3
    timed = ["%time scheme = 1 if dark else 2", "plot(scheme)"]
    assert runs_again(timed, [False, False]) == [True, True]


def test_a_name_that_a_later_cell_binds_again_runs_everything():
    # The kernel holds x = 2 when the dark execution starts: plot(x) needs x = 1 again.
    assert runs_again(["x = 1", "plot(x)", "x = 2"], [False, True, False]) == [True] * 3


def test_a_function_anywhere_runs_everything():
    # f reads palette when it is called, not where it is defined.
    sources = ["def f(): return palette", "palette = 1 if dark else 2", "c = f()", "plot(c)"]
    assert runs_again(sources, [False, False, False, True]) == [True] * 4


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
    source.cells[3].metadata["tags"] = ["skip-execution"]  # nbclient's tag: skipped in both
    assert SKIP_TAG in dark_variant(source, executed).cells[4].metadata["tags"]
    assert dark_variant(notebook(code("x = 1"))) is None, "no parameters cell"
    with pytest.raises(ValueError, match="2 cells tagged"):
        dark_variant(notebook(code("dark = 0", tags=("parameters",)),
                              code("dark = 1", tags=("parameters",))))
