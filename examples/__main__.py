"""`python -m examples --out DIR`: write DIR/examples.json for the attention article."""

import argparse
import json
import sys
from pathlib import Path

import torch

from examples import basis_change, causal_mask, two_positions, value_swap
from provenance.files import atomic_write


def compute_all() -> dict:
    torch.set_num_threads(1)
    return {
        "format": "attention-examples",
        "format_version": 1,
        "versions": {"torch": torch.__version__},
        "two_positions": two_positions.compute(),
        "exercise": two_positions.compute(scores_override=[0.0, 0.0]),
        "value_swap": value_swap.compute(),
        "basis_change": basis_change.compute(),
        "causal_mask": causal_mask.compute(),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m examples", description=__doc__)
    parser.add_argument("--out", type=Path, required=True, help="folder to write into")
    args = parser.parse_args(argv)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        text = json.dumps(compute_all(), indent=2, allow_nan=False) + "\n"
        atomic_write(args.out / "examples.json", text.encode())
    except OSError as error:
        print(f"python -m examples: cannot write to {args.out}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
