/* The training playground of the feature-recovery article: the reader trains the
   article's student in the page and switches its anchors off.

   The page holds <div class="training-playground"> with the run's snapshots figure
   for readers without JavaScript, and a sentence of what to try. This script takes
   the run's mixing matrix R, fixed keys, initial scales, batch size, held-out size,
   Adam's betas and eps, its learning rate and its number of steps from
   run/results.json, and trains with playground-model.js, in slices between
   animation frames so that the page stays responsive. Its words are the site's
   (the language's record, locales/<code>.toml: [words.playground]).

   For tests and the curious, the widget carries data-step (steps taken), data-loss
   (the last step's training MSE), once it stops data-heldout (the held-out MSE), and
   for three keys data-moved (how far the departure along the invisible direction
   has moved since step 0: its largest change over the nine latent rows).

   Three parts: the settings and their checks, the DOM, the training loop. */
import { fill, formatNumber, parse, sci, sig, siteWords } from "./common.js";
import { el, keyboardScrollable, replaceStatic, rich, uid } from "./dom.js";
import * as model from "./playground-model.js";
import * as views from "./playground-views.js";
import { enhance } from "./run-files.js";

/* ---- Settings ---------------------------------------------------------------- */

const OPTIMISERS = ["adam", "sgd"];
const MAX_SEED = 99999;
const SLICE_MS = 10; // training between two chances for the page to answer the reader

/** The value of a typed field, or null if it is refused. */
const CHECKS = {
  seed: (text) => {
    const value = parse(text);
    return Number.isInteger(value) && value >= 0 && value <= MAX_SEED ? value : null;
  },
  lr: (text) => {
    const value = parse(text);
    return Number.isFinite(value) && value > 0 ? value : null;
  },
  steps: (text, run) => {
    const value = parse(text);
    return Number.isInteger(value) && value >= 1 && value <= run.maxSteps ? value : null;
  },
};

const printed = {
  loss: (x) => sci(x, 2),
  rate: (x) => sig(x, 6), // as the reader may type it back: no "× 10" in a field
  count: (n) => formatNumber(n, "int"), // grouped as the page groups digits: 99 999
};

/* ---- The DOM ------------------------------------------------------------------- */

function selectField(label, options) {
  const id = uid("playground-select");
  const control = el("select", { id },
    ...options.map(([value, text]) => el("option", { value }, text)));
  return { control, field: el("div", { class: "widget__field" },
                              el("label", { for: id }, label), control) };
}

function textField(label, hint) {
  const id = uid("playground-input");
  const hintId = uid("playground-hint");
  const control = el("input", { type: "text", id, inputmode: "decimal", autocomplete: "off",
                                spellcheck: "false", size: "8", "aria-describedby": hintId });
  return { control, field: el("div", { class: "widget__field" },
                              el("label", { for: id }, label), control,
                              el("small", { id: hintId, class: "widget__hint" }, hint)) };
}

function buildDom(words, run) {
  const titleId = uid("playground-title");
  const button = (text, primary) =>
    el("button", { type: "button", class: primary ? "md-button md-button--primary"
                                                  : "md-button" }, text);
  const dom = {
    variant: selectField(words.variant, Object.keys(model.VARIANTS).map((v) => [v, words[v]])),
    optimiser: selectField(words.optimiser, OPTIMISERS.map((o) => [o, words[o]])),
    seed: textField(words.seed, fill(words.seedHint, { max: printed.count(MAX_SEED) })),
    lr: textField(words.learningRate, fill(words.learningRateHint, {
      adam: printed.rate(run.learningRate), sgd: printed.rate(run.sgdLearningRate) })),
    steps: textField(words.steps, fill(words.stepsHint, { max: printed.count(run.maxSteps) })),
    run: button(words.run, true),
    step: button(words.step),
    reset: button(words.reset),
    progress: el("p", { class: "playground__progress" }),
    status: el("p", { class: "widget__status", id: uid("playground-status"), role: "status",
                      "aria-live": "polite" }),
    loss: views.lineChart({ x: words.stepAxis, reference: words.uniform }, { log: true }),
    departureChart: views.lineChart({ x: words.stepAxis, reference: words.departureAtStart },
                                    { log: false }),
    query: views.heatmap(words.queryResponse, ["c_1", "c_2", "c_3"], model.FEATURES),
    value: views.heatmap(words.valueResponse, ["c_1", "c_2", "c_3"], model.FEATURES),
    keys: views.heatmap(words.learnedKeys, ["1", "2", "3"], ["k_1", "k_2", "k_3", "k_4"]),
    departure: views.heatmap(words.departure, [words.departureStart, words.departureNow],
                             model.FEATURES),
  };
  dom.lossFigure = el("figure", { class: "playground__figure" }, dom.loss.node,
                      el("figcaption", {}, words.lossCaption));
  dom.departureFigure = el("figure", { class: "playground__figure" }, dom.departureChart.node,
                           el("figcaption", {}, words.departureCaption));
  dom.maps = el("div", { class: "playground__maps widget__scroll" },
                dom.query.node, dom.value.node, dom.keys.node, dom.departure.node);
  dom.widget = el("div", { class: "widget playground", role: "group",
                           "aria-labelledby": titleId },
    el("p", { class: "widget__title", id: titleId }, words.title),
    el("p", { class: "widget__intro" }, rich(words.intro)),
    el("fieldset", { class: "widget__controls" },
      el("legend", {}, words.controls),
      dom.variant.field, dom.optimiser.field, dom.seed.field, dom.lr.field, dom.steps.field,
      el("div", { class: "widget__buttons" }, dom.run, dom.step, dom.reset)),
    dom.status, dom.progress, dom.lossFigure, dom.departureFigure, dom.maps);
  return dom;
}

