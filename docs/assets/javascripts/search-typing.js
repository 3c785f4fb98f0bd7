/* Search on whatever is written into the search field, however it arrives.

   Material searches when a key is released in the field (its keyup), so text that
   arrives with no key of its own (pasted with the mouse, dictated, or composed by an
   input method, as some Cyrillic keyboards do on phones) changed the field and found
   nothing. Each such change is handed to Material as the release of a key. */

/** Make the page's search field search on every change of its text. */
export function start() {
  const field = document.querySelector(".md-search__input");
  if (!field || field.dataset.searchesOnInput) return;
  field.dataset.searchesOnInput = "true";  // once, though instant pages start it again
  let keyed = false;  // a key of the keyboard wrote this change: Material has its keyup
  field.addEventListener("keydown", () => { keyed = true; });
  field.addEventListener("input", () => {
    if (!keyed) field.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
    keyed = false;
  });
}
