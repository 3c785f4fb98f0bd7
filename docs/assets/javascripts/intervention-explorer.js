/* The intervention explorer of the feature-recovery article.

   The page holds <div class="intervention-explorer"> with a note for readers
   without JavaScript; its words are the record's (data-words, pageWords). This script
   runs one of this build's trained students (the first seed of the main student, four
   fixed keys; of three keys; or of learned keys: W_Q, W_V and the learned keys from
   run/results.json, with the mixing matrix R and the fixed keys) on examples that it
   draws here, in the browser: they are not the run's held-out examples. The reader
   edits an example's latent features as experiment/interventions.py does (erase,
   that is set to 0, the feature's mean, a query feature of the request or a payload
   feature of every record; add an amount to every feature the task ignores, or to one
   ignored feature of the request), or shifts the student's query map along the
   three-keys variant's invisible direction u (interventions.shift_query_map: u times
   the amount added to every row of R W_Q). The student's query response R W_Q stands
   beside bars for its attention weights and its prediction, against the teacher's
   target for the edited example and the prediction before the edits. Three presets on
   the three-keys student each ask the reader to predict before they apply it; an
   erasing preset first moves on to an example whose target its erasure changes.

   The examples, the student's forward pass, the teacher and R W_Q are the training
   playground's (playground-model.js: experiment/data.py and model.py); the edits
   are interventions.py's, line by line. All in float64;
   tests/browser/test_intervention_explorer.py checks it against the Python model
   to 1e-9.

   Three parts: state and arithmetic (pure functions), the DOM, the events. */
import { fill, fix, pageWords, quoted, sci, sig } from "./common.js";
import { el, keyboardScrollable, replaceStatic, rich, uid } from "./dom.js";
import { barChart, latentTable } from "./explorer-views.js";
import { mse, mulberry32, normals } from "./maths.js";
import { C, D, drawLatents, exampleOf, FEATURES, predict, response, ROLES, VARIANTS }
  from "./playground-model.js";
import { heatmap } from "./playground-views.js";
import { enhance } from "./run-files.js";

/* ---- State and arithmetic ------------------------------------------------ */

const { query: QUERY, payload: PAYLOAD, noise: NOISE } = ROLES;
const IGNORED = "ignored"; // the shift of every feature the task ignores
const STUDENTS = ["four", "three", "learned"]; // playground-model.js's VARIANTS
const NO_EDITS = Object.freeze({ eraseQuery: null, erasePayload: null, shiftFeature: IGNORED,
                                 shift: 0, alongU: 0 });
// The presets, each on the three-keys student: the edits it applies, and whether it
// looks for an example whose target they change (an erased feature that was near 0,
// its mean, would change nothing worth a question; a shift changes no target).
const PRESETS = {
  eraseQ1: { edits: () => ({ eraseQuery: 0 }), changesTarget: true },
  eraseP2: { edits: () => ({ erasePayload: 1 }), changesTarget: true },
  shiftP1: { edits: (run) => ({ shiftFeature: PAYLOAD[0], shift: run.shift }),
             changesTarget: false },
};
const VISIBLE = 0.1; // a change of a target coordinate that its bar shows plainly
const SEARCHED = 100; // examples a preset looks through before it keeps the reader's

/** The student's forward pass (model.py, through playground-model.js) on the latents
    Z (1 + J, 9) with PARAMS: its attention weights (J) and prediction (3), and the
    teacher's target (3) with SETTING's keys. */
function studentAndTeacher(z, params, setting) {
  const example = exampleOf(z, setting);
  const { weights, predictions } = predict(params, example);
  return { weights: weights[0], prediction: predictions[0], target: Array.from(example.target) };
}

