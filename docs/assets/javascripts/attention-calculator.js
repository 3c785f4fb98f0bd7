/* The attention calculator of the attention article.

   The page holds <div class="attention-calculator"> with the worked example's
   attention matrix as a static heat map and the widget's words as JSON
   (widget-words). This script takes the worked example's parameters from
   run/examples.json (two_positions) and recomputes the head of
   examples/two_positions.py for the reader's x_1, x_2, temperature and causal
   mask, showing every stage as a 2 x 2 matrix. tests/browser/
   test_attention_calculator.py holds it to that Python to 1e-9.

   Three parts: state and arithmetic (pure functions), the DOM, the events. */
(function () {
  "use strict";
  const { el, rich, sig, fix, vector, uid, enhance, keyboardScrollable, pageWords, fill } =
    window.AttentionSite;

  /* ---- State and arithmetic: examples/two_positions.py's head() ------------- */

  const X_RANGE = { min: -2, max: 2, step: 0.1 };
  const T_RANGE = { min: 0.25, max: 4, step: 0.05 };
  const HEAT_LEVELS = 10; // heat-0 … heat-10, as sitebuild/heatmaps.py

  function initialState(example) {
    return { x: [example.x_1.slice(), example.x_2.slice()],
             temperature: example.temperature, causal: false };
  }

  const transpose = (A) => A[0].map((_, c) => A.map((row) => row[c]));
  const matmul = (A, B) =>
    A.map((row) => B[0].map((_, c) => row.reduce((sum, a, k) => sum + a * B[k][c], 0)));

  /** One attention head on the rows of X, with every stage along the way. */
  function head(X, W_Q, W_K, W_V, temperature, causal) {
    const [Q, K, V] = [matmul(X, W_Q), matmul(X, W_K), matmul(X, W_V)];
    const d_k = K[0].length;
    const scores = matmul(Q, transpose(K)); // (n, n): row i = query i, column j = key j
    const scaled = scores.map((row) => row.map((s) => s / (Math.sqrt(d_k) * temperature)));
    const masked = scaled.map((row, i) => row.map((s, j) => (causal && j > i ? -Infinity : s)));
    const exponentials = masked.map((row) => row.map(Math.exp)); // e^-inf = 0
    const weights = exponentials.map((row) => {
      const total = row.reduce((sum, e) => sum + e, 0);
      return row.map((e) => e / total);
    });
    const weighted = weights.map((row) => row.map((a, j) => V[j].map((v) => a * v)));
    const H = weighted.map((row) =>
      V[0].map((_, c) => row.reduce((sum, term) => sum + term[c], 0)));
    return { Q, K, V, scores, scaled, masked, exponentials, weights, weighted, H };
  }

  function compute(example, state) {
    return head(state.x, example.W_Q, example.W_K, example.W_V, state.temperature,
                state.causal);
  }

  /** X with coordinate C of position I set to VALUE. */
  function setCoordinate(state, i, c, value) {
    const x = state.x.map((row) => row.slice());
    x[i][c] = value;
    return { ...state, x };
  }

  /** A dragged coordinate on the sliders' grid: steps of 0.1 within the range. */
  function snap(value) {
    const steps = Math.round((value - X_RANGE.min) / X_RANGE.step);
    const snapped = X_RANGE.min + steps * X_RANGE.step;
    return Math.min(X_RANGE.max, Math.max(X_RANGE.min, Math.round(snapped * 10) / 10));
  }

  const heatLevel = (w) => Math.min(HEAT_LEVELS, Math.max(0, Math.round(w * HEAT_LEVELS)));

  /* ---- The DOM --------------------------------------------------------------- */

  const MINUS_INFINITY = "\u2212∞";
  const show = (x) => (x === -Infinity ? MINUS_INFINITY : sig(x, 3));

  function slider(range, label) {
    const input = el("input", { type: "range", min: String(range.min), max: String(range.max),
                                step: String(range.step), "aria-label": label });
    const output = el("output", { class: "widget__number calculator__value",
                                  "aria-hidden": "true" });
    return { input, output, field: el("span", { class: "widget__range" }, input, output) };
  }

  function controls(words) {
    const coordinates = [0, 1].map((i) => [0, 1].map((c) =>
      slider(X_RANGE, fill(words.coordinate, { c: c + 1, i: i + 1 }))));
    const temperature = slider(T_RANGE, words.temperature);
    const causal = el("input", { type: "checkbox", id: uid("calculator-causal") });
    const reset = el("button", { type: "button", class: "md-button" }, words.reset);
    const rows = coordinates.map((pair, i) =>
      el("div", { class: "calculator__input" },
         el("span", { class: "calculator__name", "aria-hidden": "true" },
            rich(fill(words.representation, { i: i + 1 }))),
         ...pair.map((s) => s.field)));
    const fieldset = el("fieldset", { class: "widget__controls calculator__controls" },
      el("legend", {}, words.inputs), ...rows,
      el("div", { class: "calculator__input" },
         el("span", { class: "calculator__name", "aria-hidden": "true" }, rich("T")),
         temperature.field),
      el("div", { class: "calculator__input" }, causal,
         el("label", { for: causal.id }, words.causal)),
      el("div", { class: "widget__buttons" }, reset));
    return { fieldset, coordinates, temperature, causal, reset };
  }

  const SVG = "http://www.w3.org/2000/svg";
  const PLANE = 2.4; // the plane shows [-2.4, 2.4]² around the sliders' [-2, 2]²

  function svg(tag, attributes) {
    const node = document.createElementNS(SVG, tag);
    Object.entries(attributes).forEach(([name, value]) => node.setAttribute(name, value));
    return node;
  }

  /** The plane of the representations: x_1 and x_2 as points the pointer can drag
      (the sliders do the same from the keyboard, so the plane is hidden from
      assistive technology). y points up. */
  function plane(words) {
    const root = svg("svg", { viewBox: `${-PLANE} ${-PLANE} ${2 * PLANE} ${2 * PLANE}`,
                              class: "calculator__plane", "aria-hidden": "true" });
    for (let t = -2; t <= 2; t += 1) {
      const kind = t === 0 ? "calculator__axis" : "calculator__grid";
      root.append(svg("line", { x1: t, y1: -PLANE, x2: t, y2: PLANE, class: kind }),
                  svg("line", { x1: -PLANE, y1: t, x2: PLANE, y2: t, class: kind }));
    }
    const points = [0, 1].map((i) => {
      const group = svg("g", { class: `calculator__point calculator__point--${i + 1}` });
      const arrow = svg("line", { x1: 0, y1: 0, class: "calculator__arrow" });
      const dot = svg("circle", { r: 0.2 });
      const label = svg("text", { class: "calculator__label" });
      label.append(`x${"₁₂"[i]}`);
      group.append(arrow, dot, label);
      root.append(group);
      return { group, arrow, dot, label };
    });
    const figure = el("figure", { class: "calculator__figure" }, root,
                      el("figcaption", {}, rich(words.plane)));
    return { figure, root, points };
  }

  /** Where in the plane's coordinates (y up) a pointer EVENT is. */
  function planePoint(root, event) {
    const point = new DOMPoint(event.clientX, event.clientY)
      .matrixTransform(root.getScreenCTM().inverse());
    return [point.x, -point.y];
  }

  /** A small matrix: CAPTION, row labels, column labels, and cells to fill later;
      row FOLLOWED (position 2's, from 0) is marked as the one the article follows. */
  function matrix(caption, rowLabels, columnLabels, followed = 1) {
    const cells = rowLabels.map(() => columnLabels.map(() => el("td", {})));
    const table = el("table", { class: "calculator__matrix" },
      el("caption", {}, rich(caption)),
      el("thead", {}, el("tr", {}, el("td", {}),
        ...columnLabels.map((label) => el("th", { scope: "col" }, rich(label))))),
      el("tbody", {}, ...rowLabels.map((label, r) =>
        el("tr", { class: r === followed ? "is-followed" : null },
           el("th", { scope: "row" }, rich(label)), ...cells[r]))));
    return { table, cells };
  }

  function buildDom(words) {
    const titleId = uid("calculator-title");
    const queries = ["q_1", "q_2"]; // rows: the queries; columns: the keys
    const keys = ["k_1", "k_2"];
    const components = [1, 2].map((c) => fill(words.component, { c }));
    const stage = (name) => matrix(words[name], queries, keys);
    const dom = {
      controls: controls(words),
      plane: plane(words),
      vectors: matrix(words.perPosition, [1, 2].map((i) => `${words.position} ${i}`),
                      ["x_i", "q_i", "k_i", "v_i"]),
      stages: {
        scores: stage("stageScores"), scaled: stage("stageScaled"),
        masked: stage("stageMasked"), exponentials: stage("stageExponentials"),
        weights: stage("stageWeights"),
      },
      weighted: matrix(words.stageWeighted, ["a_21 v_1", "a_22 v_2", "h_2"], components, 2),
      output: matrix(words.stageOutput, ["h_1", "h_2"], components),
      status: el("p", { class: "widget__status", role: "status" }),
    };
    const grid = el("div", { class: "calculator__stages" },
      ...Object.values(dom.stages).map((s) => s.table), dom.weighted.table, dom.output.table);
    dom.widget = el("div", { class: "widget calculator", role: "group",
                             "aria-labelledby": titleId },
      el("p", { class: "widget__title", id: titleId }, words.title),
      el("div", { class: "calculator__top" }, dom.controls.fieldset, dom.plane.figure),
      el("div", { class: "widget__scroll" }, dom.vectors.table),
      el("div", { class: "widget__scroll" }, grid),
      dom.status);
    return dom;
  }

  function fillMatrix(cells, values, format = show) {
    cells.forEach((row, r) => row.forEach((cell, c) => {
      cell.textContent = format(values[r][c]);
    }));
  }

  function render(dom, words, example, state) {
    const stages = compute(example, state);
    const { coordinates, temperature, causal } = dom.controls;
    coordinates.forEach((pair, i) => pair.forEach((s, c) => {
      s.input.value = String(state.x[i][c]);
      s.output.textContent = fix(state.x[i][c], 1);
      s.input.setAttribute("aria-valuetext", fix(state.x[i][c], 1));
    }));
    temperature.input.value = String(state.temperature);
    temperature.output.textContent = fix(state.temperature, 2);
    temperature.input.setAttribute("aria-valuetext", fix(state.temperature, 2));
    causal.checked = state.causal;
    dom.plane.points.forEach((p, i) => {
      const [x, y] = state.x[i];
      p.arrow.setAttribute("x2", x);
      p.arrow.setAttribute("y2", -y);
      p.dot.setAttribute("cx", x);
      p.dot.setAttribute("cy", -y);
      p.label.setAttribute("x", x + 0.28);
      p.label.setAttribute("y", -y - 0.22);
    });

    const vectors = [0, 1].map((i) => [state.x[i], stages.Q[i], stages.K[i], stages.V[i]]);
    // d_k = 1: a query or key is one number, printed as the page prints it (q_2 = 1.1);
    // "[1,1]" would read as two entries where the decimal sign is a comma.
    fillMatrix(dom.vectors.cells, vectors,
      (v) => (v.length === 1 ? sig(v[0], 3) : vector(v, (x) => sig(x, 3))));
    Object.entries(dom.stages).forEach(([name, s]) => fillMatrix(s.cells, stages[name]));
    dom.stages.weights.cells.forEach((row, r) => row.forEach((cell, c) => {
      cell.className = `heat heat-${heatLevel(stages.weights[r][c])}`;
    }));
    const row = stages.weighted[1]; // position 2's a_2j v_j
    fillMatrix(dom.weighted.cells, [...row, stages.H[1]]);
    fillMatrix(dom.output.cells, stages.H);
    dom.status.replaceChildren(rich(fill(words.status, {
      weights: vector(stages.weights[1], (x) => sig(x, 3)),
      h: vector(stages.H[1], (x) => sig(x, 3)),
    })));
    // For tests and the curious: the exact numbers behind what is shown (−∞ as null).
    dom.widget.dataset.state = JSON.stringify({ ...state, ...stages });
  }

  /* ---- Events ---------------------------------------------------------------- */

  function wire(dom, words, example) {
    const initial = initialState(example);
    let state = initial;
    const update = (next) => {
      state = next;
      render(dom, words, example, state);
    };
    const { coordinates, temperature, causal, reset } = dom.controls;
    coordinates.forEach((pair, i) => pair.forEach((s, c) => {
      s.input.addEventListener("input", () =>
        update(setCoordinate(state, i, c, Number(s.input.value))));
    }));
    temperature.input.addEventListener("input", () =>
      update({ ...state, temperature: Number(temperature.input.value) }));
    causal.addEventListener("change", () => update({ ...state, causal: causal.checked }));
    reset.addEventListener("click", () => update(structuredClone(initial)));
    dom.plane.points.forEach((p, i) => {
      const drag = (event) => {
        const [x, y] = planePoint(dom.plane.root, event);
        update(setCoordinate(setCoordinate(state, i, 0, snap(x)), i, 1, snap(y)));
      };
      p.group.addEventListener("pointerdown", (event) => {
        p.group.setPointerCapture(event.pointerId);
        p.group.classList.add("is-dragging");
        drag(event);
      });
      p.group.addEventListener("pointermove", (event) => {
        if (p.group.hasPointerCapture(event.pointerId)) drag(event);
      });
      const release = () => p.group.classList.remove("is-dragging");
      p.group.addEventListener("pointerup", release);
      p.group.addEventListener("pointercancel", release);
    });
    update(state);
  }

  function mount(container, examples) {
    const words = pageWords(container);
    const dom = buildDom(words);
    Array.from(container.children).forEach((node) => { node.hidden = true; });
    container.append(dom.widget);
    container.classList.add("is-enhanced");
    wire(dom, words, examples.two_positions);
    dom.widget.querySelectorAll(".widget__scroll").forEach(keyboardScrollable);
  }

  enhance(".attention-calculator", "examples.json", mount);
})();
