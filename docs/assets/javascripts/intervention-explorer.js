/* The intervention explorer of the feature-recovery article.

   The page holds <div class="intervention-explorer"> with a note for readers
   without JavaScript; its words are the record's (data-words, pageWords). This script
   runs this build's trained student (the first seed's W_Q and W_V, the mixing
   matrix R and the fixed keys, all from run/results.json) on examples that it
   draws here, in the browser: they are not the run's held-out examples. The
   reader edits an example's latent features as experiment/interventions.py does
   (erase, that is set to 0, the feature's mean, a query feature of the request or
   a payload feature of every record; or add an amount to every feature that the
   map concerned should ignore) and sees the prediction beside two targets: the
   original one, and the teacher's target for the edited latents.

   The examples, the student's forward pass and the teacher are the training
   playground's (playground-model.js: experiment/data.py and model.py); the edits
   are interventions.py's, line by line. All in float64;
   tests/browser/test_intervention_explorer.py checks it against the Python model
   to 1e-9.

   Three parts: state and arithmetic (pure functions), the DOM, the events. */
import { fill, fix, pageWords, sci, sig } from "./common.js";
import { el, keyboardScrollable, replaceStatic, uid } from "./dom.js";
import { mse, mulberry32, normals } from "./maths.js";
import { drawLatents, exampleOf, FEATURES, predict, ROLES } from "./playground-model.js";
import { enhance } from "./run-files.js";

/* ---- State and arithmetic ------------------------------------------------ */

const { query: QUERY, payload: PAYLOAD, noise: NOISE } = ROLES;
const COORDINATES = [0, 1, 2];
const NO_EDITS = Object.freeze({ eraseQuery: null, erasePayload: null, shift: 0 });

/** The student (model.py, through playground-model.js) on the latents Z (1 + J, 9):
    its attention weights (J) and prediction (3), and the teacher's target (3). */
function studentAndTeacher(z, run) {
  const example = exampleOf(z, run.setting);
  const { weights, predictions } = predict(run.params, example);
  return { weights: weights[0], prediction: predictions[0], target: Array.from(example.target) };
}

/** The latents as EDITS leave them, each edit as interventions.py makes it. */
function intervene(z, edits) {
  const edited = z.map((row) => row.slice());
  if (edits.eraseQuery !== null) edited[0][QUERY[edits.eraseQuery]] = 0;
  if (edits.erasePayload !== null) {
    for (const row of edited.slice(1)) row[PAYLOAD[edits.erasePayload]] = 0;
  }
  if (edits.shift !== 0) {
    for (const i of [...PAYLOAD, ...NOISE]) edited[0][i] += edits.shift;
    for (const row of edited.slice(1)) for (const i of [...QUERY, ...NOISE]) row[i] += edits.shift;
  }
  return edited;
}

const initialState = () => ({ example: 1, edits: { ...NO_EDITS } });

/** Everything the widget shows for STATE: the example, the edited example, the
    student's weights and prediction with and without the edits, and both targets. */
function compute(state, run) {
  const latents = drawLatents(normals(mulberry32(state.example)), run.setting);
  const edited = intervene(latents, state.edits);
  const before = studentAndTeacher(latents, run);
  const after = studentAndTeacher(edited, run);
  const { target } = before;
  const counterfactual = after.target;
  return {
    latents, edited, weights: after.weights, prediction: after.prediction,
    baseline: before.prediction, target, counterfactual,
    mse: mse(after.prediction, target),
    mseTeacher: mse(after.prediction, counterfactual),
    moved: mse(after.prediction, before.prediction),
  };
}

/** An error in the status line: tiny ones in scientific notation, so that 1e-31 is not "0". */
const small = (x) => (Math.abs(x) < 1e-3 && x !== 0 ? sci(x, 2) : sig(x, 3));
const signed = (x) => (x > 0 ? "+" : "") + sig(x, 3);

/* ---- The DOM --------------------------------------------------------------- */

function select(words, label, names) {
  const id = uid("explorer-select");
  const control = el("select", { id },
    el("option", { value: "" }, words.none),
    ...names.map((name, i) => el("option", { value: String(i) }, name)));
  const field = el("div", { class: "widget__field" }, el("label", { for: id }, label), control);
  return { control, field };
}

function shiftField(words, limit) {
  const id = uid("explorer-shift");
  const hintId = uid("explorer-shift-hint");
  const control = el("input", { type: "range", id, min: String(-limit), max: String(limit),
                                step: "0.5", value: "0", "aria-describedby": hintId });
  const shown = el("output", { for: id, class: "widget__number" });
  const field = el("div", { class: "widget__field" },
    el("label", { for: id }, words.shift),
    el("span", { class: "widget__range" }, control, shown),
    el("small", { id: hintId, class: "widget__hint" }, words.shiftHint));
  return { control, shown, field };
}

function latentTable(words, body) {
  const group = (text) => el("th", { colspan: "3", scope: "colgroup" }, text);
  return el("table", { "data-table": "latents" }, // no class: Material styles it as a table
    el("caption", {}, words.latents),
    el("thead", {},
      el("tr", {}, el("td"), group(words.query), group(words.payload), group(words.noise),
         el("td")),
      el("tr", {}, el("th", { scope: "col" }, words.input),
         ...FEATURES.map((name) => el("th", { scope: "col" }, name)),
         el("th", { scope: "col" }, words.weight))),
    body);
}

