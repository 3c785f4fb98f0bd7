"""Why queries and keys are not unique: a change of basis that the keys undo."""

import torch


def compute() -> dict:
    # --8<-- [start:basis_change]
    q = torch.tensor([[1.0, -0.5, 2.0]], dtype=torch.float64)       # (1, 3) one query
    K = torch.tensor([[1.0, 1.0, 1.0],
                      [1.0, -1.0, -1.0],
                      [-1.0, 1.0, -1.0],
                      [-1.0, -1.0, 1.0]], dtype=torch.float64)      # (4, 3) keys
    M = torch.tensor([[2.0, 1.0, 0.0],
                      [0.0, 1.0, 0.0],
                      [1.0, 0.0, 1.5]], dtype=torch.float64)        # any invertible (3, 3)

    q_new = q @ M                                  # q' = qM: other query coordinates
    K_new = K @ torch.linalg.inv(M).T              # K' = K M^{-T}: the keys undo it
    scores = q @ K.T / 3**0.5
    scores_new = q_new @ K_new.T / 3**0.5          # q M M^{-1} Kᵀ = q Kᵀ
    # --8<-- [end:basis_change]
    return {
        "q": q[0].tolist(),
        "K": K.tolist(),
        "M": M.tolist(),
        "det_M": torch.linalg.det(M).item(),
        "q_new": q_new[0].tolist(),
        "scores": scores[0].tolist(),
        "scores_new": scores_new[0].tolist(),
        "query_difference": (q_new - q).norm().item(),
        "max_score_difference": (scores_new - scores).abs().max().item(),
    }
