"""Drawing the figures in worker processes while training continues.

The main process trains and measures the variants one after another. As soon
as a variant is measured, each of its figures goes to a pool of two workers,
which imported matplotlib while torch trained and draw while the next variant
trains. When training ends, the figures still to draw are drawn on both cores
rather than one. A worker is a fresh interpreter (spawn) that never imports
torch; a figure's bytes do not depend on which process draws it.
"""

import json
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path


def _figures_by_variant() -> dict[str, list[str]]:
    """A worker's first task: import matplotlib while the main process trains, and
    name the figures of each variant. A task rather than the pool's initializer, so
    that an error comes back to the main process as this task's, with its traceback."""
    from experiment.figures import FIGURES

    by_variant: dict[str, list[str]] = {}
    for name, drawing in FIGURES.items():
        by_variant.setdefault(drawing.variant, []).append(name)
    return by_variant


def _draw(name: str, results_json: str, out_dir: str) -> list[str]:
    from experiment import figures

    return figures.write(name, json.loads(results_json), Path(out_dir))


def _import_figures() -> None:
    """The other workers' first task: matplotlib's import, while the main process trains."""
    import experiment.figures  # noqa: F401


# Two, on a machine with two cores or more: with one worker, a site build's last
# seconds on two cores were that worker drawing while the other core idled. Each
# worker costs one import of matplotlib.
WORKERS = min(2, len(os.sched_getaffinity(0)))


class Painter:
    """Draws each variant's figures into OUT_DIR in the background; files() waits."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.pool = ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"))
        # The pool starts a worker for each of its first tasks. The list of figures comes
        # from a worker, so that this process, which trains, never imports matplotlib.
        self.names = self.pool.submit(_figures_by_variant)
        for _ in range(WORKERS - 1):
            self.pool.submit(_import_figures)
        self.futures: list[Future] = []

    def draw(self, variant: str, results: dict) -> None:
        """Queue each figure of VARIANT, drawn from a copy of RESULTS as they are now.
        The first call waits for the list of figures: for a worker's import of
        matplotlib, which began with the run, before the first variant's training."""
        payload = json.dumps(results)  # a copy: `results` grows while the workers draw
        for name in self.names.result().get(variant, []):
            self.futures.append(self.pool.submit(_draw, name, payload, str(self.out_dir)))

    def files(self) -> list[str]:
        """The names of every file drawn, once all are written; re-raises a worker's
        error."""
        return [name for future in self.futures for name in future.result()]

    def __enter__(self) -> "Painter":
        return self

    def __exit__(self, *error) -> None:
        # After an error, cancel what is still queued here (the few tasks already handed
        # to the workers run on); wait for those, so that no worker writes into a folder
        # that is being removed.
        self.pool.shutdown(wait=True, cancel_futures=error[0] is not None)
