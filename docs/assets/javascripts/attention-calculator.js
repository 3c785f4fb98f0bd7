/* The attention calculator of the attention article: the bank model's head 1 on a
   sentence the reader builds from the model's words, with the arrows of the look
   plane to move and the sense plane, where "bank" goes, beside them.

   The page holds <div class="attention-calculator"> with the table of the bank
   model's row as its static form; its words are the record's (data-words,
   pageWords). This script takes the bank model and the page's sentences from
   run/examples.json (bank) and recomputes the head (bank-model.js, examples/
   bank.py's head and calculator) for the reader's sentence, arrows, temperature
   and mask. The sentence is made of word tiles: clues of both senses, plain words
   and "bank", in any order, so that a clue may come after "bank", where the mask
   hides it. The reader drags the query of "bank" or any word's key ("bank"'s own
   too, which moves its query with it: both come from its one embedding), or picks an
   arrow and moves it with two sliders; each move sets that word's look
   coordinates. Three tasks check themselves against what is computed.
   tests/browser/test_attention_calculator.py holds every stage to the Python to
   1e-9, on composed sentences too.

   Three parts: state (pure functions), the DOM, the events. */
import { calculator, inverse2 } from "./bank-model.js";
import { fill, fix, items, lang, pageWords, quoted, vector } from "./common.js";
import { el, keyboardScrollable, replaceStatic, rich, svg, svgText, uid } from "./dom.js";
import { matmul } from "./maths.js";
import { enhance } from "./run-files.js";
import { placeLabels, sensePlane } from "./sense-plane.js";

/* ---- State ------------------------------------------------------------------ */

const ARROW = { min: -3.5, max: 3.5, step: 0.1 }; // an arrow's coordinates
const T_RANGE = { min: 0.25, max: 4, step: 0.05 };
const HEAT_LEVELS = 10; // heat-0 … heat-10, as sitebuild/heatmaps.py
const PLANE = 3.8; // the look plane shows [-3.8, 3.8]² around the sliders' range
// A handle's reach: 44 CSS pixels across (WCAG's target size) on the plane of a 390 px
// phone, about 300 px for 7.6 units; the handles' tips are at least 1.4 units apart.
const REACH = 0.56;
const MAX_WORDS = 8; // a longer sentence no longer fits the plane's labels
// The tasks: how close counts as even or undecided (weights print to 3 digits, the
// sliders move in tenths, so both can be met exactly), and the temperature to reach.
const EVEN = 0.005;
const UNDECIDED = 0.01;
const HOT = 3;
// Weights this close are equal: a tie of equal scores, reported as a tie, not a winner.
const TIE = 1e-9;

function setup(examples) {
  const bank = examples.bank;
  const pair = bank.sentences[lang];
  const words = (s) => s.tokens.map((token, j) => [token, s.roles[j]]);
  // Every word of the page's two sentences once: the clues, the plain words, "bank".
  const order = (role) => (role.startsWith("clue") ? 0 : role === "plain" ? 1 : 2);
  const seen = new Map();
  pair.flatMap(words).forEach(([token, role]) => { if (!seen.has(token)) seen.set(token, role); });
  const vocabulary = [...seen].sort((a, b) => order(a[1]) - order(b[1]));
  const look = (W) => [W[0], W[1]]; // the rows of W that read the look plane
  const model = bank.model;
  return { model, vocabulary, start: words(pair[1]), senses: bank.senses[lang],
           word: pair[1].tokens[pair[1].ambiguous],
           toQuery: look(model.W_Q), toKey: look(model.W_K),
           fromQuery: inverse2(look(model.W_Q)), fromKey: inverse2(look(model.W_K)) };
}

const ambiguousOf = (state) => state.words.findIndex(([, role]) => role === "ambiguous");

/** STATE with the sentence WORDS, each word's look coordinates its embedding's. */
function withWords(bank, state, words) {
  const plane = words.map(([, role]) => bank.model.embeddings[role].slice(0, 2));
  const ambiguous = words.findIndex(([, role]) => role === "ambiguous");
  return { ...state, words, plane, selected: Math.max(ambiguous, 0) };
}

