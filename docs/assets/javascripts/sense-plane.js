/* The bank model's sense plane as the attention article's widgets draw it (the
   calculator, the value swap): the square [0, LIMIT]² with a grid, the diagonal on
   which "bank" is undecided, and the two axes named after the senses. The
   article's figures draw the same plane (examples/bank_figures.py). y points up:
   a point (x, y) is drawn at (x, -y). */
import { svg } from "./dom.js";

/** The plane's extent: "bank" moves by up to about 2.2 along a sense. */
export const LIMIT = 2.4;
const GRID = 0.5; // the grid's spacing
const NAME_ROOM = 0.34; // room for the axes' names, left of the plane and below it

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
  const across = svg("text", { x: LIMIT / 2, y: NAME_ROOM * 0.7, "text-anchor": "middle",
                               class: "sense-plane__name" });
  across.textContent = senses[0];
  const up = svg("text", { x: 0, y: 0, "text-anchor": "middle", class: "sense-plane__name",
                           transform: `translate(${-NAME_ROOM * 0.4} ${-LIMIT / 2}) rotate(-90)` });
  up.textContent = senses[1];
  root.append(across, up);
  return root;
}
