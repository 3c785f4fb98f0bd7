/* The site's one script tag (mkdocs.yml), on every page: the fixes to Material's
   page that every page needs, and for each widget that the page holds, that
   widget's module, imported when the page holds its element. A page without the
   element never asks for the module: the home page loads no widget
   (tests/browser/test_script_loading.py). */
import * as accessibility from "./accessibility.js";
import * as searchCounts from "./search-counts.js";
import * as searchTyping from "./search-typing.js";

// Each widget: the element a page holds it in, and its module, which exports start().
const WIDGETS = [
  [".attention-calculator", () => import("./attention-calculator.js")],
  [".value-swap", () => import("./value-swap.js")],
  [".intervention-explorer", () => import("./intervention-explorer.js")],
  [".training-playground", () => import("./playground-ui.js")],
  [".md-content article img", () => import("./figure-viewer.js")], // the figure viewer
];

function startPage() {
  accessibility.start();
  searchCounts.start();
  searchTyping.start();
  for (const [selector, load] of WIDGETS) {
    if (!document.querySelector(selector)) continue;
    load().then((widget) => widget.start(),
                (error) => console.error(`${selector}: its module did not load`, error));
  }
  // The page's own fixes are in place: what a check of the page (axe) waits for.
  document.documentElement.dataset.siteStarted = "";
}

// Material's document$ gives every page it shows: this one, and each page after an
// instant navigation, should that feature be switched on (a widget's start() skips
// what it has enhanced already).
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => startPage());
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => startPage());
} else {
  startPage();
}
