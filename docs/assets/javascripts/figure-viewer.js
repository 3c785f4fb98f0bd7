/* The figure viewer: every figure in an article opens at full size in a modal
   <dialog>. Zoom with the wheel, a pinch or + and −; pan by dragging or with the
   arrow keys; 0 fits the figure again; Esc closes and returns focus to the figure.

   Why not GLightbox (mkdocs-glightbox): it zooms only between two fixed sizes,
   its arrow keys change slides instead of panning, it has no wheel or +/− zoom,
   it does not return focus on closing, and its labels are English only. What it
   would still do here, opening an overlay, is a few lines with <dialog>.

   Zooming changes the image's layout size, never a CSS scale, so that an SVG is
   drawn again at every size: sharp at any zoom. */
(function () {
  "use strict";
  const { el, uid, ready, words } = window.AttentionSite;

  const LABELS = words({
    en: {
      open: "(open at full size)",
      help: "Zoom: wheel, pinch, + or −. Move: drag or arrow keys. 0: fit. Esc: close.",
      zoomIn: "Zoom in", zoomOut: "Zoom out", fit: "Fit to the window", close: "Close",
    },
    uk: {
      open: "(відкрити на весь екран)",
      help: "Масштаб: коліщатко, щипок, + або −. Зсув: перетягування або стрілки. 0: вмістити. Esc: закрити.",
      zoomIn: "Збільшити", zoomOut: "Зменшити", fit: "Вмістити у вікно", close: "Закрити",
    },
    sv: {
      open: "(öppna i full storlek)",
      help: "Zoom: scrollhjul, nypning, + eller −. Flytta: dra eller piltangenter. 0: anpassa. Esc: stäng.",
      zoomIn: "Zooma in", zoomOut: "Zooma ut", fit: "Anpassa till fönstret", close: "Stäng",
    },
  });

  const MAX_ZOOM = 8; // times the fitted size
  const STEP = 1.25; // one press of + or −
  const PAN = 48; // pixels per arrow key press

  const ICONS = { // Material Design icons, as Material for MkDocs ships them
    zoomIn: "M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19zm-6 0C7 14 5 12 5 9.5S7 5 9.5 5 14 7 14 9.5 12 14 9.5 14m.5-7H9v2H7v1h2v2h1v-2h2V9h-2z",
    zoomOut: "M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19zm-6 0C7 14 5 12 5 9.5S7 5 9.5 5 14 7 14 9.5 12 14 9.5 14M7 9h5v1H7z",
    fit: "M5 5h5v2H7v3H5zm9 0h5v5h-2V7h-3zm3 9h2v5h-5v-2h3zm-7 3v2H5v-5h2v3z",
    close: "M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z",
  };

  function icon(path) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    const shape = document.createElementNS("http://www.w3.org/2000/svg", "path");
    shape.setAttribute("d", path);
    svg.append(shape);
    return svg;
  }

  function iconButton(name) {
    return el("button", { type: "button", class: `figure-viewer__button figure-viewer__${name}`,
                          "aria-label": LABELS[name], title: LABELS[name] }, icon(ICONS[name]));
  }

  /** The one dialog of the page, made on first use. */
  function createViewer() {
    const titleId = uid("figure-viewer-title");
    const title = el("p", { class: "figure-viewer__title", id: titleId });
    const buttons = { zoomOut: iconButton("zoomOut"), zoomIn: iconButton("zoomIn"),
                      fit: iconButton("fit"), close: iconButton("close") };
    const image = el("img", { class: "figure-viewer__image", alt: "", draggable: "false" });
    const stage = el("div", { class: "figure-viewer__stage" }, image);
    const dialog = el("dialog", { class: "figure-viewer", "aria-labelledby": titleId,
                                  tabindex: "-1" },
      el("div", { class: "figure-viewer__bar" },
        el("div", { class: "figure-viewer__text" }, title,
           el("p", { class: "figure-viewer__help" }, LABELS.help)),
        el("div", { class: "figure-viewer__buttons" },
           buttons.zoomOut, buttons.zoomIn, buttons.fit, buttons.close)),
      stage);
    document.body.append(dialog);

    // View: the image's top-left corner at (x, y) in the stage, at ZOOM times the fitted size.
    const view = { zoom: 1, x: 0, y: 0, fitted: { width: 1, height: 1 } };
    let opener = null;

    function stageSize() {
      return { width: stage.clientWidth, height: stage.clientHeight };
    }

    /** Keep the image on screen: centred along an axis where it is smaller than the stage. */
    function clamp() {
      const { width, height } = stageSize();
      const w = view.fitted.width * view.zoom;
      const h = view.fitted.height * view.zoom;
      view.x = w <= width ? (width - w) / 2 : Math.min(0, Math.max(width - w, view.x));
      view.y = h <= height ? (height - h) / 2 : Math.min(0, Math.max(height - h, view.y));
    }

    function apply() {
      clamp();
      image.style.width = `${view.fitted.width * view.zoom}px`;
      image.style.height = `${view.fitted.height * view.zoom}px`;
      image.style.transform = `translate(${Math.round(view.x)}px, ${Math.round(view.y)}px)`;
      dialog.dataset.zoom = String(view.zoom);
      buttons.zoomIn.disabled = view.zoom >= MAX_ZOOM;
      buttons.zoomOut.disabled = view.zoom <= 1;
    }

    function fit() {
      const { width, height } = stageSize();
      const naturalWidth = image.naturalWidth || width;
      const naturalHeight = image.naturalHeight || height;
      const scale = Math.min(width / naturalWidth, height / naturalHeight);
      view.fitted = { width: naturalWidth * scale, height: naturalHeight * scale };
      view.zoom = 1;
      apply();
    }

    /** Zoom by FACTOR about the stage point (px, py), which stays where it is. */
    function zoomAbout(factor, px, py) {
      const zoom = Math.min(MAX_ZOOM, Math.max(1, view.zoom * factor));
      const ratio = zoom / view.zoom;
      view.x = px - (px - view.x) * ratio;
      view.y = py - (py - view.y) * ratio;
      view.zoom = zoom;
      apply();
    }

    function zoomCentre(factor) {
      const { width, height } = stageSize();
      zoomAbout(factor, width / 2, height / 2);
    }

    function pan(dx, dy) {
      view.x += dx;
      view.y += dy;
      apply();
    }

    function stagePoint(event) {
      const box = stage.getBoundingClientRect();
      return { x: event.clientX - box.left, y: event.clientY - box.top };
    }

    buttons.zoomIn.addEventListener("click", () => zoomCentre(STEP));
    buttons.zoomOut.addEventListener("click", () => zoomCentre(1 / STEP));
    buttons.fit.addEventListener("click", fit);
    buttons.close.addEventListener("click", () => dialog.close());

    dialog.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const actions = {
        "+": () => zoomCentre(STEP), "=": () => zoomCentre(STEP),
        "-": () => zoomCentre(1 / STEP), "−": () => zoomCentre(1 / STEP),
        "_": () => zoomCentre(1 / STEP), "0": fit,
        ArrowLeft: () => pan(PAN, 0), ArrowRight: () => pan(-PAN, 0),
        ArrowUp: () => pan(0, PAN), ArrowDown: () => pan(0, -PAN),
      };
      const action = actions[event.key];
      if (!action) return; // Esc: the dialog's own cancel closes it
      event.preventDefault();
      action();
    });

    stage.addEventListener("wheel", (event) => {
      event.preventDefault();
      const point = stagePoint(event);
      // A trackpad pinch arrives as a wheel event with ctrlKey and small deltas.
      const speed = event.ctrlKey ? 0.01 : 0.002;
      zoomAbout(Math.exp(-event.deltaY * speed), point.x, point.y);
    }, { passive: false });

    // Drag with one pointer, pinch with two.
    const pointers = new Map();
    let gesture = null;
    function gestureState() {
      const points = Array.from(pointers.values());
      const centre = { x: points.reduce((s, p) => s + p.x, 0) / points.length,
                       y: points.reduce((s, p) => s + p.y, 0) / points.length };
      const spread = points.length > 1
        ? Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y) : 0;
      return { centre, spread };
    }
    stage.addEventListener("pointerdown", (event) => {
      stage.setPointerCapture(event.pointerId);
      pointers.set(event.pointerId, stagePoint(event));
      gesture = gestureState();
      stage.classList.add("is-dragging");
    });
    stage.addEventListener("pointermove", (event) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, stagePoint(event));
      const now = gestureState();
      if (gesture.spread > 0 && now.spread > 0) {
        zoomAbout(now.spread / gesture.spread, now.centre.x, now.centre.y);
      }
      pan(now.centre.x - gesture.centre.x, now.centre.y - gesture.centre.y);
      gesture = now;
    });
    const release = (event) => {
      pointers.delete(event.pointerId);
      gesture = pointers.size ? gestureState() : null;
      if (!pointers.size) stage.classList.remove("is-dragging");
    };
    stage.addEventListener("pointerup", release);
    stage.addEventListener("pointercancel", release);

    window.addEventListener("resize", () => { if (dialog.open) fit(); });
    dialog.addEventListener("close", () => {
      document.documentElement.classList.remove("figure-viewer-open");
      if (opener) opener.focus();
      opener = null;
    });

    return {
      open(figure, button) {
        opener = button;
        title.textContent = figure.caption;
        image.alt = figure.alt;
        image.style.width = image.style.height = "";
        const shown = new Promise((resolve) => {
          image.onload = image.onerror = resolve;
        });
        image.src = figure.src;
        document.documentElement.classList.add("figure-viewer-open");
        dialog.showModal();
        dialog.focus();
        if (image.complete && image.naturalWidth) fit();
        else shown.then(fit);
      },
    };
  }

  let viewer = null;

  function caption(img) {
    const figure = img.closest("figure");
    const figcaption = figure && figure.querySelector("figcaption");
    return (figcaption ? figcaption.textContent : img.alt).trim();
  }

  ready(() => {
    const images = document.querySelectorAll(".md-content article img:not(.figure-viewer__image)");
    for (const img of images) {
      if (img.closest("a, button, .figure-open") || img.classList.contains("twemoji")) continue;
      const button = el("button", { type: "button", class: "figure-open",
                                    "aria-haspopup": "dialog" });
      img.replaceWith(button);
      button.append(img, el("span", { class: "visually-hidden" }, ` ${LABELS.open}`));
      button.addEventListener("click", () => {
        viewer = viewer || createViewer();
        viewer.open({ src: img.currentSrc || img.src, alt: img.alt, caption: caption(img) },
                    button);
      });
    }
  });
})();
