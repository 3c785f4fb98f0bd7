"""Sentences whose truth depends on a computation, and the checks behind them.

A page marks such a sentence with ``{{ claim NAME }}``. Every claim is checked once
per build against this build's values (``experiment`` = results.json, ``examples`` =
examples.json). If they support it, the page shows an evidence mark after the
sentence, whose note gives the measured quantities against their bounds
(sitebuild.evidence). If they no longer support it, the build fails, naming the
claim, where it is defined and every page that uses it: the text has to change,
never the number.

Each article's claims live in a module of their own (``attention``,
``feature_recovery``) and register themselves where they are defined, with
``@claim(refute=...)``. The check's docstring says in one sentence what it checks
(the catalogue, run/claims.json, and error messages show it). The check returns its
evidence, built from measures (``at_most``, ``below``, ``at_least``, ``above``,
``equal``): each is one measured value against its bound, and the claim holds only
if every measure does. The refutation is an edit of the values under which the
sentence would be false: tests apply it and expect the check to fail, so no claim
can pass whatever the data (tests/sitebuild/test_claims.py).
"""

from __future__ import annotations

import inspect
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sitebuild.values import lookup, reading

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent


class ClaimRefuted(AssertionError):
    """The values do not support the sentence; the message names the claim."""

    def __init__(self, message: str, evidence: Evidence | None = None) -> None:
        super().__init__(message)
        self.evidence = evidence


class UnknownClaim(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


# The relations a measure can state, each with its test.
RELATIONS: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "==": operator.eq,
}


@dataclass(frozen=True)
class Measure:
    """One measured VALUE of QUANTITY against its BOUND: ``value RELATION bound``.

    QUANTITY names what was measured, a key of the evidence words of every language
    (sitebuild.evidence), so that the note on a page says it in the page's language;
    STYLE is how the note prints VALUE and BOUND (sitebuild.numbers), BOUND_STYLE the
    bound's where the two differ (a determinant of 1.5 against a bound of 10⁻¹²)."""

    quantity: str
    value: float
    relation: str
    bound: float
    style: str = "sig2"
    bound_style: str | None = None

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS:
            raise ValueError(f"unknown relation {self.relation!r}; known: {', '.join(RELATIONS)}")

    @property
    def holds(self) -> bool:
        value, bound = float(self.value), float(self.bound)
        return math.isfinite(value) and RELATIONS[self.relation](value, bound)

    def __str__(self) -> str:
        return f"{self.quantity} = {self.value:.6g} (needs {self.relation} {self.bound:.6g})"


def at_most(quantity, value, bound, style="sig2", bound_style=None) -> Measure:
    return Measure(quantity, value, "<=", bound, style, bound_style)


def below(quantity, value, bound, style="sig2", bound_style=None) -> Measure:
    return Measure(quantity, value, "<", bound, style, bound_style)


def at_least(quantity, value, bound, style="sig2", bound_style=None) -> Measure:
    return Measure(quantity, value, ">=", bound, style, bound_style)


def above(quantity, value, bound, style="sig2", bound_style=None) -> Measure:
    return Measure(quantity, value, ">", bound, style, bound_style)


def equal(quantity, value, bound, style="int") -> Measure:
    return Measure(quantity, value, "==", bound, style)


@dataclass(frozen=True)
class Evidence:
    """What a check measured (MEASURES, shown in the evidence mark's note) and, for an
    author, the details behind them (DETAIL, English)."""

    measures: tuple[Measure, ...]
    detail: str = ""

    @property
    def holds(self) -> bool:
        return all(m.holds for m in self.measures)

    def __str__(self) -> str:
        parts = [str(m) for m in self.measures] + ([self.detail] if self.detail else [])
        return "; ".join(parts)


def evidence(*measures: Measure, detail: str = "") -> Evidence:
    """The evidence of MEASURES; ClaimRefuted (listing the measures that fail) unless
    every one holds."""
    if not measures:
        raise ValueError("evidence needs at least one measure: a mark shows a number")
    found = Evidence(tuple(measures), detail)
    if not found.holds:
        failing = "; ".join(str(m) for m in measures if not m.holds)
        raise ClaimRefuted(failing + (f" ({detail})" if detail else ""), found)
    return found


