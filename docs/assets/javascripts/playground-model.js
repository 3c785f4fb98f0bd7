/* The training playground's arithmetic: the feature-recovery student
   (experiment/model.py), its data (experiment/data.py), its loss and the two
   optimisers, Adam as experiment/adam.py writes it out (torch.optim.Adam's update)
   and plain SGD as torch.optim.SGD makes it, in float64: JS numbers.

   No DOM here; playground-ui.js shows it. There is no autograd in the browser, so
   the gradients are written out below, from the chain rule through the forward pass.
   tests/browser/test_playground.py feeds this code and the Python Student the same
   initial maps and batches (trainOnBatches) and asks for the same losses and maps.

   Shapes, with J records per example (4, or 3 for the three-keys variant) and B
   examples: every matrix is a flat, row-major Float64Array.
     R (9, 9)       the run's mixing matrix: x = z R
     keys (J, 3)    the teacher's keys; the student's too, unless it learns its own
     W_Q, W_V (9, 3)
     a batch: latents (B, 1 + J, 9), request (B, 9), records (B, J, 9), target (B, 3)

   The random numbers are the page's own (a seeded mulberry32 generator, as the
   intervention explorer's, and normals by the polar method): the same distributions
   as the run's, not the run's numpy draws. */
(function () {
  "use strict";
  const { mulberry32 } = window.AttentionSite;

  const D = 9; // latent features, and the width of every mixed input
  const C = 3; // coordinates of a query, a key and a value
  const QUERY = 3; // the query latents are columns 0..2 of z, the payload ones 3..5
  const SQRT3 = Math.sqrt(3); // the scores' scale, 3**0.5 in model.py

  /* ---- Random numbers ------------------------------------------------------ */

  // A seed's independent streams, as data.STREAMS names them: the training stream
  // draws the initial W_Q and W_V and then every batch, so that the four-keys and the
  // learned-keys students of a seed start alike and see the same batches.
  const STREAMS = { training: 1, heldout: 2, keys: 3 };

  /** Standard normals of stream STREAM of SEED, one per call, in pairs: Marsaglia's
      polar method (Box-Muller without its sine and cosine, the larger part of the
      time of a step; a point outside the unit disc, a fifth of them, is drawn again). */
  function normals(seed, stream) {
    const random = mulberry32(seed * 8 + STREAMS[stream]);
    let spare = null;
    return function normal() {
      if (spare !== null) {
        const x = spare;
        spare = null;
        return x;
      }
      let u, v, s;
      do {
        u = 2 * random() - 1;
        v = 2 * random() - 1;
        s = u * u + v * v;
      } while (s >= 1 || s === 0);
      const factor = Math.sqrt((-2 * Math.log(s)) / s);
      spare = v * factor;
      return u * factor;
    };
  }

  /** N normals from NORMAL, times SCALE. */
  function drawn(normal, n, scale) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i += 1) out[i] = normal() * scale;
    return out;
  }

  /* ---- Data: data.draw_examples and data.teacher ----------------------------- */

  /** Softmax of SCORES (J) into WEIGHTS (J), the maximum subtracted as torch does. */
  function softmax(scores, weights, J) {
    let top = -Infinity;
    for (let j = 0; j < J; j += 1) top = Math.max(top, scores[j]);
    let total = 0;
    for (let j = 0; j < J; j += 1) {
      weights[j] = Math.exp(scores[j] - top);
      total += weights[j];
    }
    for (let j = 0; j < J; j += 1) weights[j] /= total;
  }

  /** An empty batch of COUNT examples with J records each. */
  function emptyBatch(count, J) {
    return { count, J, latents: new Float64Array(count * (1 + J) * D),
             request: new Float64Array(count * D), records: new Float64Array(count * J * D),
             target: new Float64Array(count * C) };
  }

  /** COUNT fresh examples from NORMAL, one record per key of SETTING.keys: latents
      z (count, 1 + J, 9) with every input's query latents scaled, their mixing x = zR
      (the request's, then the records'), and the teacher's target, the request's
      query latents attending over the records' payload latents with the same keys.
      Written into INTO (a batch of that size, refilled at every step), or a new one. */
  function drawExamples(normal, count, setting, into) {
    const { R, keys, queryScale } = setting;
    const J = keys.length / C;
    const batch = into || emptyBatch(count, J);
    const { latents, request, records, target } = batch;
    for (let i = 0; i < latents.length; i += 1) {
      latents[i] = i % D < QUERY ? normal() * queryScale : normal();
    }
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
      softmax(scores, weights, J);
      for (let c = 0; c < C; c += 1) {
        let sum = 0;
        for (let j = 0; j < J; j += 1) sum += weights[j] * latents[z + (1 + j) * D + QUERY + c];
        target[b * C + c] = sum;
      }
    }
    return batch;
  }

  /* ---- The student: forward pass, MSE and its gradients ---------------------- */

  /** The student's MSE on BATCH and, if GRADS is given ({W_Q, W_V, keys}, zeroed
      here), its gradient with respect to W_Q, W_V and the keys.

      Forward, per example (model.py): q = x_req W_Q (3), s_j = q . k_j / √3,
      a = softmax(s) (J), v_j = x_j W_V (3), ŷ = Σ_j a_j v_j (3); the loss is the
      mean of (ŷ - y)² over the B examples and 3 coordinates. Backward, with
      g = ∂L/∂ŷ = 2 (ŷ - y) / 3B:
        ∂L/∂W_V = Σ_j x_jᵀ (a_j g)
        ∂L/∂s_j = a_j (g . v_j - Σ_k a_k g . v_k)        softmax's Jacobian
        ∂L/∂q = Σ_j ∂L/∂s_j k_j / √3,  ∂L/∂W_Q = x_reqᵀ ∂L/∂q
        ∂L/∂k_j = ∂L/∂s_j q / √3                          (learned keys only) */
  function lossAndGradients(params, batch, grads) {
    const { W_Q, W_V, keys } = params;
    const { count: B, J, request, records, target } = batch;
    if (grads) [grads.W_Q, grads.W_V, grads.keys].forEach((g) => g.fill(0));
    const q = new Float64Array(C);
    const scores = new Float64Array(J);
    const a = new Float64Array(J);
    const v = new Float64Array(J * C); // (J, 3): this example's values
    const g = new Float64Array(C);
    const gv = new Float64Array(J); // g . v_j
    const dq = new Float64Array(C);
    const scale = 2 / (C * B);
    let sse = 0;
    for (let b = 0; b < B; b += 1) {
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
      softmax(scores, a, J);
      for (let c = 0; c < C; c += 1) {
        let prediction = 0;
        for (let j = 0; j < J; j += 1) prediction += a[j] * v[j * C + c];
        const residual = prediction - target[b * C + c];
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

  /* ---- Optimisers ------------------------------------------------------------ */

  /** torch.optim.SGD(params, lr): p ← p - lr ∂L/∂p (no momentum, no weight decay). */
  function sgd(lr) {
    return {
      step(params, grads) {
        for (const [p, grad] of params.map((param, k) => [param, grads[k]])) {
          for (let i = 0; i < p.length; i += 1) p[i] -= lr * grad[i];
        }
      },
    };
  }

  /** experiment/adam.py's Adam (torch.optim.Adam's default path), the same float
      operations in the same order: one step count, and per entry a first moment m
      and a second moment u. */
  function adam(lr, betas, eps, sizes) {
    const [beta1, beta2] = betas;
    const m = sizes.map((n) => new Float64Array(n));
    const u = sizes.map((n) => new Float64Array(n));
    let steps = 0;
    return {
      step(params, grads) {
        steps += 1;
        const stepSize = lr / (1 - beta1 ** steps);
        const biasCorrection2Sqrt = Math.sqrt(1 - beta2 ** steps);
        params.forEach((p, k) => {
          const grad = grads[k], mk = m[k], uk = u[k];
          for (let i = 0; i < p.length; i += 1) {
            mk[i] += (1 - beta1) * (grad[i] - mk[i]); // exp_avg.lerp_(grad, 1 - beta1)
            uk[i] = uk[i] * beta2 + (1 - beta2) * grad[i] * grad[i]; // mul_, addcmul_
            const denom = Math.sqrt(uk[i]) / biasCorrection2Sqrt + eps;
            p[i] -= stepSize * (mk[i] / denom); // addcdiv_(exp_avg, denom, -step_size)
          }
        });
      },
    };
  }

  /** The optimiser CHOICE names ({name: "adam" | "sgd", lr, betas, eps}) for parameters
      of SIZES. */
  function optimiser(choice, sizes) {
    if (choice.name === "adam") return adam(choice.lr, choice.betas, choice.eps, sizes);
    if (choice.name === "sgd") return sgd(choice.lr);
    throw new Error(`unknown optimiser ${choice.name}`);
  }

  /* ---- Training ---------------------------------------------------------------- */

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
      /** One update from BATCH (train.train_step); the loss before it. */
      step(batch) {
        const loss = lossAndGradients(params, batch, grads);
        optimiserOfIt.step(trained, gradsOf);
        return loss;
      },
    };
  }

  // The three students of the article (experiment/variants.py): which keys the teacher
  // and the student use, and whether the student learns its own.
  const VARIANTS = {
    four: { keys: 4, learnKeys: false },
    learned: { keys: 4, learnKeys: true },
    three: { keys: 3, learnKeys: false },
  };

  /** A training run as the playground makes it: RUN holds the run's settings (R,
      fixedKeys (4, 3), initScale, keyInitScale, queryScale, batchSize, heldoutSize,
      betas, eps); CHOICE the reader's (variant, optimiser, lr, seed). The seed's
      training stream draws W_Q, then W_V, then one batch per step; the learned keys
      come from its keys stream, the held-out examples from its held-out stream. */
  function training(run, choice) {
    const variant = VARIANTS[choice.variant];
    const setting = { R: run.R, keys: run.fixedKeys.slice(0, variant.keys * C),
                      queryScale: run.queryScale };
    const stream = normals(choice.seed, "training");
    const W_Q = drawn(stream, D * C, run.initScale);
    const W_V = drawn(stream, D * C, run.initScale);
    const keys = variant.learnKeys
      ? drawn(normals(choice.seed, "keys"), setting.keys.length, run.keyInitScale)
      : setting.keys;
    const trainee = student(W_Q, W_V, keys, variant.learnKeys,
                            { name: choice.optimiser, lr: choice.lr, betas: run.betas,
                              eps: run.eps });
    const heldout = drawExamples(normals(choice.seed, "heldout"), run.heldoutSize, setting);
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
      with weight 1/J (measure.py's uniform_attention_mse). */
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
  function response(R, W) {
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
  function invisibleDeparture(queryResponse, direction) {
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
  function trainOnBatches(spec) {
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
  function examples(seed, stream, count, R, keys, queryScale) {
    const batch = drawExamples(normals(seed, stream), count,
                               { R: flat(R), keys: flat(keys), queryScale });
    const rows = nested(batch.latents, D); // (count (1 + J), 9) ...
    const inputs = 1 + keys.length; // ... into (count, 1 + J, 9)
    const latents = Array.from({ length: count },
                               (_, b) => rows.slice(b * inputs, (b + 1) * inputs));
    return { latents, request: nested(batch.request, D), target: nested(batch.target, C) };
  }

  const api = { D, C, VARIANTS, training, response, invisibleDeparture, trainOnBatches,
                examples };
  window.AttentionSite.playgroundModel = api;
})();
