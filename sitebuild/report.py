"""What is wrong with a build's pages, in every language, as one report.

Errors are grouped by page, each as ``docs/attention.<code>.md:123: message``; a claim
that the run does not support is reported once, however many pages use it, with
what it checks, where it is defined, where it is used and its labelled evidence.
The count is the number of errors, so that an author knows how many fixes remain.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RULE = "If the run no longer supports a sentence, change the sentence, never the number."


@dataclass
class Report:
    errors: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # path -> faults
    claims: dict[str, object] = field(default_factory=dict)  # refuted name -> its Outcome
    claim_uses: dict[str, list[str]] = field(default_factory=dict)  # name -> path:line

    def add(self, path: str, line: int, message: str) -> None:
        """Note MESSAGE at PATH:LINE, once (each language's pass sees the page errors of
        every page it builds)."""
        faults = self.errors.setdefault(path, [])
        if (line, message) not in faults:
            faults.append((line, message))

    def refuted(self, name: str, outcome) -> None:
        self.claims.setdefault(name, outcome)

    @property
    def count(self) -> int:
        return sum(len(faults) for faults in self.errors.values()) + len(self.claims)

    def summary(self, seconds: float) -> str:
        return f"built in {seconds:.1f} s; {self.count} page error{'s' * (self.count != 1)}"

    def text(self, published: bool = False) -> str:
        """Every error, grouped by page; PUBLISHED: whether the pages are served anyway
        (under `serve`, with the errors on them)."""
        parts = []
        for path in sorted(self.errors):
            faults = sorted(self.errors[path])
            parts.append(f"{path} ({len(faults)}):\n" + "\n".join(
                _indented(f"{path}:{line}: {message}") for line, message in faults))
        for name, outcome in sorted(self.claims.items()):
            parts.append(self._claim_text(name, outcome))
        noun = "error" if self.count == 1 else "errors"
        fate = "the pages show them" if published else "nothing is published"
        return (f"{self.count} {noun} on the pages; {fate}.\n\n"
                + "\n\n".join(parts))

    def _claim_text(self, name: str, outcome) -> str:
        lines = [f"claim {name} is not supported by this run."]
        if outcome is not None:
            lines += [f"It checks: {outcome.claim.description}",
                      f"Defined at {outcome.claim.defined_at}."]
        uses = self.claim_uses.get(name, [])
        if uses:
            lines.append("Used at " + ", ".join(uses) + ".")
        if outcome is not None and outcome.evidence is not None:
            lines.append("Evidence:")
            lines += [f"  {'ok    ' if m.holds else 'FAILS '}{m}"
                      for m in outcome.evidence.measures]
            if outcome.evidence.detail:
                lines.append(f"  {outcome.evidence.detail}")
        elif outcome is not None and outcome.error:
            lines.append(outcome.error)
        lines.append(RULE)
        return "\n".join(_indented(line) for line in lines)


def _indented(text: str, width: int = 280) -> str:
    """TEXT as lines of at most WIDTH characters (a log line longer than that is not read),
    the continuation lines indented."""
    out = []
    for line in text.splitlines() or [""]:
        while len(line) > width:
            cut = line.rfind(" ", 0, width)
            cut = cut if cut > width // 2 else width
            out.append(line[:cut])
            line = "    " + line[cut:].lstrip()
        out.append(line)
    return "\n".join("  " + line for line in out)
