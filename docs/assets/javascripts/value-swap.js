/* The value-swap widget of the attention article.

   The page holds <div class="value-swap"> with a static table of four positions
   (attention weight, value vector, weighted contribution) and the head output,
   all printed by the build, and the widget's words as JSON (widget-words). This
   script starts from the same numbers (run/examples.json, value_swap) and lets
   the reader swap the first two columns of W_V, move an attention weight (the
   others follow, so the weights stay a distribution) or type a value. Without
   JavaScript the static table is what the reader gets.

   Three parts: state and arithmetic (pure functions), the DOM, the events. */
(function () {
  "use strict";
  const { el, rich, separator, sig, vector, parse, uid, enhance, keyboardScrollable,
          pageWords, fill } = window.AttentionSite;

  /* ---- State and arithmetic ------------------------------------------------ */

  const format = (x) => sig(x, 3); // the static table's style
  const SWAP = [1, 0, 2]; // column i of the swapped W_V is column SWAP[i] of W_V
  const COORDINATES = [0, 1, 2];

  function initialState(example) {
    return { weights: example.weights.slice(), values: example.values.map((v) => v.slice()),
             swapped: false };
  }

  /** Which coordinate of the unswapped value vector the reader sees in column I. */
  const source = (state, i) => (state.swapped ? SWAP[i] : i);

  /** The numbers, as examples/value_swap.py computes them from the weights and values. */
  function compute(state) {
    const values = state.values.map((v) => COORDINATES.map((i) => v[source(state, i)]));
    const contributions = values.map((v, j) => v.map((x) => state.weights[j] * x));
    const output = COORDINATES.map((i) => contributions.reduce((sum, c) => sum + c[i], 0));
    return { values, contributions, output };
  }

  /** Weights with weight J set to W and the others rescaled so that all still sum to one. */
  function setWeight(weights, j, w) {
    const clamped = Math.min(Math.max(w, 0), 1);
    const othersSum = weights.reduce((sum, x, k) => (k === j ? sum : sum + x), 0);
    return weights.map((x, k) => {
      if (k === j) return clamped;
      if (othersSum > 0) return (x * (1 - clamped)) / othersSum;
      return (1 - clamped) / (weights.length - 1);
    });
  }

  /** STATE with the value that column I of position J shows set to X. */
  function setValue(state, j, i, x) {
    const values = state.values.map((v) => v.slice());
    values[j][source(state, i)] = x;
    return { ...state, values };
  }

  /** One arrow-key step of 0.1, rounded so that 0.1 + 0.2 shows as 0.3. */
  const step = (x, direction) => Math.round((x + 0.1 * direction) * 1e9) / 1e9;

  /* ---- The DOM --------------------------------------------------------------- */

  function weightRow(words, j) {
    const slider = el("input", { type: "range", min: "0", max: "1", step: "0.01",
                                 "aria-label": fill(words.weightOf, { j: j + 1 }) });
    const weightText = el("span", { class: "widget__number", "aria-hidden": "true" });
    const inputs = COORDINATES.map((i) => el("input", {
      type: "text", inputmode: "decimal", size: "4", class: "widget__input",
      "aria-label": fill(words.valueOf, { j: j + 1, i: i + 1 }),
    }));
    const contribution = el("td", { class: "widget__number" });
    const valueCell = el("td", { class: "value-swap__vector" }, "[");
    inputs.forEach((input, i) => valueCell.append(input, i < 2 ? separator : "]"));
    const row = el("tr", {},
      el("th", { scope: "row" }, String(j + 1)),
      el("td", { class: "value-swap__weight" }, slider, weightText),
      valueCell, contribution);
    return { row, slider, weightText, inputs, contribution };
  }

  function buildDom(words, positions) {
    const titleId = uid("value-swap-title");
    const rows = Array.from({ length: positions }, (_, j) => weightRow(words, j));
    const dom = {
      rows,
      output: el("output", { class: "widget__number value-swap__output" }),
      weightSum: el("output", { class: "widget__number" }),
      swap: el("button", { type: "button", class: "md-button", "aria-pressed": "false" },
               rich(words.swap)),
      reset: el("button", { type: "button", class: "md-button" }, words.reset),
      status: el("p", { class: "widget__status", role: "status" }),
      swappedNote: el("span", { class: "value-swap__note", hidden: true },
                      " (", rich(words.swappedNote), ")"),
    };
    const table = el("table", {},
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, words.position), el("th", { scope: "col" }, words.weight),
        el("th", { scope: "col" }, words.value, dom.swappedNote),
        el("th", { scope: "col" }, words.contribution))),
      el("tbody", {}, ...rows.map((r) => r.row)),
      el("tfoot", {},
        el("tr", {}, el("th", { scope: "row", colspan: "3" }, words.weightSum),
           el("td", {}, dom.weightSum)),
        el("tr", {}, el("th", { scope: "row", colspan: "3" }, rich(words.output)),
           el("td", {}, dom.output))));
    dom.widget = el("div", { class: "widget value-swap__widget", role: "group",
                             "aria-labelledby": titleId },
      el("p", { class: "widget__title", id: titleId }, rich(words.title)),
      el("div", { class: "widget__scroll" }, table),
      el("div", { class: "widget__buttons" }, dom.swap, dom.reset),
      dom.status);
    return dom;
  }

  /** Show STATE; KEEP_INPUT is a field the reader is typing in, left as typed. */
  function render(dom, words, state, keepInput) {
    const shown = compute(state);
    dom.rows.forEach((r, j) => {
      r.slider.value = String(state.weights[j]);
      r.slider.setAttribute("aria-valuetext", format(state.weights[j]));
      r.weightText.textContent = format(state.weights[j]);
      r.inputs.forEach((input, i) => {
        if (input !== keepInput) input.value = format(shown.values[j][i]);
        input.classList.toggle("is-swapped", state.swapped && i < 2);
        input.removeAttribute("aria-invalid");
      });
      r.contribution.textContent = vector(shown.contributions[j], format);
    });
    dom.weightSum.textContent = format(state.weights.reduce((a, b) => a + b, 0));
    dom.output.textContent = vector(shown.output, format);
    dom.swap.setAttribute("aria-pressed", String(state.swapped));
    dom.swappedNote.hidden = !state.swapped;
    dom.status.replaceChildren(rich(fill(words.status, {
      swapped: state.swapped ? words.swappedStatus : "",
      weights: vector(state.weights, format), output: vector(shown.output, format),
    })));
    // For tests and the curious: the exact numbers behind what is shown.
    dom.widget.dataset.state = JSON.stringify({ ...state, ...shown });
  }

  /* ---- Events ---------------------------------------------------------------- */

  function wire(dom, words, initial) {
    let state = initial;
    const update = (next, keepInput) => {
      state = next;
      render(dom, words, state, keepInput);
    };
    dom.rows.forEach((r, j) => {
      r.slider.addEventListener("input", () =>
        update({ ...state, weights: setWeight(state.weights, j, Number(r.slider.value)) }));
      r.inputs.forEach((input, i) => {
        input.addEventListener("input", () => {
          const x = parse(input.value);
          if (Number.isNaN(x)) input.setAttribute("aria-invalid", "true");
          else update(setValue(state, j, i, x), input);
        });
        input.addEventListener("change", () => update(state));
        input.addEventListener("keydown", (event) => {
          if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
          event.preventDefault();
          const current = state.values[j][source(state, i)];
          update(setValue(state, j, i, step(current, event.key === "ArrowUp" ? 1 : -1)));
        });
      });
    });
    dom.swap.addEventListener("click", () => update({ ...state, swapped: !state.swapped }));
    dom.reset.addEventListener("click", () => update(structuredClone(initial)));
    update(state);
  }

  function mount(container, examples) {
    const words = pageWords(container);
    const example = examples.value_swap;
    const dom = buildDom(words, example.weights.length);
    Array.from(container.children).forEach((node) => { node.hidden = true; });
    container.append(dom.widget);
    container.classList.add("is-enhanced");
    wire(dom, words, initialState(example));
    dom.widget.querySelectorAll(".widget__scroll").forEach(keyboardScrollable);
  }

  enhance(".value-swap", "examples.json", mount);
})();
