"""The companion notebook as a computation, like the experiment and the examples.

Its code is written once, in notebook.pct.py (Jupytext's percent format: ``# %%``
starts a cell, ``name="…"`` names it). ``python -m companion --out DIR`` executes
it in a fresh kernel and writes the executed notebook, DIR/companion.ipynb, and
each figure as DIR/notebook-<cell>-<code>.png with its dark twin
DIR/notebook-<cell>-<code>-dark.png for each language <code> of the site: a figure
cell draws every language and both schemes in the one execution (show.py).

The site builds it as it builds the others (sitebuild/runs.py): once per change
of its source: this package, the project packages it imports (the experiment, the
language records, drawing/) and provenance/.
Each language's page gives the prose around the cells (docs/notebook*.md, where
```` ```python cell="name" ```` stands for the cell of that name) and the site
assembles page and download from that prose and this one execution
(sitebuild/notebook.py).
"""

# A figure output's metadata (show.py): the language it is drawn for (a code of
# locales/), and whether for a dark page.
LANGUAGE, DARK_PAGE = "language", "dark"
# Set in the kernel's environment by the site's execution, which draws every page's
# figures; a reader's Jupyter draws one, in the language NOTEBOOK_LANGUAGE names.
EVERY_PAGE, NOTEBOOK_LANGUAGE = "COMPANION_EVERY_PAGE", "NOTEBOOK_LANGUAGE"
