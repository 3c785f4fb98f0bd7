/* The number of search results, in the grammar of the page's language.

   Material has two forms of a count, one and other ("Знайдено # збігів"), but
   Ukrainian has three for whole numbers: 1 збіг, 2-4 збіги, 5 збігів (and 21
   збіг, 22 збіги). Whenever Material writes the count of results, or of the
   further matches on one page ("Ще # збігів на цій сторінці"), this writes it again
   with the form Intl.PluralRules gives for the count in the page's language, from
   the page's site words (the language's record, [words.searchCounts]: a form for each
   of CLDR's categories one, few, many, other; a language with fewer repeats its
   form for other). */
import { fill, siteWords } from "./common.js";

const COUNTED = [  // where Material writes a count, and the words for it
  [".md-search-result__meta", "results"],
  [".md-search-result__more > summary > div", "more"],
];

function say(forms, rules, text) {
  const count = /^\D*(\d+)\D*$/.exec(text);  // Material's number: plain digits below 1000
  if (!count) return text;  // no result, or the prompt to type
  const n = Number(count[1]);
  return fill(forms[rules.select(n)] || forms.other, { count: n });
}

/** Recount the page's search results from now on. */
export function start() {
  const results = document.querySelector(".md-search-result");
  if (!results || results.dataset.counted) return;
  results.dataset.counted = "true";  // once, though Material's instant pages start it again
  const words = siteWords().searchCounts;
  const rules = new Intl.PluralRules(document.documentElement.lang);
  const recount = () => {
    for (const [selector, key] of COUNTED) {
      for (const node of results.querySelectorAll(selector)) {
        const wanted = say(words[key], rules, node.textContent);
        if (node.textContent !== wanted) node.textContent = wanted;  // then no change more
      }
    }
  };
  new MutationObserver(recount).observe(results, { childList: true, subtree: true,
                                                   characterData: true });
}
