"""Sentences whose truth depends on a computation, and the checks behind them.

A page marks such a sentence with ``{{ claim NAME }}``. At build the check runs
against this build's values (``experiment`` = results.json, ``examples`` =
examples.json); if they no longer support the sentence, the build fails and
names the claim and the page, so the text has to change, never the number.

Each article's claims live in a module of their own (``attention``,
``feature_recovery``) and register themselves where they are defined, with
``@claim(refute=...)``. The refutation is an edit of the values under which the
sentence would be false: tests apply it and expect the check to fail, so no
claim can pass whatever the data (tests/sitebuild/test_claims.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sitebuild.values import lookup


class ClaimRefuted(AssertionError):
    """The values do not support the sentence; the message names the claim."""


class UnknownClaim(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Claim:
    name: str
    article: str  # the module that defines it: attention, feature_recovery
    check: Callable[[dict], str]  # the evidence as a sentence, or raises ClaimRefuted
    refute: Callable[[dict], None]  # edits the values in place so that the claim is false


REGISTRY: dict[str, Claim] = {}


def register(name: str, check: Callable[[dict], str], refute: Callable[[dict], None]) -> None:
    if name in REGISTRY:
        raise ValueError(f"claim {name!r} is defined twice")
    REGISTRY[name] = Claim(name, check.__module__.rsplit(".", 1)[-1], check, refute)


def claim(refute: Callable[[dict], None]) -> Callable:
    """Register the decorated check as the claim of its own name."""

    def decorate(check: Callable[[dict], str]) -> Callable[[dict], str]:
        register(check.__name__, check, refute)
        return check

    return decorate


def require(condition: bool, evidence: str) -> str:
    if not condition:
        raise ClaimRefuted(evidence)
    return evidence


def set_value(values: dict, path: str, new) -> None:
    """Replace the value at PATH: the building block of refutations."""
    *parents, last = path.split(".")
    node = lookup(values, ".".join(parents)) if parents else values
    node[int(last) if isinstance(node, list) else last] = new


def check(name: str, values: dict) -> str:
    """The evidence for claim NAME; UnknownClaim if there is none, ClaimRefuted
    (naming the claim) if the values refute it."""
    if name not in REGISTRY:
        raise UnknownClaim(f"unknown claim {name!r}; known: {', '.join(sorted(REGISTRY))}")
    try:
        return REGISTRY[name].check(values)
    except ClaimRefuted as error:
        raise ClaimRefuted(f"{name}: {error}") from None


# Imported last: each module registers its claims with the functions above.
from sitebuild.claims import attention, feature_recovery  # noqa: E402, F401
