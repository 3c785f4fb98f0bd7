"""python -m experiment --out DIR [--seeds 0 1 2] [--steps N] [--no-figures]

Writes DIR/results.json (see results.schema.json) and, unless --no-figures,
the figures as DIR/<name>.svg and .png and DIR/<name>-dark.svg and .png.
Afterwards DIR holds this run's files and no earlier run's (outputs.py); a run
that fails leaves the earlier one as it was. Errors print one line on stderr
and exit non-zero: 2 for bad arguments, 1 when DIR cannot be written.
"""

import argparse
import errno
import sys
import tempfile
import time
from pathlib import Path

from experiment.config import Config


def parse_args(argv: list[str] | None) -> tuple[argparse.Namespace, Config]:
    defaults = Config()
    parser = argparse.ArgumentParser(
        prog="python -m experiment",
        description="Train the two-projection attention student and its variants, "
                    "and write their results.",
    )
    parser.add_argument("--out", required=True, type=Path, help="directory for results and figures")
    parser.add_argument("--seeds", nargs="+", type=int, default=list(defaults.seeds),
                        metavar="SEED", help="distinct non-negative seeds (default: 0 1 2)")
    parser.add_argument("--steps", type=int, default=defaults.steps,
                        help=f"training steps per seed (default: {defaults.steps})")
    parser.add_argument("--no-figures", action="store_true", help="write results.json only")
    args = parser.parse_args(argv)
    try:  # Config is the one judge of the settings
        config = Config(seeds=tuple(args.seeds), steps=args.steps)
    except ValueError as error:
        parser.error(str(error))
    return args, config


def prepare_output_dir(out: Path) -> None:
    """Create `out` and prove it is writable before spending time on training."""
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "exists and is not a directory", str(out))
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=out):
        pass


def run_into(config: Config, staged: Path, figures: bool, started: float) -> list[str]:
    """Train, measure and draw into STAGED; return the names of the files written."""
    # Imported only now, so that argument and folder errors come before the
    # seconds that importing torch and matplotlib take.
    from contextlib import nullcontext

    from experiment.outputs import RESULTS
    from experiment.painter import Painter
    from experiment.results import complete, run, write_results

    with Painter(staged) if figures else nullcontext() as painter:
        results = run(config, on_measured=painter.draw if painter else None)
        files = [*(painter.files() if painter else []), RESULTS]
    write_results(complete(results, files, time.perf_counter() - started),
                  staged / RESULTS)
    return files


def main(argv: list[str] | None = None) -> int:
    started = time.perf_counter()
    args, config = parse_args(argv)
    try:
        prepare_output_dir(args.out)
        from experiment import outputs

        with outputs.staging(args.out) as staged:
            files = run_into(config, staged, not args.no_figures, started)
            outputs.publish(staged, args.out, files)
    except OSError as error:
        reason = error.strerror or str(error)
        where = error.filename or args.out
        print(f"error: cannot write to {where}: {reason}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted; this run's results were not written", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
