// Words and numbers: every sentence a script shows comes from the page's catalogue, the JSON
// block <script type="application/json" id="strings"> the server translated; a key missing
// from it shows as the key itself. Placeholders are written {name}.

import { jsonBlock } from "./dom.js";

let catalogue = null;
let language = null;

// The catalogue and language to use instead of the page's (the unit tests).
export function useCatalogue(strings, lang = "en") {
  catalogue = strings;
  language = lang;
}

function strings() {
  if (!catalogue) catalogue = jsonBlock("strings");
  return catalogue;
}

function lang() {
  if (!language) language = (typeof document !== "undefined" && document.documentElement.lang) || "en";
  return language;
}

// The plural category of n in the page's language ("one", "few", "many", "other").
export function pluralCategory(n) {
  try {
    return new Intl.PluralRules(lang()).select(n);
  } catch {
    return n === 1 ? "one" : "other";
  }
}

// Fill "{name}" placeholders.
export function format(text, values = {}) {
  return String(text).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) && values[name] !== undefined ? String(values[name]) : whole,
  );
}

// t("pile_label", {pile: "Column 2", n: 3}) -> "Column 2: 3 cards". A plural entry of the
// catalogue is an object of the language's plural forms ({one, few, many, other}) and `n`
// picks one; a key with a "<key>_one" sibling uses it when n is 1.
export function t(key, params = {}) {
  const all = strings();
  let text = all[key];
  if (text && typeof text === "object") {
    text = text[pluralCategory(typeof params.n === "number" ? params.n : 0)] ?? text.other;
  } else if (params.n === 1 && all[`${key}_one`] !== undefined) {
    text = all[`${key}_one`];
  }
  if (text === undefined) text = key;
  return format(text, params);
}

export function capitalise(text) {
  return text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text;
}

// An ISO time (the server's, in UTC) in the reader's local time and the page's language:
// "8 Dec 2026, 01:05".
export function localTime(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return String(iso);
  try {
    return when.toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return when.toLocaleString();
  }
}

// A length of time in seconds as "7:42" or "1:02:03".
export function clock(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

// A countdown in seconds as "07:05:09" (hours, minutes, seconds, always two digits each).
export function countdown(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
