/* The attention calculator of the attention article: the bank model's head 1 on
   the page's second sentence, with the arrows of the look plane to move.

   The page holds <div class="attention-calculator"> with a sentence about its
   static form; its words are the record's (data-words, pageWords). This script takes
   the bank model and the sentence from run/examples.json (bank) and recomputes
   the head (bank-model.js, examples/bank.py's head) for the reader's arrows,
   temperature and mask. The reader drags the query of the ambiguous word or any
   word's key, or picks an arrow and moves it with two sliders; each move sets
   that word's look coordinates, so that its key (and, for the ambiguous word,
   its query) lands where the reader put it. tests/browser/
   test_attention_calculator.py holds every stage to the Python to 1e-9.

   Three parts: state (pure functions), the DOM, the events. */
import { calculator, inverse2 } from "./bank-model.js";
import { fill, fix, lang, pageWords, sig, vector } from "./common.js";
import { el, keyboardScrollable, replaceStatic, rich, svg, uid } from "./dom.js";
import { matmul } from "./maths.js";
import { enhance } from "./run-files.js";

/* ---- State ------------------------------------------------------------------ */

const ARROW = { min: -3.5, max: 3.5, step: 0.1 }; // an arrow's coordinates
const T_RANGE = { min: 0.25, max: 4, step: 0.05 };
const HEAT_LEVELS = 10; // heat-0 … heat-10, as sitebuild/heatmaps.py
const PLANE = 3.8; // the plane shows [-3.8, 3.8]² around the sliders' range

function setup(examples) {
  const bank = examples.bank;
  const sentence = bank.sentences[lang][1];
  const model = bank.model;
  const ambiguous = sentence.roles.indexOf("ambiguous");
  const look = (W) => [W[0], W[1]]; // the rows of W that read the look plane
  return { model, sentence, ambiguous,
           toQuery: look(model.W_Q), toKey: look(model.W_K),
           fromQuery: inverse2(look(model.W_Q)), fromKey: inverse2(look(model.W_K)) };
}

function initialState(bank) {
  const plane = bank.sentence.roles.map((role) => bank.model.embeddings[role].slice(0, 2));
  return { plane, temperature: 1, causal: true, selected: bank.ambiguous };
}

const compute = (bank, state) =>
  calculator(bank.model, bank.sentence.roles, state.plane, state.temperature, state.causal);

/** The arrow that moving word J moves: the ambiguous word's query, another's key. */
const isQuery = (bank, j) => j === bank.ambiguous;

function arrowOf(bank, state, j) {
  return matmul([state.plane[j]], isQuery(bank, j) ? bank.toQuery : bank.toKey)[0];
}

/** A coordinate on the sliders' grid: steps of 0.1 within the range. */
function snap(value) {
  const snapped = Math.round(value / ARROW.step) * ARROW.step;
  return Math.min(ARROW.max, Math.max(ARROW.min, Math.round(snapped * 10) / 10));
}

/** STATE with word J's look coordinates set so that its arrow points at TIP. */
function moveArrow(bank, state, j, tip) {
  const plane = state.plane.map((p) => p.slice());
  const inverse = isQuery(bank, j) ? bank.fromQuery : bank.fromKey;
  plane[j] = matmul([tip.map(snap)], inverse)[0];
  return { ...state, plane, selected: j };
}

const heatLevel = (w) => Math.min(HEAT_LEVELS, Math.max(0, Math.round(w * HEAT_LEVELS)));

/* ---- The DOM --------------------------------------------------------------- */

function slider(range, label) {
  const input = el("input", { type: "range", min: String(range.min), max: String(range.max),
                              step: String(range.step), "aria-label": label });
  const output = el("output", { class: "widget__number calculator__value",
                                "aria-hidden": "true" });
  return { input, output, field: el("span", { class: "widget__range" }, input, output) };
}

function arrowName(words, bank, j) {
  const w = bank.sentence.tokens[j];
  return fill(isQuery(bank, j) ? words.queryOf : words.keyOf, { w });
}

