/* The value-swap widget of the attention article.

   The page holds <div class="value-swap"> with a static table of four source
   records (attention weight, value vector, weighted contribution) and the head
   output, all printed by the build. This script starts from the same numbers
   (run/examples.json, value_swap) and lets the reader swap the first two output
   columns of W_V, move an attention weight (the others follow, so the weights
   stay a distribution) or type a value. Without JavaScript the static table is
   what the reader gets. */
(function () {
  "use strict";
  const { el, rich, separator, sig, vector, parse, uid, enhance, words,
          keyboardScrollable } = window.AttentionSite;

  const LABELS = words({
    en: {
      title: "Try it: change a weight or a value, or swap two columns of W_V",
      weightOf: (j) => `Attention weight of source record ${j}`,
      valueOf: (j, i) => `Value vector of source record ${j}, coordinate ${i}`,
      output: "Head output ŷ = Σ a_j v_j",
      weightSum: "Sum of the attention weights",
      swap: "Swap the first two output columns of W_V",
      reset: "Reset",
      swappedNote: "columns 1 and 2 of W_V swapped",
      status: (weights, output, swapped) =>
        (swapped ? "Columns 1 and 2 of W_V are swapped. " : "") +
        `Attention weights ${weights}; head output ŷ = ${output}.`,
    },
    uk: {
      title: "Спробуйте: змініть вагу уваги чи значення або переставте два стовпці W_V",
      weightOf: (j) => `Вага уваги запису-джерела ${j}`,
      valueOf: (j, i) => `Вектор значення запису-джерела ${j}, координата ${i}`,
      output: "Вихід голови ŷ = Σ a_j v_j",
      weightSum: "Сума ваг уваги",
      swap: "Переставити перші два вихідні стовпці W_V",
      reset: "Скинути",
      swappedNote: "стовпці 1 і 2 матриці W_V переставлено",
      status: (weights, output, swapped) =>
        (swapped ? "Стовпці 1 і 2 матриці W_V переставлено. " : "") +
        `Ваги уваги ${weights}; вихід голови ŷ = ${output}.`,
    },
    sv: {
      title: "Prova: ändra en attentionandel eller ett värde, eller byt plats på två kolumner i W_V",
      weightOf: (j) => `Attentionandel för källpost ${j}`,
      valueOf: (j, i) => `Värdevektor för källpost ${j}, koordinat ${i}`,
      output: "Blandning ŷ = Σ a_j v_j",
      weightSum: "Summan av attentionandelarna",
      swap: "Byt plats på de två första utkolumnerna i W_V",
      reset: "Återställ",
      swappedNote: "kolumn 1 och 2 i W_V ombytta",
      status: (weights, output, swapped) =>
        (swapped ? "Kolumn 1 och 2 i W_V är ombytta. " : "") +
        `Attentionandelar ${weights}; blandning ŷ = ${output}.`,
    },
  });

  const format = (x) => sig(x, 3); // the static table's style
  const SWAP = [1, 0, 2]; // column i of the swapped W_V is column SWAP[i] of W_V

  /** Which coordinate of the unswapped value vector the reader sees in column I. */
  const source = (state, i) => (state.swapped ? SWAP[i] : i);

  /** The numbers, as examples/value_swap.py computes them. */
  function compute(state) {
    const values = state.values.map((v) => [0, 1, 2].map((i) => v[source(state, i)]));
    const contributions = values.map((v, j) => v.map((x) => state.weights[j] * x));
    const output = [0, 1, 2].map((i) => contributions.reduce((sum, c) => sum + c[i], 0));
    return { values, contributions, output };
  }

  /** Set weight J to W and rescale the others so that all still sum to one. */
  function setWeight(weights, j, w) {
    w = Math.min(Math.max(w, 0), 1);
    const othersSum = weights.reduce((sum, x, k) => (k === j ? sum : sum + x), 0);
    return weights.map((x, k) => {
      if (k === j) return w;
      if (othersSum > 0) return (x * (1 - w)) / othersSum;
      return (1 - w) / (weights.length - 1);
    });
  }

  function build(container, example) {
    const initial = { weights: example.weights.slice(), values: example.values.map((v) => v.slice()),
                      swapped: false };
    let state = structuredClone(initial);

    const statics = Array.from(container.children);
    const headers = Array.from(container.querySelectorAll("thead th")).map((th) => th.textContent);
    const titleId = uid("value-swap-title");
    const rows = example.weights.map((_, j) => {
      const slider = el("input", { type: "range", min: "0", max: "1", step: "0.01",
                                   "aria-label": LABELS.weightOf(j + 1) });
      const weightText = el("span", { class: "widget__number", "aria-hidden": "true" });
      const inputs = [0, 1, 2].map((i) => el("input", {
        type: "text", inputmode: "decimal", size: "4", class: "widget__input",
        "aria-label": LABELS.valueOf(j + 1, i + 1),
      }));
      const contribution = el("td", { class: "widget__number" });
      const valueCell = el("td", { class: "value-swap__vector" }, "[");
      inputs.forEach((input, i) => valueCell.append(input, i < 2 ? separator : "]"));
      const row = el("tr", {},
        el("th", { scope: "row" }, String(j + 1)),
        el("td", { class: "value-swap__weight" }, slider, weightText),
        valueCell, contribution);
      return { row, slider, weightText, inputs, contribution };
    });
    const output = el("output", { class: "widget__number value-swap__output" });
    const weightSum = el("output", { class: "widget__number" });
    const swap = el("button", { type: "button", class: "md-button", "aria-pressed": "false" },
                    rich(LABELS.swap));
    const reset = el("button", { type: "button", class: "md-button" }, LABELS.reset);
    const status = el("p", { class: "widget__status", role: "status" });
    const valueHeader = el("th", {}, headers[2] || "");
    const swappedNote = el("span", { class: "value-swap__note", hidden: true },
                           " (", rich(LABELS.swappedNote), ")");
    valueHeader.append(swappedNote);

    const table = el("table", {},
      el("thead", {}, el("tr", {},
        el("th", {}, headers[0] || ""), el("th", {}, headers[1] || ""), valueHeader,
        el("th", {}, headers[3] || ""))),
      el("tbody", {}, ...rows.map((r) => r.row)),
      el("tfoot", {},
        el("tr", {}, el("th", { scope: "row", colspan: "3" }, LABELS.weightSum),
           el("td", {}, weightSum)),
        el("tr", {}, el("th", { scope: "row", colspan: "3" }, rich(LABELS.output)),
           el("td", {}, output))));
    const widget = el("div", { class: "widget value-swap__widget", role: "group",
                               "aria-labelledby": titleId },
      el("p", { class: "widget__title", id: titleId }, rich(LABELS.title)),
      el("div", { class: "widget__scroll" }, table),
      el("div", { class: "widget__buttons" }, swap, reset),
      status);

    function render({ keepInput } = {}) {
      const shown = compute(state);
      rows.forEach((r, j) => {
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
      weightSum.textContent = format(state.weights.reduce((a, b) => a + b, 0));
      output.textContent = vector(shown.output, format);
      swap.setAttribute("aria-pressed", String(state.swapped));
      swappedNote.hidden = !state.swapped;
      status.replaceChildren(rich(LABELS.status(vector(state.weights, format),
                                                vector(shown.output, format), state.swapped)));
      // For tests and the curious: the exact numbers behind what is shown.
      widget.dataset.state = JSON.stringify({ ...state, ...shown });
    }

    rows.forEach((r, j) => {
      r.slider.addEventListener("input", () => {
        state.weights = setWeight(state.weights, j, Number(r.slider.value));
        render();
      });
      r.inputs.forEach((input, i) => {
        input.addEventListener("input", () => {
          const x = parse(input.value);
          if (Number.isNaN(x)) {
            input.setAttribute("aria-invalid", "true");
            return;
          }
          state.values[j][source(state, i)] = x;
          render({ keepInput: input });
        });
        input.addEventListener("change", () => render());
        input.addEventListener("keydown", (event) => {
          if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
          event.preventDefault();
          const step = event.key === "ArrowUp" ? 0.1 : -0.1;
          const current = state.values[j][source(state, i)];
          // Rounded so that 0.1 + 0.2 shows as 0.3 and not 0.30000000000000004.
          state.values[j][source(state, i)] = Math.round((current + step) * 1e9) / 1e9;
          render();
        });
      });
    });
    swap.addEventListener("click", () => {
      state.swapped = !state.swapped;
      render();
    });
    reset.addEventListener("click", () => {
      state = structuredClone(initial);
      render();
    });

    statics.forEach((node) => { node.hidden = true; });
    container.append(widget);
    container.classList.add("is-enhanced");
    render();
    widget.querySelectorAll(".widget__scroll").forEach(keyboardScrollable);
  }

  enhance(".value-swap", "examples.json", (container, examples) =>
    build(container, examples.value_swap));
})();
