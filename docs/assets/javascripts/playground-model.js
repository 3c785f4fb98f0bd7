/* The feature-recovery student (experiment/model.py), its data
   (experiment/data.py), its loss and its gradients, in float64: JS numbers. The
   training playground trains it (playground-ui.js shows it), with Adam as
   torch.optim.Adam computes it or plain SGD (maths.js); the intervention
   explorer runs the trained student's forward pass on examples it edits.

   No DOM here. There is no autograd in the browser, so the gradients are written
   out below, from the chain rule through the forward pass.
   tests/browser/test_playground.py feeds this code and the Python Student the same
   initial maps and batches (trainOnBatches) and asks for the same losses and maps.

   Shapes, with J records per example (4, or 3 for the three-keys variant) and B
   examples: every matrix is a flat, row-major Float64Array.
     R (9, 9)       the run's mixing matrix: x = z R
     keys (J, 3)    the teacher's keys; the student's too, unless it learns its own
     W_Q, W_V (9, 3)
     a batch: latents (B, 1 + J, 9), request (B, 9), records (B, J, 9), target (B, 3)

   The random numbers are the page's own (maths.js: a seeded mulberry32 generator,
   normals by the polar method): the same distributions as the run's, not the run's
   numpy draws. */
import { adam, mulberry32, normals, sgd, softmax } from "./maths.js";

export const D = 9; // latent features, and the width of every mixed input
export const C = 3; // coordinates of a query, a key and a value
const QUERY = 3; // the query latents are columns 0..2 of z, the payload ones 3..5
const SQRT3 = Math.sqrt(3); // the scores' scale, 3**0.5 in model.py

// The nine latent features by role (data.py), and their names in the figures, the
// same in every language.
export const ROLES = { query: [0, 1, 2], payload: [3, 4, 5], noise: [6, 7, 8] };
export const FEATURES = ["q1", "q2", "q3", "p1", "p2", "p3", "n1", "n2", "n3"];

/* ---- Random numbers ------------------------------------------------------ */

// A seed's independent streams, as data.STREAMS names them: the training stream
// draws the initial W_Q and W_V and then every batch, so that the four-keys and the
// learned-keys students of a seed start alike and see the same batches.
const STREAMS = { training: 1, heldout: 2, keys: 3 };

/** Standard normals of stream STREAM of SEED, one per call. */
const seeded = (seed, name) => normals(mulberry32(seed * 8 + STREAMS[name]));

/** N normals from NORMAL, times SCALE. */
function drawn(normal, n, scale) {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i += 1) out[i] = normal() * scale;
  return out;
}

/* ---- Data: data.draw_examples and data.teacher ----------------------------- */

/** An empty batch of COUNT examples with J records each. */
function emptyBatch(count, J) {
  return { count, J, latents: new Float64Array(count * (1 + J) * D),
           request: new Float64Array(count * D), records: new Float64Array(count * J * D),
           target: new Float64Array(count * C) };
}

/** BATCH with the inputs and targets of its latents z (count, 1 + J, 9), with
    SETTING's R and keys: their mixing x = zR (the request's, then the records'),
    and the teacher's target, the request's query latents attending over the
    records' payload latents with the same keys. */
function label(batch, setting) {
  const { R, keys } = setting;
  const { count, J, latents, request, records, target } = batch;
  const scores = new Float64Array(J);
  const weights = new Float64Array(J);
  for (let b = 0; b < count; b += 1) {
    const z = b * (1 + J) * D; // this example's request row in latents
    for (let row = 0; row <= J; row += 1) { // x = zR, the request and then each record
      const out = row === 0 ? request : records;
      const at = row === 0 ? b * D : (b * J + row - 1) * D;
      const zr = z + row * D;
      for (let c = 0; c < D; c += 1) {
        let sum = 0;
        for (let i = 0; i < D; i += 1) sum += latents[zr + i] * R[i * D + c];
        out[at + c] = sum;
      }
    }
    for (let j = 0; j < J; j += 1) {
      let dot = 0;
      for (let c = 0; c < C; c += 1) dot += latents[z + c] * keys[j * C + c];
      scores[j] = dot / SQRT3;
    }
    softmax(scores, weights);
    for (let c = 0; c < C; c += 1) {
      let sum = 0;
      for (let j = 0; j < J; j += 1) sum += weights[j] * latents[z + (1 + j) * D + QUERY + c];
      target[b * C + c] = sum;
    }
  }
  return batch;
}