/** The latents as EDITS leave them, each edit as interventions.py makes it. */
function intervene(z, edits) {
  const edited = z.map((row) => row.slice());
  if (edits.eraseQuery !== null) edited[0][QUERY[edits.eraseQuery]] = 0;
  if (edits.erasePayload !== null) {
    for (const row of edited.slice(1)) row[PAYLOAD[edits.erasePayload]] = 0;
  }
  if (edits.shift !== 0 && edits.shiftFeature === IGNORED) { // shift_irrelevant
    for (const i of [...PAYLOAD, ...NOISE]) edited[0][i] += edits.shift;
    for (const row of edited.slice(1)) for (const i of [...QUERY, ...NOISE]) row[i] += edits.shift;
  } else if (edits.shift !== 0) { // shift_request
    edited[0][edits.shiftFeature] += edits.shift;
  }
  return edited;
}

/** W_Q (9 x 3, flat) with AMOUNT times the unit query DIRECTION added to every row of
    its response R W_Q: W_Q + AMOUNT (Rᵀ 1) DIRECTIONᵀ, R orthogonal
    (interventions.shift_query_map). */
function shiftedMap(W_Q, R, direction, amount) {
  const shifted = Float64Array.from(W_Q);
  for (let k = 0; k < D; k += 1) {
    let column = 0; // (Rᵀ 1)_k, the sum of R's column k
    for (let i = 0; i < D; i += 1) column += R[i * D + k];
    for (let c = 0; c < C; c += 1) shifted[k * C + c] += amount * column * direction[c];
  }
  return shifted;
}

const initialState = () => ({ student: "three", example: 1, edits: { ...NO_EDITS },
                              preset: null, presetMoved: false, applied: false });

/** Everything the widget shows for STATE: the example and the edited example, the
    student's query response, its weights and prediction with and without the edits,
    and both targets. */
function compute(state, run) {
  const student = run.students[state.student];
  const latents = drawLatents(normals(mulberry32(state.example)), student.setting);
  const edited = intervene(latents, state.edits);
  const W_Q = state.edits.alongU === 0 ? student.params.W_Q
    : shiftedMap(student.params.W_Q, run.R, run.u, state.edits.alongU);
  const before = studentAndTeacher(latents, student.params, student.setting);
  const after = studentAndTeacher(edited, { ...student.params, W_Q }, student.setting);
  const queryResponse = response(run.R, W_Q);
  return {
    latents, edited, weights: after.weights, baselineWeights: before.weights,
    prediction: after.prediction, baseline: before.prediction,
    target: before.target, counterfactual: after.target,
    queryResponse: Array.from({ length: D }, (_, i) =>
      Array.from(queryResponse.subarray(i * C, (i + 1) * C))),
    mse: mse(after.prediction, before.target),
    mseTeacher: mse(after.prediction, after.target),
    moved: mse(after.prediction, before.prediction),
  };
}

/** The example a preset NAME shows: the first from STATE's on whose teacher's target
    its edits change by VISIBLE or more in some coordinate, or STATE's own. */
function presetExample(name, state, run) {
  const preset = PRESETS[name];
  if (!preset.changesTarget) return state.example;
  const student = run.students.three;
  const edits = { ...NO_EDITS, ...preset.edits(run) };
  for (let example = state.example; example < state.example + SEARCHED; example += 1) {
    const latents = drawLatents(normals(mulberry32(example)), student.setting);
    const before = exampleOf(latents, student.setting).target;
    const after = exampleOf(intervene(latents, edits), student.setting).target;
    if (before.some((y, i) => Math.abs(y - after[i]) >= VISIBLE)) return example;
  }
  return state.example;
}

/** An error in the status line: tiny ones in scientific notation, so that 1e-31 is not "0". */
const small = (x) => (Math.abs(x) < 1e-3 && x !== 0 ? sci(x, 2) : sig(x, 3));
const signed = (x) => (x > 0 ? "+" : "") + sig(x, 3);

/* ---- The DOM --------------------------------------------------------------- */

function select(label, options) {
  const id = uid("explorer-select");
  const control = el("select", { id },
    ...options.map(([value, text]) => el("option", { value }, text)));
  const field = el("div", { class: "widget__field" }, el("label", { for: id }, label), control);
  return { control, field };
}

