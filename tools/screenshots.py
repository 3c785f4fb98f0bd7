"""Screenshots of every page, for a person to look at: each language, both colour
schemes, on a desktop and on a phone.

    .venv/bin/python tools/screenshots.py [--site site] [--out artifacts/screenshots]

`make screenshots` builds the site first. Served from SITE on localhost and shown in
Debian's Chromium, full page, after scrolling once to the end (figures below the fold
load lazily). The file names say what each is: <language>-<page>-<scheme>-<device>.png.
A page that logs an error is named on stdout; the tests judge pages, this only shows them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, SCHEMES, page_url, serving  # noqa: E402
from tests.project import LANGUAGES, PAGES  # noqa: E402

DEVICES = {  # name -> viewport and pixel ratio
    "desktop": ({"width": 1280, "height": 900}, 1),
    "phone": ({"width": 390, "height": 844}, 2),
}
SCROLL_TO_END = """async () => {
  for (let y = 0; y < document.body.scrollHeight; y += 600) {
    window.scrollTo(0, y);
    await new Promise((done) => setTimeout(done, 50));
  }
  window.scrollTo(0, 0);
}"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "screenshots")
    args = parser.parse_args()
    if not (args.site / "index.html").exists():
        parser.error(f"{args.site} holds no built site: run `make site` first")
    args.out.mkdir(parents=True, exist_ok=True)
    with serving(args.site) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for language in LANGUAGES:
            for page in PAGES:
                for scheme in SCHEMES:
                    for device, (viewport, ratio) in DEVICES.items():
                        shoot(browser, page_url(server, language, page), scheme, viewport,
                              ratio, args.out / f"{language}-{page.strip('/') or 'home'}-"
                                                f"{scheme}-{device}.png")
        browser.close()
    return 0


def shoot(browser, url: str, scheme: str, viewport: dict, ratio: int, path: Path) -> None:
    context = browser.new_context(color_scheme=scheme, viewport=viewport,
                                  device_scale_factor=ratio)
    tab = context.new_page()
    errors = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: message.type == "error" and errors.append(message.text))
    tab.goto(url, wait_until="networkidle")
    tab.evaluate(SCROLL_TO_END)
    tab.wait_for_load_state("networkidle")
    tab.screenshot(path=path, full_page=True)
    context.close()
    print(path.name, "; ".join(errors))


if __name__ == "__main__":
    sys.exit(main())
