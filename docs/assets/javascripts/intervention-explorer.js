/* The intervention explorer of the feature-recovery article.

   It runs this build's trained student (seed 0's Wq and Wv, the mixing matrix R,
   the fixed keys, all from run/results.json) on one freshly drawn example and
   lets the reader edit the example's latent coordinates as the article's
   interventions do (experiment/measure.py): erase a query feature of the
   request, erase a payload feature of every source record, or add an amount to
   every coordinate that the map concerned should ignore. The target stays the
   teacher's target for the unedited example.

   The arithmetic is experiment/data.py and experiment/model.py line by line, in
   float64; tests/browser checks it against the Python model to 1e-9. */
(function () {
  "use strict";
  const { el, fix, sig, sci, uid, enhance, words, keyboardScrollable } =
    window.AttentionSite;

  const RECORDS = 4;
  const QUERY = [0, 1, 2]; // roles of the nine latent coordinates (experiment/data.py)
  const PAYLOAD = [3, 4, 5];
  const NOISE = [6, 7, 8];
  const FEATURE_NAMES = ["q1", "q2", "q3", "p1", "p2", "p3", "n1", "n2", "n3"];

  const LABELS = words({
    en: {
      title: "Intervention explorer",
      intro: (seed) => `The student trained with seed ${seed} on one example that it never saw in training. Edit the example's latent coordinates and watch the prediction.`,
      controls: "Interventions",
      eraseQuery: "Erase a query feature of the request",
      erasePayload: "Erase a payload feature from every source record",
      shift: "Add to every coordinate the map concerned should ignore",
      shiftHint: "the request's payload and noise features, the source records' query and noise features",
      none: "none",
      draw: "Draw another example",
      reset: "Reset the interventions",
      example: (n) => `Example ${n}`,
      latents: "Latent coordinates z (before mixing with R) and attention weights",
      input: "input",
      request: "request",
      record: (j) => `source record ${j}`,
      query: "query features",
      payload: "payload features",
      noise: "noise features",
      weight: "attention weight",
      outputs: "Prediction and target",
      coordinate: "coordinate",
      target: "target (teacher)",
      prediction: "prediction",
      before: "prediction without the intervention",
      mse: "MSE of the prediction against the target",
      moved: "Change of the prediction (MSE)",
      edited: "edited by the intervention",
    },
    uk: {
      title: "Дослідник втручань",
      intro: (seed) => `Учень, навчений із зерном ${seed}, на прикладі, якого він не бачив під час навчання. Змініть латентні координати прикладу й стежте за прогнозом.`,
      controls: "Втручання",
      eraseQuery: "Стерти ознаку запиту у зверненні",
      erasePayload: "Стерти ознаку вмісту в кожному записі-джерелі",
      shift: "Додати до кожної координати, яку відповідна матриця має ігнорувати",
      shiftHint: "ознаки вмісту й шумові ознаки звернення, ознаки запиту й шумові ознаки записів-джерел",
      none: "жодної",
      draw: "Узяти інший приклад",
      reset: "Скасувати втручання",
      example: (n) => `Приклад ${n}`,
      latents: "Латентні координати z (до змішування матрицею R) і ваги уваги",
      input: "вхід",
      request: "звернення",
      record: (j) => `запис-джерело ${j}`,
      query: "ознаки запиту",
      payload: "ознаки вмісту",
      noise: "шумові ознаки",
      weight: "вага уваги",
      outputs: "Прогноз і ціль",
      coordinate: "координата",
      target: "ціль (учитель)",
      prediction: "прогноз",
      before: "прогноз без втручання",
      mse: "MSE прогнозу відносно цілі",
      moved: "Зміна прогнозу (MSE)",
      edited: "змінено втручанням",
    },
    sv: {
      title: "Utforska ingreppen",
      intro: (seed) => `Eleven tränad med frö ${seed}, på ett exempel som den aldrig såg under träningen. Ändra exemplets latenta koordinater och se vad prediktionen gör.`,
      controls: "Ingrepp",
      eraseQuery: "Radera ett frågesärdrag i förfrågan",
      erasePayload: "Radera ett innehållssärdrag i varje källpost",
      shift: "Lägg till på varje koordinat som avbildningen i fråga ska bortse från",
      shiftHint: "förfrågans innehålls- och brussärdrag, källposternas fråge- och brussärdrag",
      none: "inget",
      draw: "Dra ett nytt exempel",
      reset: "Återställ ingreppen",
      example: (n) => `Exempel ${n}`,
      latents: "Latenta koordinater z (före blandningen med R) och attentionandelar",
      input: "indata",
      request: "förfrågan",
      record: (j) => `källpost ${j}`,
      query: "frågesärdrag",
      payload: "innehållssärdrag",
      noise: "brussärdrag",
      weight: "attentionandel",
      outputs: "Prediktion och mål",
      coordinate: "koordinat",
      target: "mål (lärare)",
      prediction: "prediktion",
      before: "prediktion utan ingrepp",
      mse: "Prediktionens MSE mot målet",
      moved: "Prediktionens förändring (MSE)",
      edited: "ändrad av ingreppet",
    },
  });

  // ---- Random examples: mulberry32 and Box-Muller, seeded by the example's number.

  function mulberry32(seed) {
    let a = seed >>> 0;
    return function next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** N standard normals: each pair from two uniforms, u1 in (0, 1] so that log(u1) is finite. */
  function normals(random, n) {
    const out = [];
    while (out.length < n) {
      const u1 = 1 - random();
      const u2 = random();
      const radius = Math.sqrt(-2 * Math.log(u1));
      out.push(radius * Math.cos(2 * Math.PI * u2), radius * Math.sin(2 * Math.PI * u2));
    }
    return out.slice(0, n);
  }

  /** Latents (5, 9) of example NUMBER: request, then four records; query latents scaled. */
  function drawLatents(number, queryScale) {
    const flat = normals(mulberry32(number), (1 + RECORDS) * 9);
    const z = [];
    for (let row = 0; row < 1 + RECORDS; row += 1) z.push(flat.slice(row * 9, row * 9 + 9));
    for (const row of z) for (const i of QUERY) row[i] *= queryScale;
    return z;
  }

  // ---- The experiment's arithmetic (experiment/data.py, experiment/model.py).

  const matmul = (vector_, matrix) =>
    matrix[0].map((_, column) => vector_.reduce((sum, x, k) => sum + x * matrix[k][column], 0));
  const dot = (a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0);

  function softmax(scores) {
    const top = Math.max(...scores);
    const exps = scores.map((s) => Math.exp(s - top));
    const total = exps.reduce((a, b) => a + b, 0);
    return exps.map((e) => e / total);
  }

  /** Attention over the records with the fixed keys K (4, 3): weights and their mixture. */
  function attend(query, K, values) {
    const weights = softmax(K.map((key) => dot(query, key) / Math.sqrt(3)));
    const mixture = [0, 1, 2].map((i) => weights.reduce((sum, a, j) => sum + a * values[j][i], 0));
    return { weights, mixture };
  }

  /** The student: q = x_request Wq, V = x_records Wv, prediction = softmax(q K^T / sqrt 3) V. */
  function student(z, run) {
    const x = z.map((row) => matmul(row, run.R)); // x = z R, (5, 9)
    const q = matmul(x[0], run.Wq); // (3,)
    const V = x.slice(1).map((row) => matmul(row, run.Wv)); // (4, 3)
    const { weights, mixture } = attend(q, run.K, V);
    return { weights, prediction: mixture };
  }

  /** The teacher: the request's query latents attend over the records' payload latents. */
  function teacher(z, run) {
    const query = QUERY.map((i) => z[0][i]);
    const payloads = z.slice(1).map((row) => PAYLOAD.map((i) => row[i]));
    return attend(query, run.K, payloads).mixture;
  }

  /** The latents as the interventions leave them (experiment/measure.py). */
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

  const mse = (a, b) => a.reduce((sum, x, k) => sum + (x - b[k]) ** 2, 0) / a.length;

  // ---- The widget.

  const small = (x) => (Math.abs(x) < 1e-3 && x !== 0 ? sci(x, 2) : sig(x, 3));

  function select(label, names) {
    const id = uid("explorer-select");
    const control = el("select", { id },
      el("option", { value: "" }, LABELS.none),
      ...names.map((name, i) => el("option", { value: String(i) }, name)));
    return { control, field: el("div", { class: "widget__field" },
      el("label", { for: id }, label), control) };
  }

  function build(container, run) {
    const edits = { eraseQuery: null, erasePayload: null, shift: 0 };
    let number = 1;
    let z = drawLatents(number, run.queryScale);

    const titleId = uid("explorer-title");
    const eraseQuery = select(LABELS.eraseQuery, FEATURE_NAMES.slice(0, 3));
    const erasePayload = select(LABELS.erasePayload, FEATURE_NAMES.slice(3, 6));
    const shiftId = uid("explorer-shift");
    const shiftHintId = uid("explorer-shift-hint");
    const limit = 2 * run.shift; // the article's shift, and as far again
    const shift = el("input", { type: "range", id: shiftId, min: String(-limit),
                                max: String(limit), step: "0.5", value: "0",
                                "aria-describedby": shiftHintId });
    const shiftValue = el("output", { for: shiftId, class: "widget__number" });
    const draw = el("button", { type: "button", class: "md-button md-button--primary" },
                    LABELS.draw);
    const reset = el("button", { type: "button", class: "md-button" }, LABELS.reset);
    const exampleName = el("span", { class: "explorer__example" });

    const latentBody = el("tbody");
    const outputBody = el("tbody");
    const summary = el("p", { class: "widget__status", role: "status" });

    const groupHeader = (text) => el("th", { colspan: "3", scope: "colgroup" }, text);
    const latentTable = el("table", { "data-table": "latents" }, // no class: Material styles it as a table
      el("caption", {}, LABELS.latents),
      el("thead", {},
        el("tr", {}, el("td"), groupHeader(LABELS.query), groupHeader(LABELS.payload),
           groupHeader(LABELS.noise), el("td")),
        el("tr", {}, el("th", { scope: "col" }, LABELS.input),
           ...FEATURE_NAMES.map((name) => el("th", { scope: "col" }, name)),
           el("th", { scope: "col" }, LABELS.weight))),
      latentBody);
    const outputTable = el("table", { "data-table": "outputs" },
      el("caption", {}, LABELS.outputs),
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, LABELS.coordinate),
        el("th", { scope: "col" }, LABELS.target),
        el("th", { scope: "col" }, LABELS.prediction),
        el("th", { scope: "col" }, LABELS.before))),
      outputBody);

    const widget = el("div", { class: "widget explorer", role: "group",
                               "aria-labelledby": titleId },
      el("p", { class: "widget__title", id: titleId }, LABELS.title, " · ", exampleName),
      el("p", { class: "widget__intro" }, LABELS.intro(run.seed)),
      el("fieldset", { class: "widget__controls" },
        el("legend", {}, LABELS.controls),
        eraseQuery.field, erasePayload.field,
        el("div", { class: "widget__field" },
          el("label", { for: shiftId }, LABELS.shift),
          el("span", { class: "widget__range" }, shift, shiftValue),
          el("small", { id: shiftHintId, class: "widget__hint" }, LABELS.shiftHint)),
        el("div", { class: "widget__buttons" }, draw, reset)),
      el("div", { class: "widget__scroll" }, latentTable),
      el("div", { class: "widget__scroll" }, outputTable),
      summary);

    function render() {
      const edited = intervene(z, edits);
      const before = student(z, run);
      const after = student(edited, run);
      const target = teacher(z, run); // the target stays the unedited example's
      const rowName = (row) => (row === 0 ? LABELS.request : LABELS.record(row));

      exampleName.textContent = LABELS.example(number);
      shift.setAttribute("aria-valuetext", sig(edits.shift, 3));
      shiftValue.textContent = (edits.shift > 0 ? "+" : "") + sig(edits.shift, 3);
      latentBody.replaceChildren(...edited.map((row, r) => el("tr", {},
        el("th", { scope: "row" }, rowName(r)),
        ...row.map((x, i) => {
          const changed = x !== z[r][i];
          return el("td", { class: changed ? "is-edited" : null,
                            title: changed ? LABELS.edited : null }, fix(x, 2));
        }),
        el("td", { class: "explorer__weight" }, r === 0 ? "" : fix(after.weights[r - 1], 3)))));
      outputBody.replaceChildren(...[0, 1, 2].map((i) => el("tr", {},
        el("th", { scope: "row" }, String(i + 1)),
        el("td", {}, fix(target[i], 3)),
        el("td", { class: "explorer__prediction" }, fix(after.prediction[i], 3)),
        el("td", {}, fix(before.prediction[i], 3)))));
      const error = mse(after.prediction, target);
      const moved = mse(after.prediction, before.prediction);
      summary.textContent = `${LABELS.mse}: ${small(error)}. ${LABELS.moved}: ${small(moved)}.`;

      // The exact inputs and outputs, for tests and the curious (tests/browser).
      widget.dataset.state = JSON.stringify({
        example: number, seed: run.seed, edits, latents: z, edited,
        weights: after.weights, prediction: after.prediction, target,
        baseline: before.prediction, mse: error, moved,
      });
    }

    eraseQuery.control.addEventListener("change", () => {
      edits.eraseQuery = eraseQuery.control.value === "" ? null : Number(eraseQuery.control.value);
      render();
    });
    erasePayload.control.addEventListener("change", () => {
      edits.erasePayload =
        erasePayload.control.value === "" ? null : Number(erasePayload.control.value);
      render();
    });
    shift.addEventListener("input", () => {
      edits.shift = Number(shift.value);
      render();
    });
    draw.addEventListener("click", () => {
      number += 1;
      z = drawLatents(number, run.queryScale);
      render();
    });
    reset.addEventListener("click", () => {
      Object.assign(edits, { eraseQuery: null, erasePayload: null, shift: 0 });
      eraseQuery.control.value = "";
      erasePayload.control.value = "";
      shift.value = "0";
      render();
    });

    container.replaceChildren(widget);
    container.classList.add("is-enhanced");
    render();
    widget.querySelectorAll(".widget__scroll").forEach(keyboardScrollable);
  }

  enhance(".intervention-explorer", "results.json", (container, results) => {
    const seed = results.seeds[0];
    build(container, {
      seed: seed.seed, Wq: seed.W_Q, Wv: seed.W_V, R: results.mixing_matrix,
      K: results.fixed_keys, queryScale: results.config.query_scale, shift: results.config.shift,
    });
  });
})();