function rangeField(label, hint, limit, step) {
  const id = uid("explorer-range");
  const hintId = uid("explorer-hint");
  const control = el("input", { type: "range", id, min: String(-limit), max: String(limit),
                                step: String(step), value: "0", "aria-describedby": hintId });
  const shown = el("output", { for: id, class: "widget__number" });
  const field = el("div", { class: "widget__field" },
    el("label", { for: id }, label),
    el("span", { class: "widget__range" }, control, shown),
    el("small", { id: hintId, class: "widget__hint" }, hint));
  return { control, shown, field };
}

const featureOptions = (words, indices) => [["", words.none],
  ...indices.map((i, k) => [String(k), FEATURES[i]])];

function controlFields(words, run) {
  return {
    student: select(words.student, STUDENTS.map((name) => [name, words[name]])),
    eraseQuery: select(words.eraseQuery, featureOptions(words, QUERY)),
    erasePayload: select(words.erasePayload, featureOptions(words, PAYLOAD)),
    shiftFeature: select(words.shiftFeature, [[IGNORED, words.shiftIgnored],
      ...[...PAYLOAD, ...NOISE].map((i) => [String(i), fill(words.shiftOne,
                                                                { feature: FEATURES[i] })])]),
    shift: rangeField(words.shift, words.shiftHint, 2 * run.shift, 0.5), // the article's, twice
    alongU: rangeField(words.alongU, words.alongUHint, 2, 0.25),
    draw: el("button", { type: "button", class: "md-button md-button--primary" }, words.draw),
    reset: el("button", { type: "button", class: "md-button" }, words.reset),
  };
}

/** The presets: a button each, and one box that asks the chosen preset's question,
    with the button that applies it and, once applied, its answer; above the question,
    a note when the preset moved on to another example, so that the "before" bars do
    not change unannounced. */
function presets(words, run) {
  const titleId = uid("explorer-presets");
  const questionId = uid("explorer-question");
  const buttons = Object.fromEntries(Object.keys(PRESETS).map((name) => [name,
    el("button", { type: "button", class: "md-button", "aria-pressed": "false" },
       fill(words[name], { shift: sig(run.shift, 3) }))]));
  const moved = el("p", { class: "explorer__moved" });
  const question = el("p", { id: questionId, class: "explorer__ask" });
  const apply = el("button", { type: "button", class: "md-button md-button--primary",
                               "aria-describedby": questionId }, words.apply);
  const answer = el("p", { class: "explorer__answer", role: "status" });
  const box = el("div", { class: "explorer__question" }, moved, question, apply, answer);
  const node = el("div", { class: "explorer__presets", role: "group",
                           "aria-labelledby": titleId },
    el("p", { class: "explorer__presets-title", id: titleId }, words.presets),
    el("div", { class: "widget__buttons" }, ...Object.values(buttons)),
    box);
  return { node, buttons, box, moved, question, apply, answer };
}

