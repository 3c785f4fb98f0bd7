/* Three fixes to what Material for MkDocs and the page layout leave for axe-core.

   - Material wraps each code block's copy button in <nav class="md-code__nav">,
     a navigation landmark per listing, all with the same (empty) name. A copy
     button is not navigation: the wrapper becomes a plain container.
   - Material's search dialog (role="dialog") has no name; it takes the one of
     its search field, in the page's language. Set here rather than in a copy of
     Material's partials/search.html, which would stay behind on an upgrade.
   - A table, a formula or a notebook listing wider than the column (on a phone,
     most tables) scrolls sideways; a reader on a keyboard can scroll it only if it
     can take focus, and a screen reader names the stop by the words of the page's
     language (dom.js's keyboardScrollable). Material wraps each table of the text in
     its scrolling box as it mounts the page. */
import { siteWords } from "./common.js";
import { keyboardScrollable } from "./dom.js";

function plainCodeNavs(root) {
  for (const nav of root.querySelectorAll("nav.md-code__nav:not([role])")) {
    nav.setAttribute("role", "none");
  }
}

function namedSearchDialog() {
  const dialog = document.querySelector('.md-search[role="dialog"]:not([aria-label])');
  const field = dialog && dialog.querySelector(".md-search__input[aria-label]");
  if (field) dialog.setAttribute("aria-label", field.getAttribute("aria-label"));
}

// What scrolls sideways, and the word that names it (the record's [words.accessibility]).
const SIDEWAYS = [
  [".md-typeset .md-typeset__scrollwrap", "table"],
  [".md-typeset .math-display", "formula"],
  [".md-typeset .highlight-ipynb", "code"],
];

function keyboardScrollables(root) {
  const words = siteWords().accessibility;
  for (const [selector, kind] of SIDEWAYS) {
    root.querySelectorAll(selector).forEach((box) => keyboardScrollable(box, words[kind]));
  }
}

// What Material has not mounted yet: a code block without its nav (mounting puts the
// nav before the <code>), a table of the text outside its scrolling box.
const UNMOUNTED = "pre > code:first-child, :not(.md-typeset__table) > table:not([class])";

/** Material mounts code blocks and tables as it goes, possibly after this runs: watch
    the content (not the whole page) until each is mounted and fixed, then stop. */
function fixOnceMounted(content) {
  const fix = () => {
    plainCodeNavs(content);
    keyboardScrollables(content);
  };
  fix();
  if (!content.querySelector(UNMOUNTED)) return;
  const observer = new MutationObserver(() => {
    fix();
    if (!content.querySelector(UNMOUNTED)) observer.disconnect();
  });
  observer.observe(content, { childList: true, subtree: true });
}

/** The three fixes, on the page as it is now. */
export function start() {
  namedSearchDialog();
  const content = document.querySelector(".md-content");
  if (content) fixOnceMounted(content);
}
