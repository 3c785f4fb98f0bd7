"""What the value contributes: four records, their weights and value vectors."""

import torch


def compute() -> dict:
    # --8<-- [start:value_swap]
    weights = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64)  # (4,) from q and K
    values = torch.tensor([[1.0, 0.0, 0.0],
                           [0.0, 2.0, 0.0],
                           [0.0, 0.0, 3.0],
                           [1.0, 1.0, 1.0]], dtype=torch.float64)   # (4, 3) = records @ W_V
    contributions = weights.unsqueeze(-1) * values                 # (4, 3)
    output = contributions.sum(dim=0)                              # ŷ = Σ_j a_j v_j

    # Swap the first two output columns of W_V: every value vector swaps its
    # first two coordinates, while the query and keys, hence the weights, stay.
    swap = torch.tensor([[0.0, 1.0, 0.0],
                         [1.0, 0.0, 0.0],
                         [0.0, 0.0, 1.0]], dtype=torch.float64)
    swapped_values = values @ swap                                 # = records @ (W_V @ swap)
    swapped_output = (weights.unsqueeze(-1) * swapped_values).sum(dim=0)
    # --8<-- [end:value_swap]
    return {
        "weights": weights.tolist(),
        "values": values.tolist(),
        "contributions": contributions.tolist(),
        "output": output.tolist(),
        "swapped_weights": weights.tolist(),
        "swapped_values": swapped_values.tolist(),
        "swapped_output": swapped_output.tolist(),
    }