function controls(words, bank) {
  const selectId = uid("calculator-arrow");
  const select = el("select", { id: selectId, "aria-label": words.arrow },
    ...bank.sentence.tokens.map((_, j) =>
      el("option", { value: String(j) }, arrowName(words, bank, j))));
  const coordinates = ["u", "w"].map((c) => slider(ARROW, fill(words.coordinate, { c })));
  const temperature = slider(T_RANGE, words.temperature);
  const causal = el("input", { type: "checkbox", id: uid("calculator-causal") });
  const reset = el("button", { type: "button", class: "md-button" }, words.reset);
  const fieldset = el("fieldset", { class: "widget__controls calculator__controls" },
    el("legend", {}, words.arrow),
    el("div", { class: "calculator__input" }, select),
    ...coordinates.map((s, c) => el("div", { class: "calculator__input" },
       el("span", { class: "calculator__name", "aria-hidden": "true" }, ["u", "w"][c]),
       s.field)),
    el("div", { class: "calculator__input" },
       el("span", { class: "calculator__name", "aria-hidden": "true" }, rich("T")),
       temperature.field),
    el("div", { class: "calculator__input" }, causal,
       el("label", { for: causal.id }, words.causal)),
    el("div", { class: "widget__buttons" }, reset));
  return { fieldset, select, coordinates, temperature, causal, reset };
}

/** The look plane: every word's key and the ambiguous word's query as arrows whose
    heads the pointer can drag (the select and sliders do the same from the
    keyboard, so the plane is hidden from assistive technology). y points up. */
function lookPlane(words, bank) {
  const root = svg("svg", { viewBox: `${-PLANE} ${-PLANE} ${2 * PLANE} ${2 * PLANE}`,
                            class: "calculator__plane", "aria-hidden": "true" });
  for (let t = -3; t <= 3; t += 1) {
    const kind = t === 0 ? "calculator__axis" : "calculator__grid";
    root.append(svg("line", { x1: t, y1: -PLANE, x2: t, y2: PLANE, class: kind }),
                svg("line", { x1: -PLANE, y1: t, x2: PLANE, y2: t, class: kind }));
  }
  const arrows = bank.sentence.tokens.map((token, j) => {
    const role = bank.sentence.roles[j];
    const kind = isQuery(bank, j) ? "query" : role.startsWith("clue") ? "clue" : role;
    const group = svg("g", { class: `calculator__point calculator__point--${kind}` });
    const line = svg("line", { x1: 0, y1: 0, class: "calculator__arrow" });
    const handle = svg("circle", { r: 0.22 });
    const label = svg("text", { class: "calculator__label" });
    group.append(line, handle, label);
    root.append(group);
    return { group, line, handle, label };
  });
  // The ambiguous word's own key, drawn (and named) but moved with its query.
  const ownKey = svg("line", { x1: 0, y1: 0, class: "calculator__arrow calculator__own-key" });
  const ownLabel = svg("text", { class: "calculator__label calculator__own-label" });
  ownLabel.textContent = bank.sentence.tokens[bank.ambiguous];
  root.prepend(ownKey);
  root.append(ownLabel);
  const figure = el("figure", { class: "calculator__figure" }, root,
                    el("figcaption", {}, rich(words.plane)));
  return { figure, root, arrows, ownKey, ownLabel };
}

/** Where in the plane's coordinates (y up) a pointer EVENT is. */
function planePoint(root, event) {
  const point = new DOMPoint(event.clientX, event.clientY)
    .matrixTransform(root.getScreenCTM().inverse());
  return [point.x, -point.y];
}

