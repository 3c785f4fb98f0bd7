"""Drawing the figures in worker processes while training continues.

The main process trains and measures the variants one after another. As soon
as a variant is measured, its figures go to a pool of two worker processes,
which drew nothing until then but had imported matplotlib while torch trained;
they draw while the next variant trains, so a run uses both cores. Workers are
fresh interpreters (spawn) that never import torch. A figure's bytes do not
depend on which process draws it.
"""

import json
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

WORKERS = 2


def _import_figures() -> None:
    """Each worker's first task: matplotlib's import, while the main process trains."""
    import experiment.figures  # noqa: F401


def _draw(variant: str, results_json: str, out_dir: str, part: int, parts: int) -> list[str]:
    from experiment import figures

    return figures.write_variant(variant, json.loads(results_json), Path(out_dir), part, parts)


class Painter:
    """Draws each variant's figures into OUT_DIR in the background; files() waits."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.pool = ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_import_figures)
        for _ in range(WORKERS):  # a no-op each: the pool starts a worker per waiting task
            self.pool.submit(int)
        self.futures: list[Future] = []

    def draw(self, variant: str, results: dict) -> None:
        payload = json.dumps(results)  # a copy: `results` grows while the workers draw
        self.futures += [self.pool.submit(_draw, variant, payload, str(self.out_dir), part,
                                          WORKERS) for part in range(WORKERS)]

    def files(self) -> list[str]:
        """The names of every file drawn so far, once all are written; re-raises a
        worker's error."""
        return [name for future in self.futures for name in future.result()]

    def __enter__(self) -> "Painter":
        return self

    def __exit__(self, *error) -> None:
        # After an error, drop what has not started; wait for what has, so that no
        # worker writes into a folder that is being removed.
        self.pool.shutdown(wait=True, cancel_futures=error[0] is not None)
