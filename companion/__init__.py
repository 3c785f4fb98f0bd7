"""The companion notebook as a computation, like the experiment and the examples.

Its code is written once, in notebook.pct.py (Jupytext's percent format: ``# %%``
starts a cell, ``name="…"`` names it). ``python -m companion --out DIR`` executes
it in a fresh kernel and writes the executed notebook, DIR/companion.ipynb, and
each figure as DIR/notebook-<cell>.png with its dark twin DIR/notebook-<cell>-dark.png:
a figure cell draws both schemes in the one execution (``show``, in the notebook).

The site builds it as it builds the others (sitebuild/runs.py): once per change
of its source, which is this package, the experiment it imports and provenance/.
Each language's page gives the prose around the cells (docs/notebook*.md, where
```` ```python cell="name" ```` stands for the cell of that name) and the site
assembles page and download from that prose and this one execution
(sitebuild/notebook.py).
"""
