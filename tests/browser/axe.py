"""axe-core on a page as the reader sees it once it has settled.

A control that was just clicked is hovered and focused, and Material's buttons
fade between colours over a fraction of a second: checked mid-fade, a colour that
is never shown at rest can fail the contrast rule. So the check waits until no CSS
transition is running, then asks axe-core."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

SETTLED = """() => document.getAnimations()
  .filter((a) => a instanceof CSSTransition && a.playState === "running").length === 0"""


def violations(page, context: str | None = None) -> list[tuple[str, list]]:
    """(rule, targets) for every violation inside context, after transitions end."""
    page.wait_for_function(SETTLED, timeout=10_000)
    options = {} if context is None else {"context": context}
    found = Axe().run(page, **options).response["violations"]
    return [(v["id"], [n["target"] for n in v["nodes"]]) for v in found]
