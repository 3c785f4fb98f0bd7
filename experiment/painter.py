"""Drawing the figures in a second process while training continues.

The main process trains and measures the variants one after another. As soon
as a variant is measured, its figures go to a worker process, which imported
matplotlib while torch trained and draws while the next variant trains: a run
uses both cores. The worker is a fresh interpreter (spawn) that never imports
torch; a figure's bytes do not depend on which process draws it.
"""

import json
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path


def _import_figures() -> None:
    """The worker's first task: matplotlib's import, while the main process trains."""
    import experiment.figures  # noqa: F401


def _draw(variant: str, results_json: str, out_dir: str) -> list[str]:
    from experiment import figures

    return figures.write_variant(variant, json.loads(results_json), Path(out_dir))


class Painter:
    """Draws each variant's figures into OUT_DIR in the background; files() waits."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        # One worker: the site build runs other computations on the second core too.
        self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_import_figures)
        self.pool.submit(int)  # a no-op: the pool starts its worker for the first task
        self.futures: list[Future] = []

    def draw(self, variant: str, results: dict) -> None:
        payload = json.dumps(results)  # a copy: `results` grows while the worker draws
        self.futures.append(self.pool.submit(_draw, variant, payload, str(self.out_dir)))

    def files(self) -> list[str]:
        """The names of every file drawn, once all are written; re-raises the worker's
        error."""
        return [name for future in self.futures for name in future.result()]

    def __enter__(self) -> "Painter":
        return self

    def __exit__(self, *error) -> None:
        # After an error, drop what has not started; wait for what has, so that the
        # worker writes nothing into a folder that is being removed.
        self.pool.shutdown(wait=True, cancel_futures=error[0] is not None)
