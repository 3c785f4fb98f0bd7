"""Small, exact computations shown in the attention article; `python -m examples --out DIR`."""
