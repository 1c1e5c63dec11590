// Every word the play page shows comes from here. The catalogue is the JSON block
// <script type="application/json" id="strings"> embedded by frontend/play.html, so the
// server can translate it; a key missing from it shows as the key itself.

let catalogue = null;

function load() {
  if (catalogue) return catalogue;
  const el = document.getElementById("strings");
  try {
    catalogue = el ? JSON.parse(el.textContent) : {};
  } catch {
    catalogue = {};
  }
  return catalogue;
}

// t("moves_count", {n: 3}) -> "3 moves". With a numeric `n`, a key "<key>_one" is used for 1.
export function t(key, params = {}) {
  const strings = load();
  let text;
  if (params.n === 1 && strings[`${key}_one`] !== undefined) text = strings[`${key}_one`];
  else text = strings[key];
  if (text === undefined) text = key;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export function capitalise(text) {
  return text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text;
}

// "seven of hearts" (lower case: it is used inside sentences).
export function cardName(code) {
  if (!code) return t("card_face_down");
  return t("card_name", { rank: t(`rank_${code[0]}`), suit: t(`suit_${code[1]}`) });
}

// Pile names of both games, as words: "column 2", "reserve", "hearts foundation", "main row 3".
export function pileName(name) {
  if (/^T\d$/.test(name)) return t("pile_column", { n: name.slice(1) });
  if (/^M\d$/.test(name)) return t("pile_main_row", { n: name.slice(1) });
  if (/^A\d$/.test(name)) return t("pile_aux_row", { n: name.slice(1) });
  if (/^F[CDHS]$/.test(name)) return t("pile_suit_foundation", { suit: t(`suit_${name[1]}`) });
  const simple = { R: "pile_reserve", W: "pile_waste", S: "pile_stock", F: "pile_foundation", C: "pile_cellar" };
  return simple[name] ? t(simple[name]) : name;
}

// A length of time in seconds as "7:42" or "1:02:03".
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}
