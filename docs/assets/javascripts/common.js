/* Shared by the interactive figures: the page's language, numbers printed as
   sitebuild/numbers.py prints them, the run's published files, and start-up.
   Everything is local: no library and no request to another host. */
(function () {
  "use strict";

  /* The page's language record (locales/<code>.toml), which overrides/main.html
     writes into every page: its code, its widgets' words, and every language's
     decimal and group signs. */
  const record = (() => {
    const node = document.getElementById("site-language");
    if (!node) throw new Error("no site-language in the page (overrides/main.html)");
    return JSON.parse(node.textContent);
  })();
  const signs = (language) => {
    if (!(language in record.numbers)) throw new Error(`no number signs for ${language}`);
    return record.numbers[language];
  };
  const MINUS = "\u2212";
  const TIMES = "\u00a0×\u00a010"; // no-break spaces keep "1.3 × 10⁻³¹" on one line
  const SUPERSCRIPT = { "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶",
                        "7": "⁷", "8": "⁸", "9": "⁹", "-": "⁻" };

  const lang = record.code;
  // Between the numbers of a vector: "; " where the comma is the decimal sign (numbers.py).
  const separatorOf = (language) => (signs(language).decimal === "," ? "; " : ", ");
  const separator = separatorOf(lang);

  // This file is site/assets/javascripts/common.js: the site's root is two folders up,
  // in every language (the run's files are published once, at the root).
  const script = document.currentScript;
  const root = new URL("../../", script ? script.src : window.location.href);

  /* Numbers, printed as sitebuild/numbers.py prints them, character for character
     (tests/browser/test_numbers.py compares the two). toFixed and toExponential round
     a value exactly halfway away from zero, as numbers.py does. */

  /** "-1234.5" from toFixed in LANGUAGE's signs: grouped from five digits on, and
      no minus before a number that rounded to zero. */
  function localise(text, language) {
    const negative = text.startsWith("-") && /[1-9]/.test(text);
    const [whole, fraction] = text.replace(/^-/, "").split(".");
    const grouped = whole.length > 4
      ? whole.replace(/\B(?=(\d{3})+$)/g, signs(language).group) : whole;
    return (negative ? MINUS : "") + grouped
      + (fraction === undefined ? "" : signs(language).decimal + fraction);
  }

  /** VALUE with DECIMALS decimals; toFixed writes 1e21 and beyond in exponent form. */
  function fixed(value, decimals) {
    if (Math.abs(value) < 1e21) return value.toFixed(decimals);
    return BigInt(value).toString() + (decimals ? "." + "0".repeat(decimals) : "");
  }

  /** sigN: N significant digits, trailing zeros dropped (numbers.py's _significant). */
  function significant(value, digits) {
    if (value === 0) return "0";
    const decimals = Math.max(digits - 1 - Math.floor(Math.log10(Math.abs(value))), 0);
    const text = fixed(value, decimals);
    return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
  }

  /** sciN: "1.3 × 10⁻³¹", or the bare mantissa when the exponent is 0. */
  function scientific(value, digits, language) {
    if (value === 0) return "0";
    const [mantissa, exponent] = value.toExponential(digits - 1).split("e");
    const power = Number(exponent);
    if (power === 0) return localise(mantissa, language);
    const superscript = String(power).split("").map((c) => SUPERSCRIPT[c]).join("");
    return localise(mantissa, language) + TIMES + superscript;
  }

  /** VALUE in STYLE (int, fixN, sigN, sciN) for LANGUAGE: numbers.py's format_value. */
  function formatNumber(value, style, language = lang) {
    const match = /^(?:int|(fix|sig|sci)(\d{1,2}))$/.exec(style);
    if (!match || !Number.isFinite(value)) throw new Error(`cannot print ${value} as ${style}`);
    const digits = Number(match[2]);
    if (!match[1]) return localise(fixed(value, 0), language);
    if (match[1] === "fix") return localise(fixed(value, digits), language);
    if (match[1] === "sig") return localise(significant(value, Math.max(digits, 1)), language);
    return scientific(value, Math.max(digits, 1), language);
  }

  const fix = (value, digits) => formatNumber(value, `fix${digits}`);
  const sig = (value, digits) => formatNumber(value, `sig${digits}`);
  const sci = (value, digits) => formatNumber(value, `sci${digits}`);

  /** "[0.75, 0.25]", or "[0,75; 0,25]" where the decimal sign is a comma. */
  function vector(values, format, language = lang) {
    return "[" + values.map((value) => format(value)).join(separatorOf(language)) + "]";
  }

  /** A number the reader typed: either decimal sign, either minus. NaN if it is none. */
  function parse(text) {
    const cleaned = text.trim().replace(/\u2212/g, "-").replace(",", ".");
    return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned) ? Number(cleaned) : NaN;
  }

  /** One of the run's published files (run/results.json, run/examples.json). */
  async function runFile(name) {
    const response = await fetch(new URL("run/" + name, root));
    if (!response.ok) throw new Error(`run/${name}: HTTP ${response.status}`);
    return response.json();
  }

  /** An element with attributes and children: el("td", {class: "x"}, "text", child). */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === false || value === null || value === undefined) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    node.append(...children.filter((child) => child !== null && child !== undefined));
    return node;
  }

  /** BOX scrolls sideways when its content is wider: then it takes keyboard focus, so
      that a reader without a mouse can scroll it too (axe: scrollable-region-focusable). */
  function keyboardScrollable(box) {
    const update = () => {
      const wide = box.scrollWidth > box.clientWidth;
      if (wide && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
      if (!wide && box.getAttribute("tabindex") === "0") box.removeAttribute("tabindex");
    };
    update();
    new ResizeObserver(update).observe(box);
  }

  let counter = 0;
  /** A page-unique id for aria-labelledby and label[for]. */
  function uid(prefix) {
    counter += 1;
    return `${prefix}-${counter}`;
  }

  /** Run SETUP once the page is there. Material's document$ fires again after
      instant navigation, should that feature ever be switched on. */
  function ready(setup) {
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(() => setup());
    } else if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", () => setup());
    } else {
      setup();
    }
  }

  /** Once the page is there, give every SELECTOR container that is not yet
      enhanced to MOUNT(container, data), with DATA the run's file NAME. If the
      file cannot be read, the containers keep their static content. */
  function enhance(selector, name, mount) {
    ready(async () => {
      const containers = document.querySelectorAll(`${selector}:not(.is-enhanced)`);
      if (!containers.length) return;
      let data;
      try {
        data = await runFile(name);
      } catch (error) {
        console.warn(`${selector}: keeping the static content;`, error.message);
        return;
      }
      containers.forEach((container) => mount(container, data));
    });
  }

  /** TEXT as nodes, with "W_V" or "a_j" drawn as an italic letter and its subscript,
      as the articles' formulas show them. */
  function rich(text) {
    const fragment = document.createDocumentFragment();
    const pattern = /([A-Za-zŷ])_([A-Za-z0-9]+)/g;
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      fragment.append(text.slice(last, match.index),
                      el("i", {}, match[1]), el("sub", {}, match[2]));
      last = match.index + match[0].length;
    }
    fragment.append(text.slice(last));
    return fragment;
  }

  /** The words of the widget in CONTAINER, in the page's language: the table of the
      record's words that the container names (data-words="calculator"). */
  function pageWords(container) {
    const words = siteWords()[container.dataset.words];
    if (!words) throw new Error(`${container.className}: no words "${container.dataset.words}"`);
    return words;
  }

  /** The words of the site's own scripts in the page's language, one table per
      widget: the record's [words]. */
  function siteWords() {
    return record.words;
  }

  /** TEMPLATE with each {name} replaced by PARAMS[name]: fill("record {j}", {j: 2}). */
  function fill(template, params) {
    return template.replace(/\{(\w+)\}/g, (whole, name) =>
      (name in params ? String(params[name]) : whole));
  }

  /** A seeded uniform generator on [0, 1): mulberry32, in 32-bit integer arithmetic. */
  function mulberry32(seed) {
    let a = seed >>> 0;
    return function next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  window.AttentionSite = {
    lang, separator, formatNumber, fix, sig, sci, vector, parse, el, rich, uid, ready, enhance,
    keyboardScrollable, pageWords, siteWords, fill, mulberry32,
  };
})();