/** COUNT fresh examples from NORMAL, one record per key of SETTING.keys: latents
    z (count, 1 + J, 9) with every input's query latents scaled by
    SETTING.queryScale, labelled. Written into INTO (a batch of that size, refilled
    at every step), or a new one. */
export function drawExamples(normal, count, setting, into) {
  const batch = into || emptyBatch(count, setting.keys.length / C);
  const { latents } = batch;
  for (let i = 0; i < latents.length; i += 1) {
    latents[i] = i % D < QUERY ? normal() * setting.queryScale : normal();
  }
  return label(batch, setting);
}

/** One example's latents (1 + J, 9), nested, as drawExamples draws them from NORMAL. */
export const drawLatents = (normal, setting) =>
  nested(drawExamples(normal, 1, setting).latents, D);

/** One example of the given LATENTS (1 + J, 9), nested, labelled with SETTING's R and
    keys: a batch of one. */
export function exampleOf(latents, setting) {
  const batch = emptyBatch(1, latents.length - 1);
  batch.latents.set(latents.flat());
  return label(batch, setting);
}

/* ---- The student: forward pass, MSE and its gradients ---------------------- */

/** Room for one example's forward pass with J records. */
const workspace = (J) => ({ q: new Float64Array(C), scores: new Float64Array(J),
                            a: new Float64Array(J), v: new Float64Array(J * C),
                            prediction: new Float64Array(C) });

/** Example B of BATCH through the student with PARAMS (model.py's forward), into
    WORK: q = x_req W_Q (3), s_j = q . k_j / √3, a = softmax(s) (J), v_j = x_j W_V
    (J, 3), ŷ = Σ_j a_j v_j (3). */
function forward(params, batch, b, work) {
  const { W_Q, W_V, keys } = params;
  const { J, request, records } = batch;
  const { q, scores, a, v, prediction } = work;
  const xr = b * D; // the request's row in request
  const xj = b * J * D; // the first record's row in records
  for (let c = 0; c < C; c += 1) {
    let sum = 0;
    for (let i = 0; i < D; i += 1) sum += request[xr + i] * W_Q[i * C + c];
    q[c] = sum;
  }
  for (let j = 0; j < J; j += 1) {
    let dot = 0;
    for (let c = 0; c < C; c += 1) dot += q[c] * keys[j * C + c];
    scores[j] = dot / SQRT3;
    for (let c = 0; c < C; c += 1) {
      let sum = 0;
      for (let i = 0; i < D; i += 1) sum += records[xj + j * D + i] * W_V[i * C + c];
      v[j * C + c] = sum;
    }
  }
  softmax(scores, a);
  for (let c = 0; c < C; c += 1) {
    let sum = 0;
    for (let j = 0; j < J; j += 1) sum += a[j] * v[j * C + c];
    prediction[c] = sum;
  }
}

/** The student with PARAMS ({W_Q, W_V, keys}, flat) on every example of BATCH: its
    attention weights (B, J) and predictions (B, 3), nested. */
export function predict(params, batch) {
  const work = workspace(batch.J);
  const weights = [];
  const predictions = [];
  for (let b = 0; b < batch.count; b += 1) {
    forward(params, batch, b, work);
    weights.push(Array.from(work.a));
    predictions.push(Array.from(work.prediction));
  }
  return { weights, predictions };
}

/** The student's MSE on BATCH and, if GRADS is given ({W_Q, W_V, keys}, zeroed
    here), its gradient with respect to W_Q, W_V and the keys.

    Forward, per example: forward() above; the loss is the mean of (ŷ - y)² over the
    B examples and 3 coordinates. Backward, with g = ∂L/∂ŷ = 2 (ŷ - y) / 3B:
      ∂L/∂W_V = Σ_j x_jᵀ (a_j g)
      ∂L/∂s_j = a_j (g . v_j - Σ_k a_k g . v_k)        softmax's Jacobian
      ∂L/∂q = Σ_j ∂L/∂s_j k_j / √3,  ∂L/∂W_Q = x_reqᵀ ∂L/∂q
      ∂L/∂k_j = ∂L/∂s_j q / √3                          (learned keys only) */
