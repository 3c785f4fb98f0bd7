/* What the training playground draws: heat maps as tables, in the colours of the
   run's figures (experiment/figures.py: PuOr about zero, its own dark scale on a
   dark page; widgets.css holds the levels), and line charts in SVG, one on a
   logarithmic axis. Each view is built once and then updated in place with
   update(...), many times a second while the student trains. No words of their own:
   the caller passes them in the page's language. */
import { fix, sci, superscript } from "./common.js";
import { el, rich, svg } from "./dom.js";

const LEVELS = 10; // colour levels on each side of zero: widgets.css's level-m10 ... level-p10

/** The colour class of VALUE on a scale symmetric about 0 up to LIMIT. */
function level(value, limit) {
  const k = Math.max(-LEVELS, Math.min(LEVELS, Math.round((LEVELS * value) / limit)));
  return k < 0 ? `level-m${-k}` : `level-p${k}`;
}

/** A heat map of a ROWS x COLUMNS matrix (a flat array) as a table: CAPTION, the
    column heads and the row heads; update(values) recolours and reprints it. The
    colour limit is max(1, largest |entry|): the intended maps' ones keep one
    colour while training moves the entries. */
export function heatmap(caption, columnHeads, rowHeads) {
  const cells = [];
  const body = el("tbody", {}, ...rowHeads.map((head) => el("tr", {},
    el("th", { scope: "row" }, rich(head)),
    ...columnHeads.map(() => {
      const cell = el("td", { class: "heat" });
      cells.push(cell);
      return cell;
    }))));
  const table = el("table", { class: "heatmap playground__map" },
    el("caption", {}, rich(caption)),
    el("thead", {}, el("tr", {}, el("td"),
      ...columnHeads.map((head) => el("th", { scope: "col" }, rich(head))))),
    body);
  return {
    node: table,
    update(values) {
      let limit = 1;
      for (const value of values) limit = Math.max(limit, Math.abs(value));
      cells.forEach((cell, k) => {
        const text = fix(values[k], 2);
        if (cell.textContent !== text) cell.textContent = text;
        cell.className = `heat ${level(values[k], limit)}`;
      });
    },
  };
}

const HEIGHT = 200;
const MARGIN = { left: 76, right: 12, top: 20, bottom: 30 };

/** A line chart of one series against the step, with a dotted reference line.
    LOG: a logarithmic y axis (labelled 10ⁿ), else a linear one from 0. LABELS:
    {x, reference}. update(values, steps, reference, description) redraws it for
    VALUES[k] at step k + 1 on an axis from 0 to STEPS; DESCRIPTION is what a
    screen reader hears. The drawing is as wide as its box, so that its text keeps
    its size on a phone. */
export function lineChart(labels, { log }) {
  const plot = { x0: MARGIN.left, x1: 0, y0: HEIGHT - MARGIN.bottom, y1: MARGIN.top };
  const root = svg("svg", { role: "img", class: "playground__chart" });
  const ticks = svg("g", { class: "playground__ticks" });
  const reference = svg("line", { class: "playground__reference" });
  const referenceLabel = svg("text", { class: "playground__reference-label",
                                       "text-anchor": "end" });
  const line = svg("path", { class: "playground__line", fill: "none" });
  const frame = svg("path", { class: "playground__axes", fill: "none" });
  const xLabel = svg("text", { "text-anchor": "middle", class: "playground__axis-label" });
  xLabel.textContent = labels.x;
  referenceLabel.textContent = labels.reference;
  root.append(ticks, frame, reference, referenceLabel, line, xLabel);

  /** The drawing's width: its box's, in CSS pixels, within bounds. */
  function layout() {
    const width = Math.round(Math.min(Math.max(root.clientWidth || 560, 280), 720));
    if (width === plot.x1 + MARGIN.right) return;
    plot.x1 = width - MARGIN.right;
    root.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
    frame.setAttribute("d", `M${plot.x0},${plot.y1}V${plot.y0}H${plot.x1}`);
    xLabel.setAttribute("x", String((plot.x0 + plot.x1) / 2));
    xLabel.setAttribute("y", String(HEIGHT - 2));
  }

  const tick = (x, y, text, anchor) => {
    const label = svg("text", { x: String(x), y: String(y), "text-anchor": anchor });
    label.textContent = text;
    ticks.append(label);
  };

  function yScale(values, referenceValue) {
    const finite = values.filter((v) => Number.isFinite(v) && (!log || v > 0));
    finite.push(referenceValue);
    if (log) {
      let low = Math.floor(Math.log10(Math.min(...finite)));
      let high = Math.ceil(Math.log10(Math.max(...finite)));
      if (high - low < 2) low = high - 2;
      return { low, high, at: (v) => plot.y0 - ((Math.log10(v) - low) / (high - low))
                                                 * (plot.y0 - plot.y1) };
    }
    const high = Math.max(...finite.map(Math.abs), 1e-12) * 1.1;
    return { low: 0, high, at: (v) => plot.y0 - (v / high) * (plot.y0 - plot.y1) };
  }

  let last = null; // the latest update's arguments, to redraw at a new width
  new ResizeObserver(() => last && chart.update(...last)).observe(root);
  const chart = {
    node: root,
    update(values, steps, referenceValue, description) {
      last = [values, steps, referenceValue, description];
      layout();
      const y = yScale(values, referenceValue);
      const x = (step) => plot.x0 + (step / steps) * (plot.x1 - plot.x0);
      ticks.replaceChildren();
      if (log) {
        const every = Math.max(1, Math.ceil((y.high - y.low) / 6)); // at most 7 labels
        for (let p = y.high; p >= y.low; p -= every) {
          tick(plot.x0 - 6, y.at(10 ** p) + 4, "10" + superscript(p), "end");
        }
      } else {
        tick(plot.x0 - 6, plot.y0 + 4, fix(0, 0), "end");
        tick(plot.x0 - 6, plot.y1 + 8, y.high < 0.01 ? sci(y.high, 1) : fix(y.high, 2), "end");
      }
      tick(plot.x0, plot.y0 + 16, fix(0, 0), "start");
      tick(plot.x1, plot.y0 + 16, fix(steps, 0), "end");
      const at = y.at(referenceValue);
      for (const [name, value] of [["x1", plot.x0], ["x2", plot.x1], ["y1", at], ["y2", at]]) {
        reference.setAttribute(name, String(value));
      }
      referenceLabel.setAttribute("x", String(plot.x1 - 4));
      referenceLabel.setAttribute("y", String(at - 5));
      let d = "";
      values.forEach((value, k) => {
        if (!Number.isFinite(value) || (log && value <= 0)) return;
        d += `${d ? "L" : "M"}${x(k + 1).toFixed(1)},${y.at(value).toFixed(1)}`;
      });
      line.setAttribute("d", d);
      root.setAttribute("aria-label", description);
    },
  };
  return chart;
}
