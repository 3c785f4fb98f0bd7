/* Building the widgets' elements: HTML and SVG elements with their attributes, the
   articles' subscripted names, page-unique ids, and boxes that scroll sideways. */

/** An element with attributes and children: el("td", {class: "x"}, "text", child). */
export function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with attributes: svg("line", {x1: 0, y1: 0}). */
export function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  return node;
}

/** An SVG <text> with attributes and CONTENT: svgText({x: 0, y: 0}, "u"). */
export function svgText(attributes, content) {
  const node = svg("text", attributes);
  node.textContent = content;
  return node;
}

/** TEXT as nodes, with "W_V" or "a_j" drawn as an italic letter and its subscript,
    as the articles' formulas show them. */
export function rich(text) {
  const fragment = document.createDocumentFragment();
  const pattern = /([A-Za-zŷ])_([A-Za-z0-9]+)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    fragment.append(text.slice(last, match.index),
                    el("i", {}, match[1]), el("sub", {}, match[2]));
    last = match.index + match[0].length;
  }
  fragment.append(text.slice(last));
  return fragment;
}

let counter = 0;
/** A page-unique id for aria-labelledby and label[for]. */
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** BOX scrolls sideways when its content is wider: then it takes keyboard focus, so
    that a reader without a mouse can scroll it too (axe: scrollable-region-focusable),
    and a name, so that a screen reader says what the stop is: the caption of the table
    it holds, or LABEL. A box already watched is left as it is. */
export function keyboardScrollable(box, label = null) {
  if ("sideways" in box.dataset) return;
  box.dataset.sideways = "";
  const name = box.querySelector("caption")?.textContent.trim() || label;
  const update = () => {
    const wide = box.scrollWidth > box.clientWidth;
    if (wide && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      // A group, not a region: a landmark would need a name unique on the page.
      if (name) box.setAttribute("role", "group");
      if (name) box.setAttribute("aria-label", name);
    }
    if (!wide && box.getAttribute("tabindex") === "0") {
      ["tabindex", "role", "aria-label"].forEach((attribute) => box.removeAttribute(attribute));
    }
  };
  update();
  new ResizeObserver(update).observe(box);
}

/** CONTAINER showing WIDGET in place of its static content, which stays in the page,
    hidden, for a reader without JavaScript; KEEP (a child) stays shown, and WIDGET
    goes before it. The container is marked enhanced (run-files.js's enhance). */
export function replaceStatic(container, widget, keep = null) {
  Array.from(container.children).forEach((node) => { node.hidden = node !== keep; });
  container.insertBefore(widget, keep);
  container.classList.add("is-enhanced");
}