function lossAndGradients(params, batch, grads) {
  const { keys } = params;
  const { count: B, J, request, records, target } = batch;
  if (grads) [grads.W_Q, grads.W_V, grads.keys].forEach((g) => g.fill(0));
  const work = workspace(J);
  const { q, a, v, prediction } = work;
  const g = new Float64Array(C);
  const gv = new Float64Array(J); // g . v_j
  const dq = new Float64Array(C);
  const scale = 2 / (C * B);
  let sse = 0;
  for (let b = 0; b < B; b += 1) {
    const xr = b * D; // the request's row in request
    const xj = b * J * D; // the first record's row in records
    forward(params, batch, b, work);
    for (let c = 0; c < C; c += 1) {
      const residual = prediction[c] - target[b * C + c];
      sse += residual * residual;
      g[c] = scale * residual;
    }
    if (!grads) continue;
    let mean = 0; // Σ_k a_k g . v_k
    for (let j = 0; j < J; j += 1) {
      let dot = 0;
      for (let c = 0; c < C; c += 1) dot += g[c] * v[j * C + c];
      gv[j] = dot;
      mean += a[j] * dot;
    }
    dq.fill(0);
    for (let j = 0; j < J; j += 1) {
      const ds = a[j] * (gv[j] - mean) / SQRT3; // ∂L/∂s_j, with the scores' 1/√3
      for (let c = 0; c < C; c += 1) {
        dq[c] += ds * keys[j * C + c];
        grads.keys[j * C + c] += ds * q[c];
      }
      for (let i = 0; i < D; i += 1) {
        const x = records[xj + j * D + i] * a[j];
        for (let c = 0; c < C; c += 1) grads.W_V[i * C + c] += x * g[c];
      }
    }
    for (let i = 0; i < D; i += 1) {
      for (let c = 0; c < C; c += 1) grads.W_Q[i * C + c] += request[xr + i] * dq[c];
    }
  }
  return sse / (C * B);
}

/* ---- Training ---------------------------------------------------------------- */

/** The optimiser CHOICE names ({name: "adam" | "sgd", lr, betas, eps}) for parameters
    of SIZES. */
function optimiser(choice, sizes) {
  if (choice.name === "adam") return adam(choice.lr, choice.betas, choice.eps, sizes);
  if (choice.name === "sgd") return sgd(choice.lr);
  throw new Error(`unknown optimiser ${choice.name}`);
}

/** A student with the given initial maps (flat arrays) and its optimiser. */
function student(W_Q, W_V, keys, learnKeys, choice) {
  const params = { W_Q: Float64Array.from(W_Q), W_V: Float64Array.from(W_V),
                   keys: Float64Array.from(keys) };
  const trained = learnKeys ? [params.W_Q, params.W_V, params.keys] : [params.W_Q, params.W_V];
  const grads = { W_Q: new Float64Array(D * C), W_V: new Float64Array(D * C),
                  keys: new Float64Array(params.keys.length) };
  const gradsOf = learnKeys ? [grads.W_Q, grads.W_V, grads.keys] : [grads.W_Q, grads.W_V];
  const optimiserOfIt = optimiser(choice, trained.map((p) => p.length));
  return {
    params,
    /** One update from BATCH (a step of experiment/train.py's loop); the loss before it. */
    step(batch) {
      const loss = lossAndGradients(params, batch, grads);
      optimiserOfIt.step(trained, gradsOf);
      return loss;
    },
  };
}

// The students the playground trains, by their keys (experiment/variants.py; the SGD
// control is the three-keys student with another optimiser): which keys the teacher
// and the student use, and whether the student learns its own.
export const VARIANTS = {
  four: { keys: 4, learnKeys: false },
  learned: { keys: 4, learnKeys: true },
  three: { keys: 3, learnKeys: false },
};

/** A training run as the playground makes it: RUN holds the run's settings (R,
    fixedKeys (4, 3), initScale, keyInitScale, queryScale, batchSize, heldoutSize,
    betas, eps); CHOICE the reader's (variant, optimiser, lr, seed). The seed's
    training stream draws W_Q, then W_V, then one batch per step; the learned keys
    come from its keys stream, the held-out examples from its held-out stream. */
