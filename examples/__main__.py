"""`python -m examples --out DIR`: write DIR/examples.json and the article's figures."""

import argparse
import json
import sys
from pathlib import Path

import torch

from atomicfile import atomic_write
from examples import bank, heads, scaling, two_positions

FORMAT_VERSION = 3  # raised on any incompatible change of examples.json's layout


def compute_all() -> dict:
    """Every example, on one CPU thread (the caller's thread count is restored)."""
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return {
            "format": "attention-examples",
            "format_version": FORMAT_VERSION,
            "versions": {"torch": torch.__version__},
            "two_positions": two_positions.compute(),
            "exercise": two_positions.exercise(),
            "bank": bank.compute(),
            "scaling": scaling.compute(),
            "heads": heads.compute(),
        }
    finally:
        torch.set_num_threads(previous_threads)


def write(data: dict, out: Path) -> None:
    """examples.json and the figures into OUT; each file appears whole or not at all."""
    from examples import figures  # matplotlib only when figures are written

    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    figures.write_all(data, out)
    atomic_write(out / "examples.json", text.encode())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m examples", description=__doc__)
    parser.add_argument("--out", type=Path, required=True, help="folder to write into")
    args = parser.parse_args(argv)
    data = compute_all()
    try:
        write(data, args.out)
    except OSError as error:
        print(f"python -m examples: cannot write to {args.out}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