function buildDom(words, run) {
  const titleId = uid("explorer-title");
  const dom = {
    example: el("span", { class: "explorer__example" }),
    controls: controlFields(words, run),
    presets: presets(words, run),
    map: heatmap(words.queryResponse, ["c_1", "c_2", "c_3"], FEATURES),
    weights: barChart(words.weights, words.input,
                      [{ kind: "now", label: words.weightNow },
                       { kind: "before", label: words.weightBefore }], { signed: false }),
    outputs: barChart(words.outputs, words.coordinate,
                      [{ kind: "now", label: words.prediction },
                       { kind: "teacher", label: words.counterfactual },
                       { kind: "before", label: words.before }], { signed: true }),
    latents: latentTable(words, FEATURES),
    latentsSummary: el("summary"),
    status: el("p", { class: "widget__status", role: "status" }),
  };
  const c = dom.controls;
  dom.widget = el("div", { class: "widget explorer", role: "group", "aria-labelledby": titleId },
    el("p", { class: "widget__title", id: titleId }, words.title, " · ", dom.example),
    el("p", { class: "widget__intro" }, fill(words.intro, { seed: run.seed })),
    dom.presets.node,
    el("fieldset", { class: "widget__controls" },
      el("legend", {}, words.controls),
      c.student.field, c.eraseQuery.field, c.erasePayload.field, c.shiftFeature.field,
      c.shift.field, c.alongU.field,
      el("div", { class: "widget__buttons" }, c.draw, c.reset)),
    el("div", { class: "explorer__panels" },
      el("div", { class: "widget__scroll explorer__map" }, dom.map.node),
      el("div", { class: "explorer__charts" },
        el("div", { class: "widget__scroll" }, dom.weights.node),
        el("div", { class: "widget__scroll" }, dom.outputs.node))),
    dom.status,
    el("details", { class: "explorer__latents" }, dom.latentsSummary,
       el("div", { class: "widget__scroll" }, dom.latents.node)));
  return dom;
}

/** Show the controls' values for EDITS and STUDENT. */
function renderControls(c, state) {
  const { eraseQuery, erasePayload, shiftFeature, shift, alongU } = state.edits;
  c.student.control.value = state.student;
  c.eraseQuery.control.value = eraseQuery === null ? "" : String(eraseQuery);
  c.erasePayload.control.value = erasePayload === null ? "" : String(erasePayload);
  c.shiftFeature.control.value = String(shiftFeature);
  for (const [field, value] of [[c.shift, shift], [c.alongU, alongU]]) {
    field.control.value = String(value);
    field.control.setAttribute("aria-valuetext", signed(value));
    field.shown.textContent = signed(value);
  }
}

/** Show the chosen preset's question, and once it is applied, its answer. */
function renderPreset(p, words, run, state) {
  for (const [name, button] of Object.entries(p.buttons)) {
    button.setAttribute("aria-pressed", String(name === state.preset));
  }
  p.box.hidden = state.preset === null;
  if (state.preset === null) return;
  const text = (key) => rich(fill(words[key], { shift: sig(run.shift, 3) }));
  p.moved.hidden = !state.presetMoved;
  p.moved.textContent = state.presetMoved
    ? fill(words.presetMoved, { n: state.example, before: quoted(words.weightBefore) }) : "";
  p.question.replaceChildren(text(`${state.preset}Question`));
  p.apply.hidden = state.applied;
  p.answer.replaceChildren(state.applied ? text(`${state.preset}Answer`) : "");
}

/** Show STATE: every control, the heat map, the bars, the latents and the status. */
function render(dom, words, run, state) {
  const shown = compute(state, run);
  dom.example.textContent = fill(words.example, { n: state.example });
  renderControls(dom.controls, state);
  renderPreset(dom.presets, words, run, state);
  dom.map.update(shown.queryResponse.flat());
  // The heat map's rows of the request's edited features.
  dom.map.node.querySelectorAll("tbody th").forEach((head, i) => {
    head.classList.toggle("is-edited", shown.edited[0][i] !== shown.latents[0][i]);
  });
  dom.weights.update(shown.weights.map((_, j) => fill(words.record, { j: j + 1 })),
                     shown.weights.map((w, j) => [w, shown.baselineWeights[j]]));
  const coordinates = [0, 1, 2].map((i) => [shown.prediction[i], shown.counterfactual[i],
                                            shown.baseline[i]]);
  dom.outputs.update(["1", "2", "3"], coordinates,
                     Math.max(1, ...coordinates.flat().map(Math.abs)));
  dom.latents.update(shown.latents, shown.edited);
  dom.latentsSummary.textContent = fill(words.latents, { count: shown.latents.flat().length });
  dom.status.textContent = fill(words.status, {
    original: small(shown.mse), teacher: small(shown.mseTeacher), moved: small(shown.moved),
  });
  // For tests and the curious: the exact numbers behind what is shown.
  dom.widget.dataset.state = JSON.stringify({
    ...state, seed: run.students[state.student].seed, ...shown });
}