function buildDom(words, bank) {
  const titleId = uid("calculator-title");
  const tokens = bank.sentence.tokens;
  const rows = tokens.map((token) => {
    const cells = [el("td", {}), el("td", {}), el("td", {})];
    const bar = el("span", { class: "calculator__bar", "aria-hidden": "true" });
    cells[2].append(el("span", { class: "calculator__weight" }), bar);
    return { row: el("tr", {}, el("th", { scope: "row" }, token), ...cells), cells, bar };
  });
  const word = tokens[bank.ambiguous];
  const table = el("table", { class: "calculator__matrix calculator__row" },
    el("caption", {}, fill(words.row, { w: word })),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, words.word),
      el("th", { scope: "col" }, words.key), el("th", { scope: "col" }, words.score),
      el("th", { scope: "col" }, words.weight))),
    el("tbody", {}, ...rows.map((r) => r.row)));
  const cells = tokens.map(() => tokens.map(() => el("td", {})));
  const pattern = el("table", { class: "heatmap calculator__pattern" },
    el("caption", {}, rich(words.pattern)),
    el("thead", {}, el("tr", {}, el("td", {}),
      ...tokens.map((t) => el("th", { scope: "col" }, t)))),
    el("tbody", {}, ...tokens.map((t, i) =>
      el("tr", { class: i === bank.ambiguous ? "is-followed" : null },
         el("th", { scope: "row" }, t), ...cells[i]))));
  const dom = {
    controls: controls(words, bank),
    plane: lookPlane(words, bank),
    rows, cells,
    output: el("output", { class: "widget__number" }),
    sense: el("output", { class: "widget__number" }),
    status: el("p", { class: "widget__status", role: "status" }),
  };
  dom.widget = el("div", { class: "widget calculator", role: "group",
                           "aria-labelledby": titleId },
    el("p", { class: "widget__title", id: titleId }, words.title),
    el("div", { class: "calculator__top" }, dom.controls.fieldset, dom.plane.figure),
    el("div", { class: "widget__scroll" }, table),
    el("p", {}, rich(fill(words.output, { w: word })), ": ", dom.output, el("br", {}),
       fill(words.sense, { w: word }), ": ", dom.sense),
    el("div", { class: "widget__scroll" }, pattern),
    dom.status);
  return dom;
}

const show = (x) => (x === -Infinity ? "\u2212∞" : sig(x, 3));

/** An arrow from the origin to TIP, labelled beside its head, on the side away
    from the plane's nearer edge so that the label stays inside. */
function placeArrow(arrow, tip, text) {
  const [x, y] = tip;
  arrow.line.setAttribute("x2", x);
  arrow.line.setAttribute("y2", -y);
  arrow.handle.setAttribute("cx", x);
  arrow.handle.setAttribute("cy", -y);
  // Above a head, centred over its handle (ending or starting at it near the plane's
  // right or left edge, to stay inside); below a head that points down, running
  // away from the vertical axis, which a long label would otherwise cross.
  const below = y < -0.3;
  const anchor = below ? (x < 0 ? "end" : "start")
    : x > 2.2 ? "end" : x < -2.2 ? "start" : "middle";
  const shift = below ? { end: 0.2, start: -0.2 }[anchor] : 0;
  arrow.label.setAttribute("x", x + shift);
  arrow.label.setAttribute("y", below || y > 2.8 ? -y + 0.7 : -y - 0.4);
  arrow.label.setAttribute("text-anchor", anchor);
  arrow.label.textContent = text;
}

