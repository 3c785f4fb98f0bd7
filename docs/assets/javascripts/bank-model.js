/* The bank model's arithmetic, for the attention article's calculator and value
   swap: examples/bank.py's head(), line for line, on plain arrays; the softmax is
   maths.js's. The widgets' browser tests hold both to that Python to 1e-9. Pure
   functions, no DOM. */
import { exponentials as shifted, matmul, softmax, transpose } from "./maths.js";

/** One causal (or not) attention head on the rows of X, with every stage. */
export function head(X, W_Q, W_K, W_V, temperature = 1, causal = true) {
  const [Q, K, V] = [matmul(X, W_Q), matmul(X, W_K), matmul(X, W_V)];
  const d_k = K[0].length;
  const scores = matmul(Q, transpose(K)); // (n, n): row i = query i, column j = key j
  const masked = scores.map((row, i) => row.map((s, j) =>
    (causal && j > i ? -Infinity : s / (Math.sqrt(d_k) * temperature))));
  const exponentials = masked.map((row) => shifted(row)); // e^-inf = 0: masked
  const weights = masked.map((row) => softmax(row));
  const weighted = weights.map((row) => row.map((a, j) => V[j].map((v) => a * v)));
  const H = weighted.map((row) =>
    V[0].map((_, c) => row.reduce((sum, term) => sum + term[c], 0)));
  return { Q, K, V, scores, masked, exponentials, weights, weighted, H };
}

/** The embeddings of a sentence's ROLES, (n, 4); PLANE replaces the look coordinates. */
export function embed(model, roles, plane) {
  return roles.map((role, i) => {
    const e = model.embeddings[role].slice();
    if (plane) [e[0], e[1]] = plane[i];
    return e;
  });
}

/** The calculator: head 1 on ROLES with look coordinates PLANE; "bank"'s output h
    and its sense coordinates after the residual add (examples/bank.py, calculator). */
export function calculator(model, roles, plane, temperature, causal) {
  const X = embed(model, roles, plane);
  const stages = head(X, model.W_Q, model.W_K, model.W_V, temperature, causal);
  const ambiguous = roles.indexOf("ambiguous");
  const h = stages.H[ambiguous];
  const written = matmul([h], model.W_O)[0]; // (d,): h written into the sense plane
  const sense = [X[ambiguous][2] + written[2], X[ambiguous][3] + written[3]];
  return { ...stages, h, sense };
}

/** W_V with its columns in ORDER: column i of the result is column ORDER[i]. */
const columns = (W, order) => W.map((row) => order.map((c) => row[c]));

/** "bank" in one sentence, with W_V as built or with its two columns swapped. */
export function update(model, roles, swapped) {
  const X = embed(model, roles);
  const W_V = swapped ? columns(model.W_V, [1, 0]) : model.W_V;
  const stages = head(X, model.W_Q, model.W_K, W_V);
  const ambiguous = roles.indexOf("ambiguous");
  const h = stages.H[ambiguous];
  const written = matmul([h], model.W_O)[0];
  return { weights: stages.weights[ambiguous], h,
           sense_after: [X[ambiguous][2] + written[2], X[ambiguous][3] + written[3]] };
}

/** The inverse of a 2 x 2 matrix, or null if it has none. */
export function inverse2([[a, b], [c, d]]) {
  const det = a * d - b * c;
  return det === 0 ? null : [[d / det, -b / det], [-c / det, a / det]];
}

