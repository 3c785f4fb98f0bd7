/* The bank model's sense plane as the attention article's widgets draw it (the
   calculator, the value swap): the square [0, LIMIT]² with a grid, ticks at the whole
   numbers, the diagonal on which "bank" is undecided, and the two axes named after the
   senses. The article's figures draw the same plane (examples/bank_figures.py). y
   points up: a point (x, y) is drawn at (x, -y). */
import { fix } from "./common.js";
import { svg, svgText as text } from "./dom.js";

/** The plane's extent: "bank" moves by up to about 2.2 along a sense. */
export const LIMIT = 2.4;
const GRID = 0.5; // the grid's spacing
const TICKS = [1, 2]; // numbered along both axes; one 0 stands at the corner
const NAME_ROOM = 0.46; // room for the ticks and the axes' names, left of the plane and below

/** An <svg> of the plane with the class CLASS_NAME, its axes named SENSES. */
export function sensePlane(className, senses) {
  const size = LIMIT + NAME_ROOM + 0.08;
  const root = svg("svg", { viewBox: `${-NAME_ROOM} ${-LIMIT - 0.08} ${size} ${size}`,
                            class: `sense-plane ${className}`, "aria-hidden": "true" });
  for (let t = GRID; t <= LIMIT + 1e-9; t += GRID) {
    root.append(svg("line", { x1: t, y1: 0, x2: t, y2: -LIMIT, class: "sense-plane__grid" }),
                svg("line", { x1: 0, y1: -t, x2: LIMIT, y2: -t, class: "sense-plane__grid" }));
  }
  root.append(
    svg("line", { x1: 0, y1: 0, x2: LIMIT, y2: 0, class: "sense-plane__axis" }),
    svg("line", { x1: 0, y1: 0, x2: 0, y2: -LIMIT, class: "sense-plane__axis" }),
    svg("line", { x1: 0, y1: 0, x2: LIMIT, y2: -LIMIT, class: "sense-plane__diagonal" }));
  const tick = { class: "sense-plane__tick" };
  root.append(text({ ...tick, x: -0.04, y: 0.12, "text-anchor": "end" }, fix(0, 0)),
    ...TICKS.flatMap((t) => [
      text({ ...tick, x: t, y: 0.12, "text-anchor": "middle" }, fix(t, 0)),
      text({ ...tick, x: -0.04, y: -t + 0.035, "text-anchor": "end" }, fix(t, 0))]));
  root.append(
    text({ x: LIMIT / 2, y: NAME_ROOM * 0.8, "text-anchor": "middle",
           class: "sense-plane__name" }, senses[0]),
    text({ x: 0, y: 0, "text-anchor": "middle", class: "sense-plane__name",
           transform: `translate(${-NAME_ROOM * 0.62} ${-LIMIT / 2}) rotate(-90)` }, senses[1]));
  return root;
}

/* Where a label may stand beside its point, in the order tried: above and to the
   right, below and to the right, then the left-hand side, then straight above and
   below, then the same a line further out. Each is the offset of the label's anchor from the point, the label's
   text-anchor, and its baseline's distance below that offset (plane units). */
const SPOTS = [[0.06, 0.06, "start", 0], [0.06, -0.06, "start", 0.1],
               [-0.06, 0.06, "end", 0], [-0.06, -0.06, "end", 0.1],
               [0, 0.1, "middle", 0], [0, -0.1, "middle", 0.1],
               [0.06, 0.22, "start", 0], [0.06, -0.22, "start", 0.1],
               [-0.06, 0.22, "end", 0], [-0.06, -0.22, "end", 0.1]];

/** The box of LABEL in the plane's coordinates, y up: [x0, x1, y0, y1]. */
function box(label) {
  const b = label.getBBox();
  return [b.x, b.x + b.width, -(b.y + b.height), -b.y];
}

const inside = ([x0, x1, y0, y1]) => x0 >= 0.02 && x1 <= LIMIT && y0 >= 0.02 && y1 <= LIMIT;
// The diagonal y = x runs through a box whose x and y ranges overlap.
const offDiagonal = ([x0, x1, y0, y1]) => x1 < y0 || y1 < x0;
const apart = (a, b) => a[1] <= b[0] || b[1] <= a[0] || a[3] <= b[2] || b[3] <= a[2];

/** Whether the segment from A to B crosses the box [x0, x1, y0, y1]: the part of it
    left once clipped to the box's x range, then its y range, is not empty. */
function crosses([x0, x1, y0, y1], [[ax, ay], [bx, by]]) {
  let [t0, t1] = [0, 1];
  for (const [from, step, low, high] of [[ax, bx - ax, x0, x1], [ay, by - ay, y0, y1]]) {
    if (step === 0) {
      if (from < low || from > high) return false;
    } else {
      const [ta, tb] = [(low - from) / step, (high - from) / step];
      t0 = Math.max(t0, Math.min(ta, tb));
      t1 = Math.min(t1, Math.max(ta, tb));
    }
  }
  return t0 <= t1;
}

/** Each of LABELS ([label, [x, y]], in order of importance) beside its point, at the
    first spot that keeps it inside the plane, off the diagonal, clear of the labels
    placed before it and uncrossed by SEGMENTS ([[x1, y1], [x2, y2]] each, the lines
    drawn in the plane); where none does, at the first that meets all but the last,
    and where none does that, at the first spot inside the plane. Where a
    label finds no such spot, the labels are placed once more with the ones that found
    none first, and that second try stands if it leaves fewer without one. */
export function placeLabels(labels, segments = []) {
  const missed = place(labels, segments);
  if (!missed.length) return;
  const again = [...missed, ...labels.filter((entry) => !missed.includes(entry))];
  if (place(again, segments).length >= missed.length) place(labels, segments);
}

/** placeLabels' one try, in the order of LABELS: the entries that found no spot. */
function place(labels, segments) {
  const placed = [];
  const missed = [];
  labels.forEach((entry) => {
    const [label, [x, y]] = entry;
    const at = ([dx, dy, anchor, down]) => {
      label.setAttribute("x", x + dx);
      label.setAttribute("y", -(y + dy) + down);
      label.setAttribute("text-anchor", anchor);
      return box(label);
    };
    const fits = (avoided) => (spot) => {
      const b = at(spot);
      return inside(b) && offDiagonal(b) && placed.every((other) => apart(b, other))
        && !avoided.some((segment) => crosses(b, segment));
    };
    let spot = SPOTS.find(fits(segments));
    if (!spot) {
      missed.push(entry);
      spot = SPOTS.find(fits([])) || SPOTS.find((s) => inside(at(s))) || SPOTS[0];
    }
    placed.push(at(spot));
  });
  return missed;
}
