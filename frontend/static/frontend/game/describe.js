// A move in words, from what the server sent: the token, the card it carried and the views
// before and after it. Used by the play page's announcements and by the solver's replay.

import { capitalise, cardName, pileName, t } from "./strings.js";

// The column cards face up in `after` that were face down in `before` (a socket state carries
// no `revealed` list): a comparison of two views the server sent, not a rule.
export function turnedUp(before, after) {
  const found = [];
  if (!before || !after || !before.tableau || !after.tableau) return found;
  after.tableau.forEach((column, k) => {
    const old = before.tableau[k] || [];
    column.forEach((card, i) => {
      if (card.face_up && card.card && old[i] && !old[i].face_up) found.push(card.card);
    });
  });
  return found;
}

// "Moved seven of hearts to column 3. Revealed two of clubs." `revealed` is the server's list
// when it sent one, else the views are compared.
export function describeMove(token, card, before, after, revealed) {
  if (token === "U") return t("announce_undo");
  const [src, dst] = token.split(">");
  const parts = [];
  if (src === "S") {
    const waste = (after && after.waste) || [];
    parts.push(t("announce_draw", { card: cardName(waste[waste.length - 1]) }));
    return capitalise(parts[0]);
  }
  const place = dst === "F" && card ? t("pile_suit_foundation", { suit: t(`suit_${card[1]}`) }) : pileName(dst);
  parts.push(t("announce_move", { card: card ? cardName(card) : t("card_generic"), place }));
  const turned = Array.isArray(revealed) ? revealed : turnedUp(before, after);
  for (const code of turned) parts.push(t("announce_revealed", { card: cardName(code) }));
  return parts.map(capitalise).join(" ");
}
