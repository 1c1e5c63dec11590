// The play page's words for cards and piles, from the page's catalogue (common/text.js).

import { capitalise, t } from "../common/text.js";

export { capitalise, t };

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

// Where a move goes, in words: "hearts foundation" for a card going to its foundation.
export function placeName(move) {
  if (move.dst === "F" && move.card) return t("pile_suit_foundation", { suit: t(`suit_${move.card[1]}`) });
  return pileName(move.dst);
}