function render(dom, words, bank, state) {
  const stages = compute(bank, state);
  const tips = bank.sentence.tokens.map((_, j) => arrowOf(bank, state, j));
  const { select, coordinates, temperature, causal } = dom.controls;
  select.value = String(state.selected);
  coordinates.forEach((s, c) => {
    const value = tips[state.selected][c];
    s.input.value = String(value);
    s.output.textContent = fix(value, 1);
    s.input.setAttribute("aria-valuetext", fix(value, 1));
  });
  temperature.input.value = String(state.temperature);
  temperature.output.textContent = fix(state.temperature, 2);
  temperature.input.setAttribute("aria-valuetext", fix(state.temperature, 2));
  causal.checked = state.causal;

  // Words whose arrows share a tip share one label: "I, put, in, the".
  const labels = tips.map((tip, j) => bank.sentence.tokens.filter((_, k) =>
    !isQuery(bank, k) && !isQuery(bank, j) && tips[k][0] === tip[0] && tips[k][1] === tip[1]));
  dom.plane.arrows.forEach((arrow, j) => {
    const first = labels[j].length && bank.sentence.tokens.indexOf(labels[j][0]) === j;
    const text = isQuery(bank, j) ? "q"
      : first ? labels[j].join(", ") : "";
    placeArrow(arrow, tips[j], text);
    arrow.group.classList.toggle("is-selected", j === state.selected);
  });
  const own = stages.K[bank.ambiguous];
  dom.plane.ownKey.setAttribute("x2", own[0]);
  dom.plane.ownKey.setAttribute("y2", -own[1]);
  // Beside its tip, on the left: the clue's label sits above the clue's head, right.
  dom.plane.ownLabel.setAttribute("x", own[0] - 0.15);
  dom.plane.ownLabel.setAttribute("y", -own[1]);

  const row = stages.weights[bank.ambiguous];
  dom.rows.forEach((r, j) => {
    r.cells[0].textContent = vector(stages.K[j], "sig3");
    r.cells[1].textContent = show(stages.masked[bank.ambiguous][j]);
    r.cells[2].firstChild.textContent = sig(row[j], 3);
    r.bar.style.width = `${(row[j] * 100).toFixed(1)}%`;
  });
  dom.cells.forEach((cells, i) => cells.forEach((cell, j) => {
    const blocked = stages.masked[i][j] === -Infinity;
    cell.textContent = fix(stages.weights[i][j], 2);
    cell.className = `heat heat-${heatLevel(stages.weights[i][j])}`
      + (blocked ? " is-masked" : "");
  }));
  dom.output.textContent = vector(stages.h, "sig3");
  dom.sense.textContent = vector(stages.sense, "sig3");
  dom.status.replaceChildren(rich(fill(words.status, {
    w: bank.sentence.tokens[bank.ambiguous], weights: vector(row, "sig3"),
    h: vector(stages.h, "sig3"),
  })));
  // For tests and the curious: the exact numbers behind what is shown (−∞ as null).
  dom.widget.dataset.state = JSON.stringify({ ...state, ...stages });
}

/* ---- Events ---------------------------------------------------------------- */

function wire(dom, words, bank) {
  const initial = initialState(bank);
  let state = structuredClone(initial);
  const update = (next) => {
    state = next;
    render(dom, words, bank, state);
  };
  const { select, coordinates, temperature, causal, reset } = dom.controls;
  select.addEventListener("change", () => update({ ...state, selected: Number(select.value) }));
  coordinates.forEach((s, c) => {
    s.input.addEventListener("input", () => {
      const tip = arrowOf(bank, state, state.selected).slice();
      tip[c] = Number(s.input.value);
      update(moveArrow(bank, state, state.selected, tip));
    });
  });
  temperature.input.addEventListener("input", () =>
    update({ ...state, temperature: Number(temperature.input.value) }));
  causal.addEventListener("change", () => update({ ...state, causal: causal.checked }));
  reset.addEventListener("click", () => update(structuredClone(initial)));
  dom.plane.arrows.forEach((arrow, j) => {
    const drag = (event) => update(moveArrow(bank, state, j, planePoint(dom.plane.root, event)));
    arrow.handle.addEventListener("pointerdown", (event) => {
      arrow.handle.setPointerCapture(event.pointerId);
      arrow.group.classList.add("is-dragging");
      drag(event);
    });
    arrow.handle.addEventListener("pointermove", (event) => {
      if (arrow.handle.hasPointerCapture(event.pointerId)) drag(event);
    });
    const release = () => arrow.group.classList.remove("is-dragging");
    arrow.handle.addEventListener("pointerup", release);
    arrow.handle.addEventListener("pointercancel", release);
  });
  update(state);
}

function mount(container, examples) {
  const words = pageWords(container);
  const bank = setup(examples);
  const dom = buildDom(words, bank);
  replaceStatic(container, dom.widget);
  wire(dom, words, bank);
  dom.widget.querySelectorAll(".widget__scroll").forEach(keyboardScrollable);
}

/** Enhance the page's attention calculators. */
export const start = () => enhance(".attention-calculator", "examples.json", mount);
