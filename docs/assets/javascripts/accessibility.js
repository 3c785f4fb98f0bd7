/* Three fixes to what Material for MkDocs and the page layout leave for axe-core.

   - Material wraps each code block's copy button in <nav class="md-code__nav">,
     a navigation landmark per listing, all with the same (empty) name. A copy
     button is not navigation: the wrapper becomes a plain container.
   - Material's search dialog (role="dialog") has no name; it takes the one of
     its search field, in the page's language. Set here rather than in a copy of
     Material's partials/search.html, which would stay behind on an upgrade.
   - A formula or a notebook listing wider than the column scrolls sideways; a
     reader on a keyboard can scroll it only if it can take focus. */
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

// A code block Material has not mounted yet: mounting puts the nav before the <code>.
const UNMOUNTED = "pre > code:first-child";

/** Material adds the code navs as it mounts each block, possibly after this runs:
    watch the content (not the whole page) until every block has its nav, then stop. */
function plainCodeNavsOnceMounted(content) {
  plainCodeNavs(content);
  if (!content.querySelector(UNMOUNTED)) return;
  const observer = new MutationObserver(() => {
    plainCodeNavs(content);
    if (!content.querySelector(UNMOUNTED)) observer.disconnect();
  });
  observer.observe(content, { childList: true, subtree: true });
}

const SIDEWAYS = ".md-typeset .math-display, .md-typeset .highlight-ipynb";

/** The three fixes, on the page as it is now. */
export function start() {
  namedSearchDialog();
  const content = document.querySelector(".md-content");
  if (content) plainCodeNavsOnceMounted(content);
  document.querySelectorAll(SIDEWAYS).forEach(keyboardScrollable);
}