/* ---- Training ---------------------------------------------------------------- */

function wire(dom, words, run) {
  // What the current training was started with; only `steps` may change on the way.
  let settings = { variant: "four", optimiser: "adam", seed: 0, lr: run.learningRate,
                   steps: run.maxSteps };
  let trainer = null;
  let running = false;
  let start0 = null; // three keys: the departure along the invisible direction at step 0 (9)
  let moved = []; // ... and its largest change since then, after each step

  const fields = { seed: dom.seed, lr: dom.lr, steps: dom.steps };
  const say = (text) => { dom.status.textContent = text; };
  const atEnd = () => trainer.losses.length >= settings.steps;
  // The loss only once a step is taken (before, the words say there is none yet).
  const names = () => ({ variant: words[settings.variant], optimiser: words[settings.optimiser],
                         seed: settings.seed, lr: printed.rate(settings.lr),
                         steps: settings.steps, step: trainer.losses.length,
                         ...(trainer.losses.length
                           && { loss: printed.loss(trainer.losses.at(-1)) }) });

  /** The typed fields' values, or null after saying which one is refused; a refused
      field is marked, and nothing else changes. */
  function typed() {
    const values = {};
    for (const [name, field] of Object.entries(fields)) {
      const value = CHECKS[name](field.control.value, run);
      field.control.setAttribute("aria-invalid", String(value === null));
      if (value === null) {
        say(fill(words[`bad_${name}`],
                 { max: printed.count(name === "seed" ? MAX_SEED : run.maxSteps) }));
        field.control.setAttribute("aria-errormessage", dom.status.id);
        return null;
      }
      field.control.removeAttribute("aria-errormessage");
      values[name] = value;
    }
    return values;
  }

  /** The controls as SETTINGS are; a typed text that means the same value stays. */
  function showSettings() {
    dom.variant.control.value = settings.variant;
    dom.optimiser.control.value = settings.optimiser;
    for (const [name, field] of Object.entries(fields)) {
      if (CHECKS[name](field.control.value, run) !== settings[name]) {
        field.control.value = name === "lr" ? printed.rate(settings.lr) : String(settings[name]);
      }
      field.control.setAttribute("aria-invalid", "false");
    }
  }

  const departure = () => model.invisibleDeparture(model.response(run.R, trainer.params.W_Q),
                                                   run.direction);

  function render() {
    const losses = trainer.losses;
    const step = losses.length;
    dom.query.update(model.response(run.R, trainer.params.W_Q));
    dom.value.update(model.response(run.R, trainer.params.W_V));
    const learned = settings.variant === "learned";
    const three = settings.variant === "three";
    dom.keys.node.hidden = !learned;
    if (learned) dom.keys.update(trainer.params.keys);
    dom.departure.node.hidden = !three;
    dom.departureFigure.hidden = !three;
    if (three) {
      const now = departure();
      dom.departure.update(Array.from(start0).flatMap((s, i) => [s, now[i]]));
      dom.departureChart.update(moved, settings.steps, 0, fill(words.departureDescription, {
        step, moved: sci(moved.at(-1) || 0, 2) }));
    }
    // Before the first step there is no loss yet: a sentence of its own says so.
    const progress = fill(step ? words.progress : words.progressStart, names());
    dom.loss.update(losses, settings.steps, trainer.uniformMse, step
      ? fill(words.lossDescription, { step, loss: printed.loss(losses.at(-1)),
                                      uniform: sci(trainer.uniformMse, 2) })
      : progress);
    dom.progress.textContent = progress;
    dom.run.textContent = running ? words.pause : words.run;
    dom.widget.dataset.step = String(step);
    dom.widget.dataset.loss = step ? String(losses.at(-1)) : "";
    dom.widget.dataset.running = String(running);
    if (three) dom.widget.dataset.moved = String(moved.at(-1) || 0);
    else delete dom.widget.dataset.moved;
  }

  /** Say where training stands, with the held-out MSE. */
  function stopped(key) {
    const heldout = trainer.heldoutMse();
    dom.widget.dataset.heldout = String(heldout);
    say(fill(words[key], { ...names(), heldout: sci(heldout, 2) }));
  }

  function start(next) {
    running = false;
    settings = next;
    trainer = model.training(run, settings);
    start0 = departure();
    moved = [];
    delete dom.widget.dataset.heldout;
    showSettings();
    render();
    say(fill(words.ready, names()));
  }

  /** One step, or the message why there is none: true if it was taken. */
  function advance() {
    if (atEnd()) {
      say(fill(words.done, names()));
      return false;
    }
    if (!Number.isFinite(trainer.step())) {
      trainer.losses.pop(); // not drawn: the log axis has no place for it
      say(fill(words.diverged, names()));
      return false;
    }
    if (settings.variant === "three") {
      const now = departure();
      moved.push(Math.max(...now.map((x, i) => Math.abs(x - start0[i]))));
    }
    return true;
  }

  // Training runs in slices of SLICE_MS, each a task of its own (a MessageChannel's
  // message, which no timer clamp delays), so that input and painting come between
  // them; the view is redrawn once per animation frame. Each run numbers its
  // messages, so that a slice queued before a pause or a reset ends there.
  const slices = new MessageChannel();
  let generation = 0;
  let drawing = false;
  const draw = () => {
    drawing = false;
    render();
  };
  slices.port1.onmessage = (message) => {
    if (!running || message.data !== generation) return;
    const until = performance.now() + SLICE_MS;
    let taken = true;
    while (taken && !atEnd() && performance.now() < until) taken = advance();
    if (taken && !atEnd()) {
      if (!drawing) {
        drawing = true;
        requestAnimationFrame(draw);
      }
      slices.port2.postMessage(generation);
      return;
    }
    running = false;
    render();
    if (taken) stopped("finished");
  };

  /** Apply the typed fields: a new seed or learning rate starts afresh, new steps
      only move the end. False if a field is refused: then nothing changes. */
  function applyTyped() {
    const values = typed();
    if (values === null) return false;
    if (values.seed !== settings.seed || values.lr !== settings.lr) {
      start({ ...settings, ...values });
    } else if (values.steps !== settings.steps) {
      settings = { ...settings, steps: values.steps };
      render();
      say(fill(words.stepsChanged, names()));
    }
    return true;
  }

  for (const field of Object.values(fields)) {
    field.control.addEventListener("change", applyTyped);
  }
  for (const [name, select] of [["variant", dom.variant], ["optimiser", dom.optimiser]]) {
    select.control.addEventListener("change", () => {
      const values = typed();
      if (values === null) {
        select.control.value = settings[name];
        return;
      }
      const next = { ...settings, ...values, [name]: select.control.value };
      if (name === "optimiser") { // each optimiser starts at its own learning rate
        next.lr = next.optimiser === "sgd" ? run.sgdLearningRate : run.learningRate;
        dom.lr.control.value = printed.rate(next.lr);
      }
      start(next);
    });
  }
  dom.run.addEventListener("click", () => {
    if (running) {
      running = false;
      render();
      stopped("paused");
      return;
    }
    if (!applyTyped() || !advance()) return;
    running = true;
    render();
    say(fill(words.running, names()));
    generation += 1;
    slices.port2.postMessage(generation);
  });
  dom.step.addEventListener("click", () => {
    running = false;
    if (!applyTyped() || !advance()) return;
    render();
    stopped(atEnd() ? "finished" : "paused");
  });
  dom.reset.addEventListener("click", () => {
    const values = typed();
    if (values !== null) start({ ...settings, ...values });
  });
  start(settings);
}

function mount(container, results) {
  const words = siteWords().playground;
  const run = {
    R: Float64Array.from(results.mixing_matrix.flat()),
    fixedKeys: Float64Array.from(results.fixed_keys.flat()),
    direction: results.variants.three_keys.invisible_direction,
    initScale: results.config.init_scale, keyInitScale: results.config.key_init_scale,
    queryScale: results.config.query_scale, batchSize: results.config.batch_size,
    heldoutSize: results.config.heldout_size, learningRate: results.config.learning_rate,
    sgdLearningRate: results.config.sgd_learning_rate, // the SGD control's, as the run's
    maxSteps: results.config.steps, betas: results.optimizer.betas,
    eps: results.optimizer.eps,
  };
  const dom = buildDom(words, run);
  const kept = container.querySelector(":scope > .playground-try");
  replaceStatic(container, dom.widget, kept);
  wire(dom, words, run);
  keyboardScrollable(dom.maps);
}

/** Enhance the page's training playgrounds. */
export const start = () => enhance(".training-playground", "results.json", mount);
