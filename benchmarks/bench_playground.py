"""Print the seconds the training playground takes for the run's steps of one seed in
headless Chromium; assert nothing.

    python benchmarks/bench_playground.py [--site DIR] [--repeats N]

Builds the site (or takes DIR, a built site), serves it on localhost and opens the
feature-recovery article in Debian's Chromium. Two figures, each the median of N:
- the widget: from a press of Run to the end of the run (1200 steps of four fixed
  keys with Adam, seed 0), as a reader waits for it, drawing included; it trains in
  slices between which the page answers;
- the arithmetic alone: playground-model.js's training of the same seed in one go,
  with the held-out examples drawn, and no drawing.

Goal: at most 2 s for the widget. The machine is shared: run it more than once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, serving  # noqa: E402
from tests.project import copy_project, mkdocs_build  # noqa: E402

WIDGET = ".training-playground .playground"

# Milliseconds from a press of Run (after a reset) to the end of the run.
WIDGET_RUN = """(selector) => new Promise((resolve) => {
  const widget = document.querySelector(selector);
  const [run, , reset] = widget.querySelectorAll(".widget__buttons button");
  reset.click();
  const observer = new MutationObserver(() => {
    if (widget.dataset.running === "false" && widget.dataset.heldout !== undefined) {
      observer.disconnect();
      resolve({ ms: performance.now() - start, step: Number(widget.dataset.step) });
    }
  });
  observer.observe(widget, { attributes: true });
  const start = performance.now();
  run.click();
})"""

# Milliseconds of the same training, with the run's settings, without the page.
ARITHMETIC = """async () => {
  const results = await (await fetch("../run/results.json")).json();
  const c = results.config;
  const run = {
    R: Float64Array.from(results.mixing_matrix.flat()),
    fixedKeys: Float64Array.from(results.fixed_keys.flat()),
    initScale: c.init_scale, keyInitScale: c.key_init_scale, queryScale: c.query_scale,
    batchSize: c.batch_size, heldoutSize: c.heldout_size,
    betas: results.optimizer.betas, eps: results.optimizer.eps,
  };
  const model = await import(new URL("../assets/javascripts/playground-model.js",
                                     location.href).href);
  const start = performance.now();
  const training = model.training(
    run, { variant: "four", optimiser: "adam", lr: c.learning_rate, seed: 0 });
  for (let step = 0; step < c.steps; step += 1) training.step();
  const heldout = training.heldoutMse();
  return { ms: performance.now() - start, step: c.steps, heldout };
}"""


def measure(site: Path, repeats: int) -> None:
    from playwright.sync_api import sync_playwright

    with serving(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(base + "feature-recovery/")
        page.wait_for_selector(WIDGET)
        widget = [page.evaluate(WIDGET_RUN, WIDGET) for _ in range(repeats)]
        alone = [page.evaluate(ARITHMETIC) for _ in range(repeats)]
        browser.close()
    steps = widget[0]["step"]
    seconds = lambda runs: [run["ms"] / 1000 for run in runs]  # noqa: E731
    print(f"training playground, {steps} steps of one seed (four fixed keys, Adam), "
          f"headless Chromium, median of {repeats}:")
    print(f"  the widget, Run to the end:  {statistics.median(seconds(widget)):.2f} s "
          f"(each: {', '.join(f'{s:.2f}' for s in seconds(widget))}; goal <= 2 s)")
    print(f"  the arithmetic alone:        {statistics.median(seconds(alone)):.2f} s "
          f"(each: {', '.join(f'{s:.2f}' for s in seconds(alone))}; "
          f"held-out MSE {alone[0]['heldout']:.1e})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-playground-") as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            done = mkdocs_build(copy_project(Path(scratch) / "project"), site)
            if done.returncode != 0:
                sys.exit(f"mkdocs build failed:\n{done.stderr[-3000:]}")
        measure(site, args.repeats)


if __name__ == "__main__":
    main()
