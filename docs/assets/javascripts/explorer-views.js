/* What the intervention explorer draws besides its heat map: bar charts as tables, and
   the example's latent features. Each view is built once and updated in place. No
   words of their own: the caller passes them in the page's language.

   A bar chart is a table, so that a screen reader reads it as one: a row per record
   or coordinate, its bars in one cell, each bar with its number and, for a screen
   reader, its series' name; a legend of the series in the column head. The bars'
   positions are set through element.style, which the page's Content-Security-Policy
   allows to a script (a style attribute in the HTML it refuses). */
import { fill, fix } from "./common.js";
import { el, rich } from "./dom.js";

/** A bar from 0 to VALUE on an axis from LOW to HIGH, as left and width in percent. */
function extent(value, low, high) {
  const at = (x) => (100 * (Math.min(Math.max(x, low), high) - low)) / (high - low);
  const [from, to] = [at(Math.min(0, value)), at(Math.max(0, value))];
  return { left: `${from.toFixed(2)}%`, width: `${(to - from).toFixed(2)}%` };
}

/** One series' swatch and name, for the legend. */
const legendItem = (series) => el("span", { class: "explorer__legend-item" },
  el("span", { class: `explorer__swatch explorer__bar--${series.kind}`, "aria-hidden": "true" }),
  series.label);

/** One bar of a row: the series' name (for a screen reader), the bar, its number. */
function barLine(series) {
  const bar = el("span", { class: `explorer__bar explorer__bar--${series.kind}` });
  const number = el("span", { class: "explorer__value" });
  const line = el("span", { class: "explorer__line" },
    el("span", { class: "visually-hidden" }, `${series.label}: `),
    el("span", { class: "explorer__track", "aria-hidden": "true" }, bar),
    number);
  return { line, bar, number };
}

/** A bar chart: CAPTION, ROWHEAD (the first column's head), SERIES [{kind, label}],
    the bars of each row in that order. SIGNED: an axis symmetric about 0 (a zero line
    in the middle), else from 0 to 1. update(rowLabels, values[row][series], limit)
    rebuilds the rows when their number changes, and redraws every bar; LIMIT is the
    signed axis' end. */
export function barChart(caption, rowHead, series, { signed }) {
  const body = el("tbody");
  const table = el("table", { class: `explorer__chart${signed ? " explorer__chart--signed" : ""}` },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, rowHead),
      el("th", { scope: "col", class: "explorer__legend" }, ...series.map(legendItem)))),
    body);
  let rows = [];
  const build = (labels) => {
    rows = labels.map((label) => {
      const lines = series.map(barLine);
      const row = el("tr", {}, el("th", { scope: "row" }, rich(label)),
                     el("td", { class: "explorer__bars" }, ...lines.map((l) => l.line)));
      return { row, lines };
    });
    body.replaceChildren(...rows.map((r) => r.row));
  };
  return {
    node: table,
    update(labels, values, limit = 1) {
      if (rows.length !== labels.length) build(labels);
      const [low, high] = signed ? [-limit, limit] : [0, 1];
      rows.forEach((r, i) => r.lines.forEach((line, k) => {
        const { left, width } = extent(values[i][k], low, high);
        line.bar.style.left = left;
        line.bar.style.width = width;
        line.number.textContent = fix(values[i][k], 2);
      }));
    },
  };
}

/** The latent features of an example as a table: WORDS' column groups and heads, a
    row per input; FEATURES the nine features' names. update(latents, edited) prints
    the edited latents and marks each one an intervention changed. */
export function latentTable(words, features) {
  const group = (text) => el("th", { colspan: "3", scope: "colgroup" }, text);
  const body = el("tbody");
  const table = el("table", { "data-table": "latents" }, // no class: Material styles it
    el("thead", {},
      el("tr", {}, el("td"), group(words.query), group(words.payload), group(words.noise)),
      el("tr", {}, el("th", { scope: "col" }, words.input),
         ...features.map((name) => el("th", { scope: "col" }, name)))),
    body);
  const rowName = (r) => (r === 0 ? words.request : fill(words.record, { j: r }));
  return {
    node: table,
    update(latents, edited) {
      body.replaceChildren(...edited.map((row, r) => el("tr", {},
        el("th", { scope: "row" }, rowName(r)),
        ...row.map((x, i) => {
          const changed = x !== latents[r][i];
          return el("td", { class: changed ? "is-edited" : null,
                            title: changed ? words.edited : null }, fix(x, 2));
        }))));
    },
  };
}
