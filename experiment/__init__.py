"""Recovering known features with two attention projections.

A tiny attention model with only two trained matrices, Wq and Wv (9 x 3 each),
learns to read known synthetic features that a fixed orthogonal matrix has mixed
into every input. ``python -m experiment --out DIR`` trains it for each seed,
measures what the two maps read, and writes ``DIR/results.json`` and the figures.

Modules, in reading order: ``config`` (the frozen settings), ``data`` (latent
features, mixing, teacher), ``model`` (the student's forward pass), ``train``,
``measure``, ``results`` (assembly, schema, atomic writes), ``figures``.
Importing any of them does no work.
"""
