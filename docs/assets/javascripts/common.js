/* The page's language for the site's scripts: numbers printed as sitebuild/numbers.py
   prints them, numbers the reader types, and the words of the widgets. One module, so
   that everything a language changes is read in one place. No DOM but the page's
   language record. */

/* The page's language record (locales/<code>.toml), which overrides/main.html writes
   into every page: its code, its quotation marks, its widgets' words, and every
   language's decimal and group signs. */
const record = (() => {
  const node = document.getElementById("site-language");
  if (!node) throw new Error("no site-language in the page (overrides/main.html)");
  return JSON.parse(node.textContent);
})();
const signs = (language) => {
  if (!(language in record.numbers)) throw new Error(`no number signs for ${language}`);
  return record.numbers[language];
};
const MINUS = "\u2212";
const TIMES = "\u00a0×\u00a010"; // no-break spaces keep "1.3 × 10⁻³¹" on one line
const SUPERSCRIPT = { "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶",
                      "7": "⁷", "8": "⁸", "9": "⁹", "-": "⁻" };

/** The page's language: its record's code. */
export const lang = record.code;
// Between the numbers of a vector: "; " where the comma is the decimal sign (numbers.py).
const separatorOf = (language) => (signs(language).decimal === "," ? "; " : ", ");

/* Numbers, printed as sitebuild/numbers.py prints them, character for character
   (tests/browser/test_numbers.py compares the two). toFixed and toExponential round
   a value exactly halfway away from zero, as numbers.py does. */

/** "-1234.5" from toFixed in LANGUAGE's signs: grouped from five digits on, and
    no minus before a number that rounded to zero. */
function localise(text, language) {
  const negative = text.startsWith("-") && /[1-9]/.test(text);
  const [whole, fraction] = text.replace(/^-/, "").split(".");
  const grouped = whole.length > 4
    ? whole.replace(/\B(?=(\d{3})+$)/g, signs(language).group) : whole;
  return (negative ? MINUS : "") + grouped
    + (fraction === undefined ? "" : signs(language).decimal + fraction);
}

/** VALUE with DECIMALS decimals; toFixed writes 1e21 and beyond in exponent form. */
function fixed(value, decimals) {
  if (Math.abs(value) < 1e21) return value.toFixed(decimals);
  return BigInt(value).toString() + (decimals ? "." + "0".repeat(decimals) : "");
}

/** sigN: N significant digits, trailing zeros dropped (numbers.py's _significant). */
function significant(value, digits) {
  if (value === 0) return "0";
  const decimals = Math.max(digits - 1 - Math.floor(Math.log10(Math.abs(value))), 0);
  const text = fixed(value, decimals);
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/** The whole number POWER in superscript digits: -31 as "⁻³¹". */
export const superscript = (power) =>
  String(power).split("").map((c) => SUPERSCRIPT[c]).join("");

/** sciN: "1.3 × 10⁻³¹", or the bare mantissa when the exponent is 0. */
function scientific(value, digits, language) {
  if (value === 0) return "0";
  const [mantissa, exponent] = value.toExponential(digits - 1).split("e");
  const power = Number(exponent);
  if (power === 0) return localise(mantissa, language);
  return localise(mantissa, language) + TIMES + superscript(power);
}

/** VALUE in STYLE (int, fixN, sigN, sciN) for LANGUAGE: numbers.py's format_value. */
export function formatNumber(value, style, language = lang) {
  const match = /^(?:int|(fix|sig|sci)(\d{1,2}))$/.exec(style);
  if (!match || !Number.isFinite(value)) throw new Error(`cannot print ${value} as ${style}`);
  const digits = Number(match[2]);
  if (!match[1]) return localise(fixed(value, 0), language);
  if (match[1] === "fix") return localise(fixed(value, digits), language);
  if (match[1] === "sig") return localise(significant(value, Math.max(digits, 1)), language);
  return scientific(value, Math.max(digits, 1), language);
}

export const fix = (value, digits) => formatNumber(value, `fix${digits}`);
export const sig = (value, digits) => formatNumber(value, `sig${digits}`);
export const sci = (value, digits) => formatNumber(value, `sci${digits}`);

/** "[0.75, 0.25]", or "[0,75; 0,25]" where the decimal sign is a comma; FORMAT prints
    each number: a function, or a style of formatNumber ("sig3"). */
export function vector(values, format, language = lang) {
  const print = typeof format === "string" ? (v) => formatNumber(v, format, language) : format;
  return "[" + values.map((value) => print(value)).join(separatorOf(language)) + "]";
}

/** A number the reader typed: either decimal sign, either minus, an optional exponent
    ("1e-3"). NaN if it is none. */
export function parse(text) {
  const cleaned = text.trim().replace(/\u2212/g, "-").replace(",", ".");
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned) ? Number(cleaned) : NaN;
}

/* Words. */

/** The words of the widget in CONTAINER, in the page's language: the table of the
    record's words that the container names (data-words="calculator"). */
export function pageWords(container) {
  const words = siteWords()[container.dataset.words];
  if (!words) throw new Error(`${container.className}: no words "${container.dataset.words}"`);
  return words;
}

/** The words of the site's own scripts in the page's language, one table per widget:
    the record's [words]. */
export function siteWords() {
  return record.words;
}

/** WORD in the page's quotation marks: “bank”, «крана», ”banken”. */
export const quoted = (word) => record.quote.replace("{}", word);

/** TEXTS as the items of a sentence, "a, b and c", with the page's "and"
    (numbers.py's format_items, for words). */
export function items(texts) {
  const head = texts.slice(0, -1).join(", ");
  return head ? `${head} ${record.and} ${texts[texts.length - 1]}` : texts.join("");
}

export function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    (name in params ? String(params[name]) : whole));
}
