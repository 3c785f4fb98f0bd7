/* The value swap of the attention article, on the bank model.

   The page holds <div class="value-swap"> with a static table, both of the page's
   sentences with and without W_V's columns swapped, printed by the build; its
   words are the record's (data-words, pageWords). This script recomputes "bank" in both
   sentences (bank-model.js, examples/bank.py's head) and lets the reader swap the
   two columns of W_V, and swap them back (the button says which it will do): the
   attention weights stay, the head output swaps its coordinates (the table, one row
   per sentence), and "bank" lands in the other sense (a small sense plane,
   sense-plane.js; a sentence for a screen reader says where). Without JavaScript the
   static table is what the reader gets.
   tests/browser/test_value_swap.py holds it to the Python to 1e-9. */
import { update } from "./bank-model.js";
import { fill, fix, lang, pageWords, quoted, vector } from "./common.js";
import { el, keyboardScrollable, replaceStatic, rich, svg, uid } from "./dom.js";
import { placeLabels, sensePlane } from "./sense-plane.js";
import { enhance } from "./run-files.js";


function setup(examples) {
  const bank = examples.bank;
  return { model: bank.model, sentences: bank.sentences[lang], senses: bank.senses[lang] };
}

/** Both sentences: "bank"'s attention weights, head output, and where it lands. */
function compute(bank, swapped) {
  return bank.sentences.map((s) => {
    const result = update(bank.model, s.roles, swapped);
    return { ...result, clue_weight: result.weights[s.clue] };
  });
}

/* ---- The DOM --------------------------------------------------------------- */

function plane(words, bank) {
  const root = sensePlane("value-swap__plane", bank.senses);
  const moves = bank.sentences.map((s, i) => {
    const group = svg("g", { class: `value-swap__move value-swap__move--${i + 1}` });
    const line = svg("line", {});
    const dot = svg("circle", { r: 0.06 });
    const label = svg("text", {});
    label.append(fill(words.end, { w: quoted(s.tokens[s.clue]) }));
    group.append(line, dot, label);
    root.append(group);
    return { line, dot, label };
  });
  return { root, moves };
}

function buildDom(words, bank) {
  const titleId = uid("value-swap-title");
  const word = bank.sentences[0].tokens[bank.sentences[0].ambiguous];
  const rows = bank.sentences.map((_, i) => {
    const cells = [el("td", { class: "widget__number" }), el("td", { class: "widget__number" })];
    return { row: el("tr", {}, el("th", { scope: "row" }, bank.sentences[i].tokens.join(" ")),
                     ...cells), cells };
  });
  const dom = {
    rows,
    plane: plane(words, bank),
    // The button names what it will do, so it is no toggle (a toggle keeps its name).
    swap: el("button", { type: "button", class: "md-button" }, rich(words.swap)),
    swappedNote: el("span", { class: "value-swap__note", hidden: true },
                    " (", rich(words.swappedNote), ")"),
    // Where "bank" lands, which the plane shows, for a screen reader.
    status: el("p", { class: "widget__status visually-hidden", role: "status" }),
  };
  const table = el("table", { class: "value-swap__table" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, words.sentence),
      el("th", { scope: "col" }, words.clueWeight),
      el("th", { scope: "col" }, rich(words.output), dom.swappedNote))),
    el("tbody", {}, ...rows.map((r) => r.row)));
  dom.widget = el("div", { class: "widget value-swap__widget", role: "group",
                           "aria-labelledby": titleId },
    el("p", { class: "widget__title", id: titleId }, rich(words.title)),
    el("div", { class: "widget__buttons" }, dom.swap),
    el("div", { class: "widget__scroll" }, table),
    el("figure", {}, dom.plane.root, el("figcaption", {}, fill(words.plane, { w: word }))),
    dom.status);
  return dom;
}

function render(dom, words, bank, swapped) {
  const shown = compute(bank, swapped);
  dom.rows.forEach((r, i) => {
    // Two decimals, as the article prints weights and outputs.
    r.cells[0].textContent = fix(shown[i].clue_weight, 2);
    r.cells[1].textContent = vector(shown[i].h, "fix2");
  });
  dom.plane.moves.forEach((move, i) => {
    const start = bank.sentences[i].sense_before;
    const [x, y] = shown[i].sense_after;
    move.line.setAttribute("x1", start[0]);
    move.line.setAttribute("y1", -start[1]);
    move.line.setAttribute("x2", x);
    move.line.setAttribute("y2", -y);
    move.dot.setAttribute("cx", x);
    move.dot.setAttribute("cy", -y);
  });
  placeLabels(dom.plane.moves.map((move, i) => [move.label, shown[i].sense_after]));
  dom.swap.replaceChildren(rich(swapped ? words.swapBack : words.swap));
  dom.swappedNote.hidden = !swapped;
  const word = bank.sentences[0].tokens[bank.sentences[0].ambiguous];
  // Each sentence's number by name: two sentences' weights are not one vector.
  const [first, second] = shown;
  dom.status.replaceChildren(rich(fill(words.status, {
    swapped: swapped ? words.swappedStatus : "", w: word,
    weight1: fix(first.clue_weight, 2), weight2: fix(second.clue_weight, 2),
    after1: vector(first.sense_after, "fix2"), after2: vector(second.sense_after, "fix2"),
  })));
  // For tests and the curious: the exact numbers behind what is shown.
  dom.widget.dataset.state = JSON.stringify({ swapped, sentences: shown });
}

/* ---- Events ---------------------------------------------------------------- */

function mount(container, examples) {
  const words = pageWords(container);
  const bank = setup(examples);
  const dom = buildDom(words, bank);
  replaceStatic(container, dom.widget);
  let swapped = false;
  dom.swap.addEventListener("click", () => {
    swapped = !swapped;
    render(dom, words, bank, swapped);
  });
  render(dom, words, bank, swapped);
  dom.widget.querySelectorAll(".widget__scroll")
    .forEach((box) => keyboardScrollable(box));
}

/** Enhance the page's value swaps. */
export const start = () => enhance(".value-swap", "examples.json", mount);
