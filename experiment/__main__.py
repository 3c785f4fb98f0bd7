"""python -m experiment --out DIR [--seeds 0 1 2] [--steps N] [--no-figures]

Writes DIR/results.json (see results.schema.json) and, unless --no-figures,
the figures as DIR/<name>.svg and DIR/<name>.png. Errors print one line on
stderr and exit non-zero: 2 for bad arguments, 1 when DIR cannot be written.
"""

import argparse
import errno
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from experiment.config import Config


def non_negative_int(text: str) -> int:
    value = int(text)  # argparse turns the ValueError into a clear message
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    defaults = Config()
    parser = argparse.ArgumentParser(
        prog="python -m experiment",
        description="Train the two-projection attention student and write its results.",
    )
    parser.add_argument("--out", required=True, type=Path, help="directory for results and figures")
    parser.add_argument("--seeds", nargs="+", type=non_negative_int, default=list(defaults.seeds),
                        metavar="SEED", help="distinct non-negative seeds (default: 0 1 2)")
    parser.add_argument("--steps", type=positive_int, default=defaults.steps,
                        help=f"training steps per seed (default: {defaults.steps})")
    parser.add_argument("--no-figures", action="store_true", help="write results.json only")
    args = parser.parse_args(argv)
    if len(set(args.seeds)) != len(args.seeds):
        parser.error(f"argument --seeds: each seed at most once, got {args.seeds}")
    return args


def prepare_output_dir(out: Path) -> None:
    """Create `out` and prove it is writable before spending time on training."""
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "exists and is not a directory", str(out))
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=out):
        pass


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    config = replace(Config(), seeds=tuple(args.seeds), steps=args.steps)
    try:
        prepare_output_dir(args.out)
        # Imported only now, so that argument and folder errors come before the
        # seconds that importing torch and matplotlib take.
        from experiment.results import run, write_results

        results = run(config)
        if not args.no_figures:
            from experiment import figures

            figures.write_all(results, args.out)
        # Last, so a results.json in DIR means the whole run finished.
        write_results(results, args.out / "results.json")
    except OSError as error:
        reason = error.strerror or str(error)
        where = error.filename or args.out
        print(f"error: cannot write to {where}: {reason}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted; results.json was not written", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