export function training(run, choice) {
  const variant = VARIANTS[choice.variant];
  const setting = { R: run.R, keys: run.fixedKeys.slice(0, variant.keys * C),
                    queryScale: run.queryScale };
  const stream = seeded(choice.seed, "training");
  const W_Q = drawn(stream, D * C, run.initScale);
  const W_V = drawn(stream, D * C, run.initScale);
  const keys = variant.learnKeys
    ? drawn(seeded(choice.seed, "keys"), setting.keys.length, run.keyInitScale)
    : setting.keys;
  const trainee = student(W_Q, W_V, keys, variant.learnKeys,
                          { name: choice.optimiser, lr: choice.lr, betas: run.betas,
                            eps: run.eps });
  const heldout = drawExamples(seeded(choice.seed, "heldout"), run.heldoutSize, setting);
  const batch = emptyBatch(run.batchSize, variant.keys); // refilled at every step
  return {
    params: trainee.params,
    initial: { W_Q, W_V },
    losses: [], // each step's training MSE, before its update (train.py's loss_trace)
    /** One step on a fresh batch; returns its loss. */
    step() {
      const loss = trainee.step(drawExamples(stream, run.batchSize, setting, batch));
      this.losses.push(loss);
      return loss;
    },
    heldoutMse: () => lossAndGradients(trainee.params, heldout, null),
    uniformMse: uniformAttentionMse(heldout),
  };
}

/** The uniform-attention baseline's MSE on BATCH: every record's true payload latents
    with weight 1/J (measure.py's measure(), its uniform_attention_mse). */
function uniformAttentionMse(batch) {
  const { count, J, latents, target } = batch;
  let sse = 0;
  for (let b = 0; b < count; b += 1) {
    const z = b * (1 + J) * D;
    for (let c = 0; c < C; c += 1) {
      let sum = 0;
      for (let j = 0; j < J; j += 1) sum += latents[z + (1 + j) * D + QUERY + c];
      const residual = sum / J - target[b * C + c];
      sse += residual * residual;
    }
  }
  return sse / (C * count);
}

/* ---- What the playground shows ------------------------------------------------ */

/** R W (9, 3): row i is how each coordinate moves when latent feature i grows by one. */
export function response(R, W) {
  const out = new Float64Array(D * C);
  for (let i = 0; i < D; i += 1) {
    for (let c = 0; c < C; c += 1) {
      let sum = 0;
      for (let k = 0; k < D; k += 1) sum += R[i * D + k] * W[k * C + c];
      out[i * C + c] = sum;
    }
  }
  return out;
}

/** The departure of R W_Q from the intended map E_q along the unit query DIRECTION
    (3), one coefficient per latent row: (9) (measure.departure). */
export function invisibleDeparture(queryResponse, direction) {
  const along = new Float64Array(D);
  for (let i = 0; i < D; i += 1) {
    let dot = 0;
    for (let c = 0; c < C; c += 1) {
      const intended = i === c ? 1 : 0; // E_q: the identity on the query rows
      dot += (queryResponse[i * C + c] - intended) * direction[c];
    }
    along[i] = dot;
  }
  return along;
}

/* ---- A hook for the tests ---------------------------------------------------- */

const flat = (nested) => Float64Array.from(nested.flat(Infinity));
const nested = (values, columns) => Array.from({ length: values.length / columns },
  (_, row) => Array.from(values.subarray(row * columns, (row + 1) * columns)));

/** Train on given batches, for the tests against the Python Student. SPEC: W_Q, W_V
    (9, 3), keys (J, 3), learnKeys, optimiser ({name, lr, betas, eps}), batches
    [{request (B, 9), records (B, J, 9), target (B, 3)}], as nested arrays. Returns
    each step's loss and the maps after every step: [{loss, W_Q, W_V, keys}]. */
export function trainOnBatches(spec) {
  const trainee = student(flat(spec.W_Q), flat(spec.W_V), flat(spec.keys), spec.learnKeys,
                          spec.optimiser);
  return spec.batches.map((given) => {
    const batch = { count: given.target.length, J: spec.keys.length,
                    request: flat(given.request), records: flat(given.records),
                    target: flat(given.target) };
    const loss = trainee.step(batch);
    return { loss, W_Q: nested(trainee.params.W_Q, C), W_V: nested(trainee.params.W_V, C),
             keys: nested(trainee.params.keys, C) };
  });
}

/** COUNT examples of stream STREAM of SEED as the playground draws them, nested. */
export function examples(seed, stream, count, R, keys, queryScale) {
  const batch = drawExamples(seeded(seed, stream), count,
                             { R: flat(R), keys: flat(keys), queryScale });
  const rows = nested(batch.latents, D); // (count (1 + J), 9) ...
  const inputs = 1 + keys.length; // ... into (count, 1 + J, 9)
  const latents = Array.from({ length: count },
                             (_, b) => rows.slice(b * inputs, (b + 1) * inputs));
  return { latents, request: nested(batch.request, D), target: nested(batch.target, C) };
}
