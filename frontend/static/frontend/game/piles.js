// Pile elements shared by both layouts. A pile is a labelled group the keyboard can reach;
// `data-name` is its name in move tokens (what the board plays), `data-pile` the test hook.

import { backCard, emptySlot, faceCard } from "./cards.js";
import { capitalise, cardName, pileName, t } from "./strings.js";

// kind: "column" (a run may move from any face-up card), "single" (only the top card moves),
// "fixed" (nothing moves from it: Masterpiece's foundations, a stock).
export function makePile(name, { kind = "single", hook = name, classes = "", label } = {}) {
  const el = document.createElement("div");
  el.className = `pile ${classes}`.trim();
  el.dataset.name = name;
  if (hook) el.dataset.pile = hook;
  el.dataset.kind = kind;
  el.setAttribute("role", "group");
  el.tabIndex = -1;
  el.setAttribute("aria-label", label || capitalise(pileName(name)));
  return el;
}

// A pile's label: "Column 2: 5 cards, top seven of hearts" / "Reserve: empty"; empty, with
// what the place takes when given ("Column 2: empty, takes a King").
export function describePile(name, count, top, takes = "") {
  const place = capitalise(pileName(name));
  if (!count) return takes ? t("pile_label_empty_takes", { pile: place, takes }) : t("pile_label_empty", { pile: place });
  return t("pile_label", { pile: place, n: count, top: top ? cardName(top) : t("card_face_down") });
}

// Puts the cards of a pile in it, bottom first. cards: [{code, up}]; a card is drawn face up only
// when `up` is true and its code is known.
export function fillPile(pile, cards, { emptyMark = "", emptySuit = null, placeText } = {}) {
  const total = cards.length;
  if (!total) {
    pile.append(emptySlot(emptyMark, emptySuit));
    return [];
  }
  let down = 0;
  let upCount = 0;
  const els = cards.map((c, index) => {
    const el = c.up && c.code ? faceCard(c.code, { index, total, placeText }) : backCard({ index, total, placeText });
    el.style.setProperty("--i", index);
    el.style.setProperty("--down", down);
    el.style.setProperty("--up", upCount);
    if (c.up && c.code) upCount += 1;
    else down += 1;
    pile.append(el);
    return el;
  });
  pile.style.setProperty("--n", total);
  // The height of a fanned column: the last card's offset plus one card.
  const last = els[total - 1];
  pile.style.setProperty("--h-down", last.style.getPropertyValue("--down"));
  pile.style.setProperty("--h-up", last.style.getPropertyValue("--up"));
  return els;
}
