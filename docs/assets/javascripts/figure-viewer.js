/* The figure viewer: every figure in an article opens at full size in a modal
   <dialog>. Zoom with the wheel, a pinch or + and −; pan by dragging or with the
   arrow keys; 0 fits the figure again; Esc closes and returns focus to the figure.

   Why not GLightbox (mkdocs-glightbox): it zooms only between two fixed sizes,
   its arrow keys change slides instead of panning, it has no wheel or +/− zoom,
   it does not return focus on closing, and its labels are English only. What it
   would still do here, opening an overlay, is a few lines with <dialog>.

   Zooming changes the image's layout size, never a CSS scale, so that an SVG is
   drawn again at every size: sharp at any zoom.

   A figure drawn twice, for a light and a dark page (Material's #only-light and
   #only-dark), has two buttons; widgets.css hides the one whose image is hidden,
   so the viewer opens the figure the reader sees.

   Three parts: the view's arithmetic (pure functions), the dialog's DOM, and the
   wiring of buttons, keys, wheel and pointers to the view. The words come from
   the page (common.js's siteWords(), from the language's record). */
import { siteWords } from "./common.js";
import { el, svg, uid } from "./dom.js";

const MAX_ZOOM = 8; // times the fitted size
const STEP = 1.25; // one press of + or −
const PAN = 48; // pixels per arrow key press

/* ---- The view: the image's top-left corner at (x, y) in a stage of size
   {width, height}, at ZOOM times the size that fits the stage. ---- */

/** VIEW moved so that the image stays on screen, centred along an axis where it
    is smaller than STAGE. */
function clamp(view, stage) {
  const width = view.fitted.width * view.zoom;
  const height = view.fitted.height * view.zoom;
  const keep = (position, size, room) =>
    (size <= room ? (room - size) / 2 : Math.min(0, Math.max(room - size, position)));
  return { ...view, x: keep(view.x, width, stage.width), y: keep(view.y, height, stage.height) };
}

/** The view of an image of size NATURAL that fits STAGE whole, centred. */
function fit(natural, stage) {
  const scale = Math.min(stage.width / natural.width, stage.height / natural.height);
  const fitted = { width: natural.width * scale, height: natural.height * scale };
  return clamp({ zoom: 1, x: 0, y: 0, fitted }, stage);
}

/** VIEW zoomed by FACTOR (within 1 and MAX_ZOOM) about POINT of the stage, which
    stays where it is. */
function zoomAbout(view, factor, point, stage) {
  const zoom = Math.min(MAX_ZOOM, Math.max(1, view.zoom * factor));
  const ratio = zoom / view.zoom;
  return clamp({ ...view, zoom, x: point.x - (point.x - view.x) * ratio,
                 y: point.y - (point.y - view.y) * ratio }, stage);
}

function pan(view, dx, dy, stage) {
  return clamp({ ...view, x: view.x + dx, y: view.y + dy }, stage);
}

/** The centre of POINTS and, for two or more, the distance between the first two:
    a drag moves the centre, a pinch changes the spread. */
function gesture(points) {
  const centre = { x: points.reduce((s, p) => s + p.x, 0) / points.length,
                   y: points.reduce((s, p) => s + p.y, 0) / points.length };
  const spread = points.length > 1
    ? Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y) : 0;
  return { centre, spread };
}

/* ---- The dialog ---- */

const ICONS = { // Material Design icons, as Material for MkDocs ships them
  zoomIn: "M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19zm-6 0C7 14 5 12 5 9.5S7 5 9.5 5 14 7 14 9.5 12 14 9.5 14m.5-7H9v2H7v1h2v2h1v-2h2V9h-2z",
  zoomOut: "M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19zm-6 0C7 14 5 12 5 9.5S7 5 9.5 5 14 7 14 9.5 12 14 9.5 14M7 9h5v1H7z",
  fit: "M5 5h5v2H7v3H5zm9 0h5v5h-2V7h-3zm3 9h2v5h-5v-2h3zm-7 3v2H5v-5h2v3z",
  close: "M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z",
};

function icon(path) {
  const drawing = svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" });
  drawing.append(svg("path", { d: path }));
  return drawing;
}

function iconButton(name, label) {
  return el("button", { type: "button", class: `figure-viewer__button figure-viewer__${name}`,
                        "aria-label": label, title: label }, icon(ICONS[name]));
}

/** The dialog, not yet in the page: a bar with the caption, the help and the
    buttons, over a stage that holds the image. */
function buildDialog(words) {
  const titleId = uid("figure-viewer-title");
  const title = el("p", { class: "figure-viewer__title", id: titleId });
  const buttons = {};
  for (const name of ["zoomOut", "zoomIn", "fit", "close"]) {
    buttons[name] = iconButton(name, words[name]);
  }
  const image = el("img", { class: "figure-viewer__image", alt: "", draggable: "false" });
  const stage = el("div", { class: "figure-viewer__stage" }, image);
  const dialog = el("dialog", { class: "figure-viewer", "aria-labelledby": titleId,
                                tabindex: "-1" },
    el("div", { class: "figure-viewer__bar" },
      el("div", { class: "figure-viewer__text" }, title,
         el("p", { class: "figure-viewer__help" }, words.help)),
      el("div", { class: "figure-viewer__buttons" }, ...Object.values(buttons))),
    stage);
  return { dialog, title, image, stage, buttons };
}

/** Lay the image out at VIEW's size and place (never a CSS scale). */
function draw(parts, view) {
  const { image, dialog, buttons } = parts;
  image.style.width = `${view.fitted.width * view.zoom}px`;
  image.style.height = `${view.fitted.height * view.zoom}px`;
  image.style.transform = `translate(${Math.round(view.x)}px, ${Math.round(view.y)}px)`;
  dialog.dataset.zoom = String(view.zoom);
  buttons.zoomIn.disabled = view.zoom >= MAX_ZOOM;
  buttons.zoomOut.disabled = view.zoom <= 1;
}

