"""Recovering known features with two attention projections.

A tiny attention model with only two trained matrices, W_Q and W_V (9 x 3 each),
learns to read known synthetic features that a fixed orthogonal matrix has mixed
into every input. ``python -m experiment --out DIR`` trains it for each seed,
together with two variants that show why its maps are identifiable (learned
keys; three keys, with its control trained by plain SGD), measures what the maps
read, and writes ``DIR/results.json`` and the figures.

Modules, in reading order: ``config`` (the frozen settings), ``data`` (latent
features, mixing, teacher), ``model`` (the student), ``train`` (the training
loop, one seed at a time), ``interventions`` (edits of the latents),
``measure``, ``variants`` (the students), ``results`` (assembly, schema),
``figures``, ``painter`` (figures drawn by two worker processes while training
goes on), ``outputs`` (what a run leaves in DIR).
Importing any of them does no work.
"""
