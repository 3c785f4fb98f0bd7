"""The build's claims as a catalogue: each claim checked once per build, where the
pages use it, and run/claims.json for authors and the evidence marks.

run/claims.json lists, per claim: its name, its description (what it checks), where it
is defined, the pages that use it (path:line), the result paths it read, its evidence
(each measure: quantity, value, relation, bound, whether it holds) and whether it held.
"""

from __future__ import annotations

import re
from pathlib import Path

from sitebuild import claims

CLAIM = re.compile(r"\{\{\s*claim\s+(?P<name>[\w-]+)\s*\}\}")


def check_all(values: dict) -> dict[str, claims.Outcome]:
    """Every registered claim checked against VALUES, once."""
    return {name: claims.outcome(name, values) for name in sorted(claims.REGISTRY)}


def uses(docs: Path, root: Path) -> dict[str, list[str]]:
    """Claim name -> every place a page of DOCS uses it, as path:line relative to ROOT."""
    found: dict[str, list[str]] = {}
    for page in sorted(docs.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        try:
            shown = page.resolve().relative_to(root.resolve())
        except ValueError:
            shown = page
        for match in CLAIM.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.setdefault(match["name"], []).append(f"{shown}:{line}")
    return found


def entries(outcomes: dict[str, claims.Outcome], used: dict[str, list[str]]) -> list[dict]:
    return [{
        "name": name,
        "description": outcome.claim.description,
        "article": outcome.claim.article,
        "defined_at": outcome.claim.defined_at,
        "used_at": used.get(name, []),
        "read": outcome.read,
        "evidence": [] if outcome.evidence is None else [
            {"quantity": m.quantity, "value": m.value, "relation": m.relation,
             "bound": m.bound, "holds": m.holds} for m in outcome.evidence.measures],
        "detail": "" if outcome.evidence is None else outcome.evidence.detail,
        "held": outcome.held,
        "error": outcome.error,
    } for name, outcome in outcomes.items()]