/* ---- Wiring: each input calls the viewer's ACTIONS ---- */

function wireButtons(buttons, actions) {
  buttons.zoomIn.addEventListener("click", () => actions.zoom(STEP));
  buttons.zoomOut.addEventListener("click", () => actions.zoom(1 / STEP));
  buttons.fit.addEventListener("click", actions.fit);
  buttons.close.addEventListener("click", actions.close);
}

function wireKeys(dialog, actions) {
  const keys = {
    "+": () => actions.zoom(STEP), "=": () => actions.zoom(STEP),
    "-": () => actions.zoom(1 / STEP), "−": () => actions.zoom(1 / STEP),
    "_": () => actions.zoom(1 / STEP), "0": actions.fit,
    ArrowLeft: () => actions.pan(PAN, 0), ArrowRight: () => actions.pan(-PAN, 0),
    ArrowUp: () => actions.pan(0, PAN), ArrowDown: () => actions.pan(0, -PAN),
  };
  dialog.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const action = keys[event.key];
    if (!action) return; // Esc: the dialog's own cancel closes it
    event.preventDefault();
    action();
  });
}

function stagePoint(stage, event) {
  const box = stage.getBoundingClientRect();
  return { x: event.clientX - box.left, y: event.clientY - box.top };
}

function wireWheel(stage, actions) {
  stage.addEventListener("wheel", (event) => {
    event.preventDefault();
    // A trackpad pinch arrives as a wheel event with ctrlKey and small deltas.
    const speed = event.ctrlKey ? 0.01 : 0.002;
    actions.zoom(Math.exp(-event.deltaY * speed), stagePoint(stage, event));
  }, { passive: false });
}

/** Drag with one pointer, pinch with two. */
function wirePointers(stage, actions) {
  const pointers = new Map();
  let last = null;
  stage.addEventListener("pointerdown", (event) => {
    stage.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, stagePoint(stage, event));
    last = gesture([...pointers.values()]);
    stage.classList.add("is-dragging");
  });
  stage.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, stagePoint(stage, event));
    const now = gesture([...pointers.values()]);
    if (last.spread > 0 && now.spread > 0) actions.zoom(now.spread / last.spread, now.centre);
    actions.pan(now.centre.x - last.centre.x, now.centre.y - last.centre.y);
    last = now;
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    last = pointers.size ? gesture([...pointers.values()]) : null;
    if (!pointers.size) stage.classList.remove("is-dragging");
  };
  stage.addEventListener("pointerup", release);
  stage.addEventListener("pointercancel", release);
}

/* ---- The viewer: one dialog per page, made on first use ---- */

function createViewer(words) {
  const parts = buildDialog(words);
  document.body.append(parts.dialog);
  const { dialog, image, stage } = parts;
  let view = null;
  let opener = null;

  const stageSize = () => ({ width: stage.clientWidth, height: stage.clientHeight });
  const show = (next) => { view = next; draw(parts, view); };
  const actions = {
    fit() {
      const room = stageSize();
      show(fit({ width: image.naturalWidth || room.width,
                 height: image.naturalHeight || room.height }, room));
    },
    zoom(factor, point) {
      const room = stageSize();
      show(zoomAbout(view, factor, point || { x: room.width / 2, y: room.height / 2 }, room));
    },
    pan: (dx, dy) => show(pan(view, dx, dy, stageSize())),
    close: () => dialog.close(),
  };
  wireButtons(parts.buttons, actions);
  wireKeys(dialog, actions);
  wireWheel(stage, actions);
  wirePointers(stage, actions);
  window.addEventListener("resize", () => { if (dialog.open) actions.fit(); });
  dialog.addEventListener("close", () => {
    document.documentElement.classList.remove("figure-viewer-open");
    if (opener) opener.focus();
    opener = null;
  });

  return {
    open(figure, button) {
      opener = button;
      parts.title.textContent = figure.caption;
      image.alt = figure.alt;
      image.style.width = image.style.height = "";
      const shown = new Promise((resolve) => {
        image.onload = image.onerror = resolve;
      });
      image.src = figure.src;
      document.documentElement.classList.add("figure-viewer-open");
      dialog.showModal();
      dialog.focus();
      if (image.complete && image.naturalWidth) actions.fit();
      else shown.then(actions.fit);
    },
  };
}

/* ---- The page: every figure becomes a button that opens it ---- */

function caption(img) {
  const figure = img.closest("figure");
  const figcaption = figure && figure.querySelector("figcaption");
  return (figcaption ? figcaption.textContent : img.alt).trim();
}

/** IMG's file without Material's #only-light / #only-dark, which would hide it in
    the dialog in the other scheme. */
function source(img) {
  const url = new URL(img.currentSrc || img.src, document.baseURI);
  url.hash = "";
  return url.href;
}

/** Every figure of the page's article as a button that opens it. */
export function start() {
  const words = siteWords().figureViewer;
  let viewer = null;
  const images = document.querySelectorAll(".md-content article img:not(.figure-viewer__image)");
  for (const img of images) {
    if (img.closest("a, button, .figure-open") || img.classList.contains("twemoji")) continue;
    const button = el("button", { type: "button", class: "figure-open",
                                  "aria-haspopup": "dialog" });
    img.replaceWith(button);
    button.append(img, el("span", { class: "visually-hidden" }, ` ${words.open}`));
    button.addEventListener("click", () => {
      viewer = viewer || createViewer(words);
      viewer.open({ src: source(img), alt: img.alt, caption: caption(img) }, button);
    });
  }
}