/* ---- Events ---------------------------------------------------------------- */

const chosen = (control) => (control.value === "" ? null : Number(control.value));

function wire(dom, words, run) {
  const c = dom.controls;
  const p = dom.presets;
  let state = initialState();
  const update = (next) => {
    state = next;
    render(dom, words, run, state);
  };
  const edit = (change) => update({ ...state, edits: { ...state.edits, ...change } });
  c.student.control.addEventListener("change", () =>
    update({ ...state, student: c.student.control.value }));
  c.eraseQuery.control.addEventListener("change", () =>
    edit({ eraseQuery: chosen(c.eraseQuery.control) }));
  c.erasePayload.control.addEventListener("change", () =>
    edit({ erasePayload: chosen(c.erasePayload.control) }));
  c.shiftFeature.control.addEventListener("change", () => {
    const { value } = c.shiftFeature.control;
    edit({ shiftFeature: value === IGNORED ? IGNORED : Number(value) });
  });
  c.shift.control.addEventListener("input", () => edit({ shift: Number(c.shift.control.value) }));
  c.alongU.control.addEventListener("input", () =>
    edit({ alongU: Number(c.alongU.control.value) }));
  c.draw.addEventListener("click", () =>
    update({ ...state, example: state.example + 1, presetMoved: false }));
  c.reset.addEventListener("click", () =>
    update({ ...state, edits: { ...NO_EDITS }, preset: null, applied: false }));
  for (const [name, button] of Object.entries(p.buttons)) {
    button.addEventListener("click", () => {
      const example = presetExample(name, state, run);
      update({ ...state, student: "three", example, presetMoved: example !== state.example,
               edits: { ...NO_EDITS }, preset: name, applied: false });
      p.apply.focus();
    });
  }
  p.apply.addEventListener("click", () => {
    update({ ...state, edits: { ...NO_EDITS, ...PRESETS[state.preset].edits(run) },
             applied: true });
    p.buttons[state.preset].focus(); // the apply button is gone; the answer is read out
  });
  update(state);
}

/** The students the reader can choose, from the run's RESULTS: each one's first seed,
    its maps and keys, and the teacher's setting (R, its keys, the query scale). */
function students(results) {
  const flat = (nested) => Float64Array.from(nested.flat());
  const R = flat(results.mixing_matrix);
  const fixedKeys = flat(results.fixed_keys);
  const entries = { four: results.seeds[0], three: results.variants.three_keys.seeds[0],
                    learned: results.variants.learned_keys.seeds[0] };
  return Object.fromEntries(STUDENTS.map((name) => {
    const { keys: count, learnKeys } = VARIANTS[name];
    const entry = entries[name];
    const teacherKeys = fixedKeys.slice(0, count * C);
    return [name, {
      seed: entry.seed,
      params: { W_Q: flat(entry.W_Q), W_V: flat(entry.W_V),
                keys: learnKeys ? flat(entry.keys) : teacherKeys },
      setting: { R, keys: teacherKeys, queryScale: results.config.query_scale },
    }];
  }));
}

function mount(container, results) {
  const words = pageWords(container);
  const run = {
    seed: results.seeds[0].seed, shift: results.config.shift,
    R: Float64Array.from(results.mixing_matrix.flat()),
    u: Float64Array.from(results.variants.three_keys.invisible_direction),
    students: students(results),
  };
  const dom = buildDom(words, run);
  replaceStatic(container, dom.widget);
  wire(dom, words, run);
  dom.widget.querySelectorAll(".widget__scroll")
    .forEach((box) => keyboardScrollable(box));
}

/** Enhance the page's intervention explorers. */
export const start = () => enhance(".intervention-explorer", "results.json", mount);