function initialState(bank) {
  return withWords(bank, { temperature: 1, causal: true, prediction: null }, bank.start);
}

/** Every stage of the head, or null while the sentence has no "bank". */
function compute(bank, state) {
  if (ambiguousOf(state) < 0) return null;
  return calculator(bank.model, state.words.map(([, role]) => role), state.plane,
                    state.temperature, state.causal);
}

/** The arrows: one per word J, the ambiguous word's query and every other word's key,
    and after them (J = the number of words) the ambiguous word's own key. */
const isQuery = (state, j) => j === ambiguousOf(state);
const isOwnKey = (state, j) => j === state.words.length;
const wordOf = (state, j) => (isOwnKey(state, j) ? ambiguousOf(state) : j);

function arrowOf(bank, state, j) {
  return matmul([state.plane[wordOf(state, j)]],
                isQuery(state, j) ? bank.toQuery : bank.toKey)[0];
}

/** A coordinate on the sliders' grid: steps of 0.1 within the range. */
function snap(value) {
  const snapped = Math.round(value / ARROW.step) * ARROW.step;
  return Math.min(ARROW.max, Math.max(ARROW.min, Math.round(snapped * 10) / 10));
}

/** STATE with the look coordinates of arrow J's word set so that the arrow points at
    TIP. */
function moveArrow(bank, state, j, tip) {
  const plane = state.plane.map((p) => p.slice());
  const inverse = isQuery(state, j) ? bank.fromQuery : bank.fromKey;
  plane[wordOf(state, j)] = matmul([tip.map(snap)], inverse)[0];
  return { ...state, plane, selected: j };
}

/** What a prediction about the temperature is made on: all but the temperature. */
const setting = (state) => JSON.stringify([state.words, state.plane, state.causal]);

/** The word of "bank"'s row with the largest weight (the first of equals). */
const largest = (row) => row.reduce((best, w, j) => (w > row[best] ? j : best), 0);

/** Every word of the row whose weight equals the largest: one word, or a tie. */
const largestAll = (row) => row.flatMap((w, j) => (row[largest(row)] - w <= TIE ? [j] : []));