function outputTable(words, body) {
  const header = (text) => el("th", { scope: "col" }, text);
  return el("table", { "data-table": "outputs" },
    el("caption", {}, words.outputs),
    el("thead", {}, el("tr", {}, header(words.coordinate), header(words.prediction),
                        header(words.counterfactual), header(words.target),
                        header(words.before))),
    body);
}

function buildDom(words, run) {
  const titleId = uid("explorer-title");
  const dom = {
    example: el("span", { class: "explorer__example" }),
    eraseQuery: select(words, words.eraseQuery, FEATURES.filter((_, i) => QUERY.includes(i))),
    erasePayload: select(words, words.erasePayload,
                         FEATURES.filter((_, i) => PAYLOAD.includes(i))),
    shift: shiftField(words, 2 * run.shift), // the article's shift, and as far again
    draw: el("button", { type: "button", class: "md-button md-button--primary" }, words.draw),
    reset: el("button", { type: "button", class: "md-button" }, words.reset),
    latentBody: el("tbody"),
    outputBody: el("tbody"),
    status: el("p", { class: "widget__status", role: "status" }),
  };
  dom.widget = el("div", { class: "widget explorer", role: "group", "aria-labelledby": titleId },
    el("p", { class: "widget__title", id: titleId }, words.title, " · ", dom.example),
    el("p", { class: "widget__intro" }, fill(words.intro, { seed: run.seed })),
    el("fieldset", { class: "widget__controls" },
      el("legend", {}, words.controls),
      dom.eraseQuery.field, dom.erasePayload.field, dom.shift.field,
      el("div", { class: "widget__buttons" }, dom.draw, dom.reset)),
    el("div", { class: "widget__scroll" }, latentTable(words, dom.latentBody)),
    el("div", { class: "widget__scroll" }, outputTable(words, dom.outputBody)),
    dom.status);
  return dom;
}

function latentRows(words, shown) {
  return shown.edited.map((row, r) => el("tr", {},
    el("th", { scope: "row" }, r === 0 ? words.request : fill(words.record, { j: r })),
    ...row.map((x, i) => {
      const changed = x !== shown.latents[r][i];
      return el("td", { class: changed ? "is-edited" : null,
                        title: changed ? words.edited : null }, fix(x, 2));
    }),
    el("td", { class: "explorer__weight" }, r === 0 ? "" : fix(shown.weights[r - 1], 3))));
}

function outputRows(shown) {
  return COORDINATES.map((i) => el("tr", {},
    el("th", { scope: "row" }, String(i + 1)),
    el("td", { class: "explorer__prediction" }, fix(shown.prediction[i], 3)),
    el("td", { class: "explorer__counterfactual" }, fix(shown.counterfactual[i], 3)),
    el("td", { class: "explorer__target" }, fix(shown.target[i], 3)),
    el("td", {}, fix(shown.baseline[i], 3))));
}

/** Show STATE: every control, both tables and the status line. */
function render(dom, words, run, state) {
  const shown = compute(state, run);
  const { eraseQuery, erasePayload, shift } = state.edits;
  dom.example.textContent = fill(words.example, { n: state.example });
  dom.eraseQuery.control.value = eraseQuery === null ? "" : String(eraseQuery);
  dom.erasePayload.control.value = erasePayload === null ? "" : String(erasePayload);
  dom.shift.control.value = String(shift);
  dom.shift.control.setAttribute("aria-valuetext", signed(shift));
  dom.shift.shown.textContent = signed(shift);
  dom.latentBody.replaceChildren(...latentRows(words, shown));
  dom.outputBody.replaceChildren(...outputRows(shown));
  dom.status.textContent = fill(words.status, {
    original: small(shown.mse), teacher: small(shown.mseTeacher), moved: small(shown.moved),
  });
  // For tests and the curious: the exact numbers behind what is shown.
  dom.widget.dataset.state = JSON.stringify({ ...state, seed: run.seed, ...shown });
}

/* ---- Events ---------------------------------------------------------------- */

const chosen = (control) => (control.value === "" ? null : Number(control.value));

function wire(dom, words, run) {
  let state = initialState();
  const update = (next) => {
    state = next;
    render(dom, words, run, state);
  };
  const edit = (change) => update({ ...state, edits: { ...state.edits, ...change } });
  dom.eraseQuery.control.addEventListener("change", () =>
    edit({ eraseQuery: chosen(dom.eraseQuery.control) }));
  dom.erasePayload.control.addEventListener("change", () =>
    edit({ erasePayload: chosen(dom.erasePayload.control) }));
  dom.shift.control.addEventListener("input", () =>
    edit({ shift: Number(dom.shift.control.value) }));
  dom.draw.addEventListener("click", () => update({ ...state, example: state.example + 1 }));
  dom.reset.addEventListener("click", () => update({ ...state, edits: { ...NO_EDITS } }));
  update(state);
}

function mount(container, results) {
  const words = pageWords(container);
  const seed = results.seeds[0];
  const flat = (nested) => Float64Array.from(nested.flat());
  const keys = flat(results.fixed_keys);
  const run = {
    seed: seed.seed, shift: results.config.shift,
    params: { W_Q: flat(seed.W_Q), W_V: flat(seed.W_V), keys },
    setting: { R: flat(results.mixing_matrix), keys, queryScale: results.config.query_scale },
  };
  const dom = buildDom(words, run);
  replaceStatic(container, dom.widget);
  wire(dom, words, run);
  dom.widget.querySelectorAll(".widget__scroll")
    .forEach((box) => keyboardScrollable(box));
}

/** Enhance the page's intervention explorers. */
export const start = () => enhance(".intervention-explorer", "results.json", mount);
