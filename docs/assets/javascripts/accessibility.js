/* Two fixes to what Material for MkDocs and the page layout leave for axe-core.

   - Material wraps each code block's copy button in <nav class="md-code__nav">,
     a navigation landmark per listing, all with the same (empty) name. A copy
     button is not navigation: the wrapper becomes a plain container.
   - A formula or a notebook listing wider than the column scrolls sideways; a
     reader on a keyboard can scroll it only if it can take focus. */
(function () {
  "use strict";
  const { ready } = window.AttentionSite;

  function plainCodeNavs(root) {
    for (const nav of root.querySelectorAll("nav.md-code__nav:not([role])")) {
      nav.setAttribute("role", "none");
    }
  }

  const SIDEWAYS = ".md-typeset .math-display, .md-typeset .highlight-ipynb";

  function focusableWhenWide() {
    for (const box of document.querySelectorAll(SIDEWAYS)) {
      const wide = box.scrollWidth > box.clientWidth;
      if (wide && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
      if (!wide && box.getAttribute("tabindex") === "0") box.removeAttribute("tabindex");
    }
  }

  ready(() => {
    plainCodeNavs(document);
    // Material adds the code navs as each block is mounted, possibly after this runs.
    new MutationObserver(() => plainCodeNavs(document)).observe(document.body,
      { childList: true, subtree: true });
    focusableWhenWide();
    window.addEventListener("resize", focusableWhenWide);
  });
})();
