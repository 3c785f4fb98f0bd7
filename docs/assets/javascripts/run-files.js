/* The run's published files (run/results.json, run/examples.json), read once per page
   however many widgets use them, and the widgets' start from them. */

// This module is site/assets/javascripts/run-files.js: the site's root is two folders
// up, in every language (the run's files are published once, at the root).
const root = new URL("../../", import.meta.url);
const files = new Map(); // name -> the promise of its parsed JSON

/** One of the run's published files, parsed. */
export function runFile(name) {
  if (!files.has(name)) {
    files.set(name, fetch(new URL("run/" + name, root)).then((response) => {
      if (!response.ok) throw new Error(`run/${name}: HTTP ${response.status}`);
      return response.json();
    }));
  }
  return files.get(name);
}

/** Give every SELECTOR container that is not yet enhanced to MOUNT(container, data),
    with DATA the run's file NAME. If the file cannot be read, the containers keep
    their static content. */
export async function enhance(selector, name, mount) {
  const containers = document.querySelectorAll(`${selector}:not(.is-enhanced)`);
  if (!containers.length) return;
  let data;
  try {
    data = await runFile(name);
  } catch (error) {
    console.warn(`${selector}: keeping the static content;`, error.message);
    return;
  }
  containers.forEach((container) => mount(container, data));
}