@dataclass(frozen=True)
class Claim:
    name: str
    article: str  # the module that defines it: attention, feature_recovery
    check: Callable[[dict], Evidence]  # the evidence, or raises ClaimRefuted
    refute: Callable[[dict], None]  # edits the values in place so that the claim is false
    description: str = ""  # one sentence: what the check checks

    @property
    def defined_at(self) -> str:
        """Where the check is written, as path:line from the project's root."""
        source = Path(inspect.getsourcefile(self.check)).resolve()
        line = inspect.getsourcelines(self.check)[1]
        try:
            return f"{source.relative_to(PROJECT_ROOT)}:{line}"
        except ValueError:
            return f"{source}:{line}"


REGISTRY: dict[str, Claim] = {}


def _description(check: Callable) -> str:
    """CHECK's docstring on one line: what the claim checks."""
    doc = " ".join((inspect.getdoc(check) or "").split())
    if not doc:
        raise ValueError(f"claim {check.__name__!r} needs a docstring: one sentence that says "
                         "what it checks")
    return doc


def register(name: str, check: Callable[[dict], Evidence], refute: Callable[[dict], None],
             description: str | None = None) -> None:
    if name in REGISTRY:
        raise ValueError(f"claim {name!r} is defined twice")
    REGISTRY[name] = Claim(name, check.__module__.rsplit(".", 1)[-1], check, refute,
                           description or _description(check))


def claim(refute: Callable[[dict], None]) -> Callable:
    """Register the decorated check as the claim of its own name."""

    def decorate(check: Callable[[dict], Evidence]) -> Callable[[dict], Evidence]:
        register(check.__name__, check, refute)
        return check

    return decorate


def difference(a, b) -> float:
    """The largest |a_i - b_i| of two vectors (0 for two empty ones). Vectors of
    different lengths are infinitely far apart: no bound holds for them."""
    if len(a) != len(b):
        return math.inf
    return max((abs(x - y) for x, y in zip(a, b, strict=True)), default=0.0)


def set_value(values: dict, path: str, new) -> None:
    """Replace the value at PATH: the building block of refutations."""
    *parents, last = path.split(".")
    node = lookup(values, ".".join(parents)) if parents else values
    node[int(last) if isinstance(node, list) else last] = new


@dataclass
class Outcome:
    """A claim checked against a build's values: its evidence, whether it held, what it
    read (the result paths it looked up) and, if it did not hold, why."""

    claim: Claim
    evidence: Evidence | None
    read: list[str] = field(default_factory=list)
    error: str | None = None  # why it failed: refuted, or a result the run does not have

    @property
    def held(self) -> bool:
        return self.error is None


def check(name: str, values: dict) -> Evidence:
    """The evidence for claim NAME; UnknownClaim if there is none, ClaimRefuted
    (naming the claim) if the values refute it."""
    if name not in REGISTRY:
        raise UnknownClaim(unknown_claim_message(name))
    from sitebuild.values import UnknownValue

    try:
        found = REGISTRY[name].check(values)
    except ClaimRefuted as error:
        raise ClaimRefuted(f"{name}: {error}", error.evidence) from None
    except UnknownValue:
        raise
    except (LookupError, TypeError, ValueError, ArithmeticError) as error:
        # A run whose values have another shape than the check reads (fewer snapshots,
        # an empty list) does not support the sentence either.
        raise ClaimRefuted(f"{name}: its check cannot read this run's values "
                           f"({type(error).__name__}: {error})") from None
    if not isinstance(found, Evidence):
        raise TypeError(f"claim {name!r} returned {type(found).__name__}, not Evidence")
    return found


def outcome(name: str, values: dict) -> Outcome:
    """Claim NAME checked against VALUES, with the paths it read; never raises for a
    refuted claim or a missing result (the outcome says so)."""
    from sitebuild.values import UnknownValue

    with reading() as read:
        try:
            found, error = check(name, values), None
        except ClaimRefuted as refuted:
            found, error = refuted.evidence, f"refuted: {refuted}"
        except UnknownValue as missing:
            found, error = None, f"reads a result this run does not have: {missing}"
    return Outcome(REGISTRY[name], found, sorted(set(read)), error)


def unknown_claim_message(name: str) -> str:
    from sitebuild.suggest import closest

    hint = closest(name, REGISTRY)
    return (f"unknown claim {name!r}" + (f"; did you mean {hint}?" if hint else "")
            + " (every claim: run/claims.json, or sitebuild/claims/)")


# Imported last: each module registers its claims with the functions above.
from sitebuild.claims import attention, feature_recovery  # noqa: E402, F401