/** The three tasks, each done or not, from what is computed. */
function tasks(state, stages) {
  const a = ambiguousOf(state);
  if (!stages) return { even: false, undecided: false, hot: false, outcome: null };
  const row = stages.weights[a];
  const even = state.words.some(([, role], j) => role.startsWith("clue")
    && stages.masked[a][j] !== -Infinity && Math.abs(row[j] - row[a]) <= EVEN);
  const undecided = Math.abs(stages.sense[0] - stages.sense[1]) <= UNDECIDED;
  const p = state.prediction;
  // A prediction counts for the arrows, sentence and mask it was made on, below HOT.
  const outcome = p && p.setting === setting(state) && state.temperature >= HOT
    ? { j: p.j, before: p.weight, after: row[p.j],
        right: (row[p.j] > p.weight) === (p.choice === "grow") }
    : null;
  return { even, undecided, hot: outcome !== null, outcome };
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

/** The sentence as tiles (each takes its word out) and the words to add. */
function builder(words, bank) {
  const tiles = el("div", { class: "calculator__tiles", role: "list" });
  const palette = bank.vocabulary.map(([token, role]) =>
    el("button", { type: "button", class: `calculator__word calculator__word--${kind(role)}`,
                   "data-token": token, "data-role": role,
                   "aria-label": fill(words.addWord, { w: token }) }, "+ ", token));
  const clear = el("button", { type: "button", class: "md-button" }, words.clear);
  const note = el("p", { class: "calculator__note" });
  const fieldset = el("fieldset", { class: "widget__controls calculator__builder" },
    el("legend", {}, words.sentence),
    tiles,
    el("p", { class: "calculator__hint" }, words.tileHint),
    el("div", { class: "calculator__palette", role: "group", "aria-label": words.add },
       el("span", { class: "calculator__name", "aria-hidden": "true" }, words.add), ...palette),
    el("div", { class: "widget__buttons" }, clear),
    note);
  return { fieldset, tiles, palette, clear, note };
}

const kind = (role) => (role.startsWith("clue") ? role.replace("_", "-") : role);

function controls(words) {
  const select = el("select", { id: uid("calculator-arrow"), "aria-label": words.arrow });
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

/** The look plane's grid; its arrows are drawn per sentence (lookArrows). The
    pointer drags an arrow's head; the select and sliders do the same from the
    keyboard, so the plane is hidden from assistive technology. y points up. */
function lookPlane(words, bank) {
  const root = svg("svg", { viewBox: `${-PLANE} ${-PLANE} ${2 * PLANE} ${2 * PLANE}`,
                            class: "calculator__plane", "aria-hidden": "true" });
  for (let t = -3; t <= 3; t += 1) {
    const kind_ = t === 0 ? "calculator__axis" : "calculator__grid";
    root.append(svg("line", { x1: t, y1: -PLANE, x2: t, y2: PLANE, class: kind_ }),
                svg("line", { x1: -PLANE, y1: t, x2: PLANE, y2: t, class: kind_ }));
  }
  // The coordinates along the lower and the left edge, away from the arrows at the
  // origin; the axes' names at their positive ends.
  for (let t = -3; t <= 3; t += 1) {
    if (t === 0) continue;
    root.append(
      svgText({ x: t, y: PLANE - 0.12, "text-anchor": "middle", class: "calculator__tick" },
           fix(t, 0)),
      svgText({ x: -PLANE + 0.1, y: -t + 0.1, class: "calculator__tick" }, fix(t, 0)));
  }
  root.append(
    svgText({ x: PLANE - 0.12, y: -0.14, "text-anchor": "end", class: "calculator__axis-name" },
            "u"),
    svgText({ x: 0.14, y: -PLANE + 0.38, class: "calculator__axis-name" }, "w"));
  const layer = svg("g", {});
  root.append(layer);
  const figure = el("figure", { class: "calculator__figure" }, root,
                    el("figcaption", {}, rich(fill(words.plane, { w: bank.word }))));
  return { figure, root, layer, arrows: [] };
}

/** One arrow of the look plane, of the kind KIND: a line from the origin, a handle at
    its head with a wider transparent reach around it for a finger, and a label. */
function arrowNode(kind) {
  const group = svg("g", { class: `calculator__point calculator__point--${kind}` });
  const line = svg("line", { x1: 0, y1: 0, class: "calculator__arrow" });
  const reach = svg("circle", { r: REACH, class: "calculator__reach" });
  const handle = svg("circle", { r: 0.24, class: "calculator__handle" });
  const label = svg("text", { class: "calculator__label" });
  group.append(line, reach, handle, label);
  return { group, line, handle, label };
}

/** The arrows of the sentence (arrowOf's order): "bank"'s own key and its query drawn
    first, beneath the other keys, so that a key along the query stays visible. */
function lookArrows(plane, state) {
  const a = ambiguousOf(state);
  const kinds = state.words.map(([, role], j) => (isQuery(state, j) ? "query" : kind(role)));
  plane.arrows = [...kinds, ...(a >= 0 ? ["own-key"] : [])].map(arrowNode);
  plane.arrows.forEach((arrow, j) => { arrow.group.dataset.arrow = String(j); });
  const n = state.words.length;
  const below = a >= 0 ? [n, a] : [];
  plane.layer.replaceChildren(...below.map((j) => plane.arrows[j].group),
    ...plane.arrows.filter((_, j) => !below.includes(j)).map((arrow) => arrow.group));
}

/** The sense plane: the values (dashed), h (solid), and "bank" moved from its start. */
function sensePanel(words, bank) {
  const root = sensePlane("calculator__sense", bank.senses);
  const values = svg("g", { class: "calculator__values" });
  const h = svg("line", { x1: 0, y1: 0, class: "calculator__h" });
  const hLabel = svg("text", { class: "calculator__h-label" });
  hLabel.textContent = "h";
  const move = svg("line", { class: "calculator__move" });
  const start = svg("circle", { r: 0.06, class: "calculator__start" });
  const end = svg("circle", { r: 0.06, class: "calculator__end" });
  const endLabel = svg("text", { class: "calculator__end-label" });
  // The values' names above every line, on their halo, so that the move never hides one.
  const names = svg("g", {});
  root.append(values, h, hLabel, move, start, end, names, endLabel);
  const figure = el("figure", { class: "calculator__figure" }, root,
                    el("figcaption", {}, fill(words.sensePlane, { w: bank.word })));
  return { figure, root, values, names, h, hLabel, move, start, end, endLabel };
}

function taskList(words, bank) {
  const item = (text, extra = []) => {
    const mark = el("span", { class: "calculator__mark" });
    const li = el("li", {}, rich(fill(text, { w: bank.word, t: fix(HOT, 0) })), " ", mark, ...extra);
    return { li, mark };
  };
  const grow = el("button", { type: "button", class: "md-button", "aria-pressed": "false" },
                  words.grow);
  const shrink = el("button", { type: "button", class: "md-button", "aria-pressed": "false" },
                    words.shrink);
  const feedback = el("span", { class: "calculator__feedback" });
  // The first task has one way out, which a reader may not see: a hint on request.
  const hintText = el("span", { class: "calculator__hint-text", id: uid("calculator-hint"),
                                hidden: true }, fill(words.hintEven, { w: bank.word }));
  const hint = el("button", { type: "button", class: "md-button calculator__hint-button",
                              "aria-expanded": "false", "aria-controls": hintText.id },
                  words.hint);
  const even = item(words.taskEven, [el("span", { class: "widget__buttons" }, hint), hintText]);
  const undecided = item(words.taskUndecided);
  const hot = item(words.taskHot, [el("span", { class: "widget__buttons" }, grow, shrink),
                                   feedback]);
  const box = el("div", { class: "calculator__tasks" },
    el("p", { class: "calculator__tasks-title" }, words.tasks),
    el("ol", {}, even.li, undecided.li, hot.li));
  return { box, even, undecided, hot, grow, shrink, feedback, hint, hintText };
}

/** The row of "bank": per word its score, weight (a bar beneath the number), value and
    contribution a_j v_j; below, their sum h and where h carries "bank". */
function rowTable(words) {
  const head = el("thead", {}, el("tr", {},
    ...[words.word, words.score, words.weight, words.value, words.contribution]
      .map((name) => el("th", { scope: "col" }, rich(name)))));
  const total = (text) => {
    const name = el("th", { scope: "row", colspan: "4" });
    const cell = el("td", { class: "widget__number" });
    return { name, cell, row: el("tr", {}, name, cell), text };
  };
  const footer = [total(words.output), total(words.after)];
  const body = el("tbody", {});
  const caption = el("caption", {});
  const table = el("table", { class: "calculator__matrix calculator__row" }, caption, head,
                   body, el("tfoot", {}, ...footer.map((f) => f.row)));
  return { table, body, caption, footer };
}

function buildDom(words, bank) {
  const titleId = uid("calculator-title");
  const patternHead = el("thead", {});
  const patternBody = el("tbody", {});
  const dom = {
    builder: builder(words, bank),
    controls: controls(words),
    plane: lookPlane(words, bank),
    sense: sensePanel(words, bank),
    tasks: taskList(words, bank),
    row: rowTable(words),
    patternHead, patternBody,
    // What the planes show, for a screen reader, which the planes' pictures skip.
    status: el("p", { class: "widget__status visually-hidden", role: "status" }),
  };
  dom.results = el("div", { class: "calculator__results" },
    el("div", { class: "calculator__top" }, dom.plane.figure, dom.sense.figure),
    dom.controls.fieldset,
    dom.tasks.box,
    el("div", { class: "widget__scroll" }, dom.row.table),
    el("div", { class: "widget__scroll" },
       el("table", { class: "heatmap calculator__pattern" },
          el("caption", {}, rich(words.pattern)), patternHead, patternBody)));
  dom.widget = el("div", { class: "widget calculator", role: "group",
                           "aria-labelledby": titleId },
    el("p", { class: "widget__title", id: titleId }, words.title),
    dom.builder.fieldset, dom.results, dom.status);
  return dom;
}

/* One format per kind of number: what the head computes (scores, weights, a_j v_j, h,
   where "bank" lands) to two decimals, as the article prints them; the values, the
   model's own vectors, as the article prints them too ([1, 1]); the arrows' coordinates,
   set in tenths, to one decimal. */
const COMPUTED = "fix2";
const VALUE = "sig2";
const show = (x) => (x === -Infinity ? "\u2212∞" : fix(x, 2));

const LINE = 0.5; // the look plane's labels: one line's height, font 0.45

/** An arrow from the origin to TIP, labelled beside its head with LINES of text and
    kept inside the plane: above a head, centred; below a head that points down,
    running away from the vertical axis, which a long label would otherwise cross. */
function placeArrow(arrow, tip, lines) {
  const [x, y] = tip;
  arrow.line.setAttribute("x2", x);
  arrow.line.setAttribute("y2", -y);
  arrow.group.querySelectorAll("circle").forEach((circle) => {
    circle.setAttribute("cx", x);
    circle.setAttribute("cy", -y);
  });
  const spans = lines.map((line) => {
    const span = svg("tspan", {});
    span.textContent = line;
    return span;
  });
  arrow.label.replaceChildren(...spans);
  const width = Math.max(0, ...spans.map((span) => span.getComputedTextLength()));
  const below = y < -0.3;
  const left = below ? (x < 0 ? x - 0.3 - width : x + 0.3) : x - width / 2;
  const inside = Math.min(PLANE - 0.1 - width, Math.max(-PLANE + 0.1, left));
  const top = below || y > 2.8 ? -y + 0.75 : -y - 0.42 - (lines.length - 1) * LINE;
  spans.forEach((span, i) => {
    span.setAttribute("x", inside);
    span.setAttribute("y", top + i * LINE);
  });
}

/** Quoted WORDS as a label's lines, two words a line. */
function labelLines(words) {
  const lines = [];
  for (let i = 0; i < words.length; i += 2) {
    const last = i + 2 >= words.length;
    lines.push(words.slice(i, i + 2).map(quoted).join(", ") + (last ? "" : ","));
  }
  return lines;
}

/** What the sentence needs, if anything: "bank", and room for it (the word buttons
    stop at MAX_WORDS); or, with "bank", no more words once it is full. */
function builderNote(words, bank, state) {
  const full = state.words.length >= MAX_WORDS;
  if (ambiguousOf(state) < 0) {
    return fill(full ? words.fullNoBank : words.needBank, { w: bank.word, n: MAX_WORDS });
  }
  return full ? fill(words.full, { n: MAX_WORDS }) : "";
}

/** The sentence's tiles, the arrows' list and the tables' rows: redrawn whenever
    the sentence changes. */
function renderSentence(dom, words, bank, state) {
  const a = ambiguousOf(state);
  dom.builder.tiles.replaceChildren(...state.words.map(([token, role], j) =>
    el("span", { role: "listitem" },
       el("button", { type: "button", "data-index": String(j),
                      class: `calculator__tile calculator__word--${kind(role)}`,
                      "aria-label": fill(words.removeWord, { w: token, n: j + 1 }) },
          token, el("span", { "aria-hidden": "true" }, " ×")))));
  const present = a >= 0;
  dom.builder.palette.forEach((button) => {
    button.disabled = state.words.length >= MAX_WORDS
      || (button.dataset.role === "ambiguous" && present);
  });
  dom.builder.note.textContent = builderNote(words, bank, state);
  dom.results.hidden = !present;
  lookArrows(dom.plane, state);
  dom.controls.select.replaceChildren(...dom.plane.arrows.map((_, j) =>
    el("option", { value: String(j) }, fill(isQuery(state, j) ? words.queryOf : words.keyOf,
                                            { w: state.words[wordOf(state, j)][0] }))));
  dom.sense.values.replaceChildren();
  dom.sense.names.replaceChildren();
  const named = new Set(); // a word twice in the sentence has one value, named once
  dom.valueArrows = state.words.map(([token, role]) => {
    if (role === "plain") return null; // a plain word's value is the zero vector
    const group = svg("g", { class: `calculator__v calculator__word--${kind(role)}` });
    const line = svg("line", { x1: 0, y1: 0 });
    const dot = svg("circle", { r: 0.045 });
    group.append(line, dot);
    dom.sense.values.append(group);
    if (named.has(token)) return { line, dot, label: null };
    named.add(token);
    const label = svg("text", { class: `calculator__word--${kind(role)}` });
    label.textContent = fill(words.valueOf, { w: token });
    dom.sense.names.append(label);
    return { line, dot, label };
  });
  if (!present) return;
  const word = state.words[a][0];
  dom.row.caption.textContent = fill(words.row, { w: word });
  dom.row.footer.forEach((f) => { f.name.replaceChildren(rich(fill(f.text, { w: word }))); });
  dom.rows = state.words.map(([token]) => {
    const cells = [0, 1, 2, 3].map(() => el("td", {}));
    const bar = el("span", { class: "calculator__bar", "aria-hidden": "true" });
    cells[1].append(el("span", { class: "calculator__weight" }), bar);
    return { row: el("tr", {}, el("th", { scope: "row" }, token), ...cells), cells, bar };
  });
  dom.row.body.replaceChildren(...dom.rows.map((r) => r.row));
  const tokens = state.words.map(([token]) => token);
  dom.patternHead.replaceChildren(el("tr", {}, el("td", {}),
    ...tokens.map((t) => el("th", { scope: "col" }, t))));
  dom.cells = tokens.map(() => tokens.map(() => el("td", {})));
  dom.patternBody.replaceChildren(...tokens.map((t, i) =>
    el("tr", { class: i === a ? "is-followed" : null },
       el("th", { scope: "row" }, t), ...dom.cells[i])));
}

function renderPlanes(dom, words, bank, state, stages) {
  const a = ambiguousOf(state);
  const tips = dom.plane.arrows.map((_, j) => arrowOf(bank, state, j));
  const hidden = (j) => !isOwnKey(state, j) && stages.masked[a][j] === -Infinity;
  // Keys that share a tip share one label ("I", "put", "in", "the"), masked keys apart.
  const same = (j, k) => !isQuery(state, k) && hidden(j) === hidden(k)
    && tips[k][0] === tips[j][0] && tips[k][1] === tips[j][1];
  dom.plane.arrows.forEach((arrow, j) => {
    const group = tips.map((_, k) => k).filter((k) => same(j, k));
    const first = !isQuery(state, j) && group[0] === j;
    const lines = isQuery(state, j) ? ["q"]
      : first ? labelLines(group.map((k) => state.words[wordOf(state, k)][0])) : [];
    placeArrow(arrow, tips[j], lines);
    arrow.group.classList.toggle("is-selected", j === state.selected);
    arrow.group.classList.toggle("is-masked", !isQuery(state, j) && hidden(j));
  });

  const point = (node, [x, y], names = ["cx", "cy"]) => {
    node.setAttribute(names[0], x);
    node.setAttribute(names[1], -y);
  };
  const row = stages.weights[a];
  const labels = [];
  dom.valueArrows.forEach((arrow, j) => {
    if (!arrow) return;
    const v = stages.V[j];
    point(arrow.line, v, ["x2", "y2"]);
    point(arrow.dot, v.map((x) => x * row[j]));
    if (arrow.label) labels.push([arrow.label, v]);
  });
  point(dom.sense.h, stages.h, ["x2", "y2"]);
  const start = bank.model.embeddings[state.words[a][1]].slice(2); // its sense coordinates
  point(dom.sense.start, start);
  point(dom.sense.move, start, ["x1", "y1"]);
  point(dom.sense.move, stages.sense, ["x2", "y2"]);
  point(dom.sense.end, stages.sense);
  dom.sense.endLabel.textContent = fill(words.landed, { w: state.words[a][0] });
  // Where "bank" lands first, then h, then the values: each clear of those before it
  // and of the move's arrow and h's.
  placeLabels([[dom.sense.endLabel, stages.sense], [dom.sense.hLabel, stages.h], ...labels],
              [[start, stages.sense], [[0, 0], stages.h]]);
}

function renderTasks(dom, words, state, done) {
  const mark = (task, ok) => {
    task.mark.textContent = ok ? `✓ ${words.done}` : words.notYet;
    task.mark.classList.toggle("is-done", ok);
  };
  mark(dom.tasks.even, done.even);
  mark(dom.tasks.undecided, done.undecided);
  mark(dom.tasks.hot, done.hot);
  const p = state.prediction;
  dom.tasks.grow.setAttribute("aria-pressed", String(p?.choice === "grow"));
  dom.tasks.shrink.setAttribute("aria-pressed", String(p?.choice === "shrink"));
  const o = done.outcome;
  dom.tasks.feedback.textContent = o ? fill(words.outcome, {
    v: state.words[o.j][0], before: fix(o.before, 2), after: fix(o.after, 2),
    verdict: o.right ? words.right : words.wrong })
    : state.temperature >= HOT ? fill(words.predictFirst, { t: fix(HOT, 0) }) : "";
}

function render(dom, words, bank, state) {
  const stages = compute(bank, state);
  const done = tasks(state, stages);
  renderTasks(dom, words, state, done);
  if (!stages) {
    dom.status.textContent = builderNote(words, bank, state);
    dom.widget.dataset.state = JSON.stringify({ ...state, tasks: done });
    return;
  }
  const a = ambiguousOf(state);
  const tip = arrowOf(bank, state, state.selected);
  const { select, coordinates, temperature, causal } = dom.controls;
  select.value = String(state.selected);
  coordinates.forEach((s, c) => {
    const value = tip[c];
    s.input.value = String(value);
    s.output.textContent = fix(value, 1);
    s.input.setAttribute("aria-valuetext", fix(value, 1));
  });
  temperature.input.value = String(state.temperature);
  temperature.output.textContent = fix(state.temperature, 2);
  temperature.input.setAttribute("aria-valuetext", fix(state.temperature, 2));
  causal.checked = state.causal;
  renderPlanes(dom, words, bank, state, stages);

  const row = stages.weights[a];
  dom.rows.forEach((r, j) => {
    r.cells[0].textContent = show(stages.masked[a][j]);
    r.cells[1].firstChild.textContent = fix(row[j], 2);
    r.bar.style.width = `${(row[j] * 100).toFixed(1)}%`;
    r.cells[2].textContent = vector(stages.V[j], VALUE);
    r.cells[3].textContent = vector(stages.weighted[a][j], COMPUTED);
    r.row.classList.toggle("is-masked", stages.masked[a][j] === -Infinity);
    r.cells[0].title = stages.masked[a][j] === -Infinity ? words.hidden : "";
  });
  dom.cells.forEach((cells, i) => cells.forEach((cell, j) => {
    const blocked = stages.masked[i][j] === -Infinity;
    cell.textContent = fix(stages.weights[i][j], 2);
    cell.className = `heat heat-${heatLevel(stages.weights[i][j])}`
      + (blocked ? " is-masked" : "");
  }));
  const [output, after] = dom.row.footer;
  output.cell.textContent = vector(stages.h, COMPUTED);
  after.cell.textContent = vector(stages.sense, COMPUTED);
  const tops = largestAll(row); // a tie of equal weights has no single winner
  dom.status.textContent = fill(tops.length > 1 ? words.statusTie : words.status, {
    w: state.words[a][0], weight: fix(row[tops[0]], 2), after: vector(stages.sense, COMPUTED),
    v: tops.length > 1 ? items(tops.map((j) => quoted(state.words[j][0])))
      : state.words[tops[0]][0] });
  // For tests and the curious: the exact numbers behind what is shown (−∞ as null).
  dom.widget.dataset.state = JSON.stringify({ ...state, ...stages, tasks: done });
}

/* ---- Events ---------------------------------------------------------------- */

function wire(dom, words, bank) {
  const initial = initialState(bank);
  let state = structuredClone(initial);
  const update = (next, sentenceChanged = false) => {
    state = next;
    if (sentenceChanged) {
      renderSentence(dom, words, bank, state);
      wireArrows();
    }
    render(dom, words, bank, state);
  };
  const setWords = (list) => update(withWords(bank, state, list), true);
  dom.builder.palette.forEach((button) => button.addEventListener("click", () =>
    setWords([...state.words, [button.dataset.token, button.dataset.role]])));
  dom.builder.tiles.addEventListener("click", (event) => {
    const tile = event.target.closest("button[data-index]");
    if (!tile) return;
    const j = Number(tile.dataset.index);
    setWords(state.words.filter((_, k) => k !== j));
    // Keep the keyboard where it was: on the tile that took this one's place.
    const tiles = dom.builder.tiles.querySelectorAll("button");
    (tiles[Math.min(j, tiles.length - 1)] || dom.builder.palette[0]).focus();
  });
  dom.builder.clear.addEventListener("click", () => setWords([]));
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
  reset.addEventListener("click", () => update(structuredClone(initial), true));
  const predict = (choice) => {
    const stages = compute(bank, state);
    if (!stages) return;
    const row = stages.weights[ambiguousOf(state)];
    const j = largest(row);
    const prediction = state.temperature < HOT
      ? { choice, j, weight: row[j], setting: setting(state) } : null;
    update({ ...state, prediction });
  };
  dom.tasks.hint.addEventListener("click", () => {
    const open = dom.tasks.hintText.hidden;
    dom.tasks.hintText.hidden = !open;
    dom.tasks.hint.setAttribute("aria-expanded", String(open));
  });
  dom.tasks.grow.addEventListener("click", () => predict("grow"));
  dom.tasks.shrink.addEventListener("click", () => predict("shrink"));

  function wireArrows() {
    dom.plane.arrows.forEach((arrow, j) => {
      const drag = (event) =>
        update(moveArrow(bank, state, j, planePoint(dom.plane.root, event)));
      // The group takes the pointer on its handle or the reach around it (CSS lets
      // only the two circles catch it), and keeps it while the drag lasts.
      arrow.group.addEventListener("pointerdown", (event) => {
        arrow.group.setPointerCapture(event.pointerId);
        arrow.group.classList.add("is-dragging");
        drag(event);
      });
      arrow.group.addEventListener("pointermove", (event) => {
        if (arrow.group.hasPointerCapture(event.pointerId)) drag(event);
      });
      const release = () => arrow.group.classList.remove("is-dragging");
      arrow.group.addEventListener("pointerup", release);
      arrow.group.addEventListener("pointercancel", release);
    });
  }
  update(state, true);
}

/** Where in the plane's coordinates (y up) a pointer EVENT is. */
function planePoint(root, event) {
  const point = new DOMPoint(event.clientX, event.clientY)
    .matrixTransform(root.getScreenCTM().inverse());
  return [point.x, -point.y];
}

function mount(container, examples) {
  const words = pageWords(container);
  const bank = setup(examples);
  const dom = buildDom(words, bank);
  replaceStatic(container, dom.widget);
  wire(dom, words, bank);
  dom.widget.querySelectorAll(".widget__scroll")
    .forEach((box) => keyboardScrollable(box));
}

/** Enhance the page's attention calculators. */
export const start = () => enhance(".attention-calculator", "examples.json", mount);
