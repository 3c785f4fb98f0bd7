/* The arithmetic that the widgets share, in float64 (JS numbers): matrix products,
   softmax, seeded random numbers, and the two optimisers of the training playground.
   Pure functions, no DOM. */

/* ---- Matrices: nested arrays, row by row ------------------------------------ */

/** The transpose of A (m, n): (n, m). */
export const transpose = (A) => A[0].map((_, c) => A.map((row) => row[c]));

/** A B for A (m, k) and B (k, n): (m, n). */
export const matmul = (A, B) =>
  A.map((row) => B[0].map((_, c) => row.reduce((sum, a, k) => sum + a * B[k][c], 0)));

/** The mean of the squared differences of A and B, two vectors of one length. */
export const mse = (a, b) => a.reduce((sum, x, k) => sum + (x - b[k]) ** 2, 0) / a.length;

/* ---- Softmax: on arrays or typed arrays -------------------------------------- */

/** e^(s - max s) of each score s into INTO (a new array by default). Subtracting the
    largest changes no softmax and keeps e^s from overflowing; a masked score of
    -Infinity gives 0. */
export function exponentials(scores, into = new Array(scores.length)) {
  const n = scores.length;
  let top = -Infinity;
  for (let j = 0; j < n; j += 1) top = Math.max(top, scores[j]);
  for (let j = 0; j < n; j += 1) into[j] = Math.exp(scores[j] - top);
  return into;
}

/** The softmax of SCORES into INTO (a new array by default), as torch computes it. */
export function softmax(scores, into = new Array(scores.length)) {
  exponentials(scores, into);
  const n = scores.length;
  let total = 0;
  for (let j = 0; j < n; j += 1) total += into[j];
  for (let j = 0; j < n; j += 1) into[j] /= total;
  return into;
}

/* ---- Seeded random numbers ------------------------------------------------------ */

/** A seeded uniform generator on [0, 1): mulberry32, in 32-bit integer arithmetic. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normals from the uniform generator RANDOM, one per call, in pairs:
    Marsaglia's polar method (Box-Muller without its sine and cosine, the larger part
    of the time of a training step; a point outside the unit disc, a fifth of them, is
    drawn again). */
export function normals(random) {
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

/* ---- Optimisers: in place, on lists of flat Float64Arrays ------------------------- */

/** torch.optim.SGD(params, lr): p ← p - lr ∂L/∂p (no momentum, no weight decay). */
export function sgd(lr) {
  return {
    step(params, grads) {
      params.forEach((p, k) => {
        const grad = grads[k];
        for (let i = 0; i < p.length; i += 1) p[i] -= lr * grad[i];
      });
    },
  };
}

/** torch.optim.Adam's update (its default path), the same float
    operations in the same order, for parameters of SIZES: one step count, and per
    entry a first moment m and a second moment u. */
export function adam(lr, betas, eps, sizes) {
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
