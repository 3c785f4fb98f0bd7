/* Two fixes to what Material for MkDocs and the page layout leave for axe-core.

   - Material wraps each code block's copy button in <nav class="md-code__nav">,
     a navigation landmark per listing, all with the same (empty) name. A copy
     button is not navigation: the wrapper becomes a plain container.
   - A formula or a notebook listing wider than the column scrolls sideways; a
     reader on a keyboard can scroll it only if it can take focus. */
(function () {
  "use strict";
  const { keyboardScrollable, ready } = window.AttentionSite;

  function plainCodeNavs(root) {
    for (const nav of root.querySelectorAll("nav.md-code__nav:not([role])")) {
      nav.setAttribute("role", "none");
    }
  }

  const SIDEWAYS = ".md-typeset .math-display, .md-typeset .highlight-ipynb";

  ready(() => {
    plainCodeNavs(document);
    // Material adds the code navs as each block is mounted, possibly after this runs.
    new MutationObserver(() => plainCodeNavs(document)).observe(document.body,
      { childList: true, subtree: true });
    document.querySelectorAll(SIDEWAYS).forEach(keyboardScrollable);
  });
})();
