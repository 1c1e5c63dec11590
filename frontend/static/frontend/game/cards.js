// Cards drawn with HTML, CSS and small SVG suit shapes made for this page: crisp at any size.
// A face-up card carries data-card="7H"; a face-down card is a back and nothing else: its code
// is never put in the page.

import { capitalise, cardName, t } from "./strings.js";

const SVG = "http://www.w3.org/2000/svg";

// Suit shapes on a 100 x 100 box.
const SUIT_PATHS = {
  H: "M50 92C22 68 2 50 2 28 2 12 14 2 28 2c10 0 18 6 22 14 4-8 12-14 22-14 14 0 26 10 26 26 0 22-20 40-48 64z",
  D: "M50 2 88 50 50 98 12 50z",
  S: "M50 2C78 28 98 44 98 63c0 15-11 25-24 25-9 0-16-4-20-10 1 9 5 16 12 22H34c7-6 11-13 12-22-4 6-11 10-20 10C13 88 2 78 2 63 2 44 22 28 50 2z",
  C: "M30 28a20 20 0 1 0 40 0a20 20 0 1 0-40 0zM7 60a20 20 0 1 0 40 0a20 20 0 1 0-40 0zM53 60a20 20 0 1 0 40 0a20 20 0 1 0-40 0zM44 48h12c0 24 4 38 14 50H30c10-12 14-26 14-50z",
};

export const RANK_TEXT = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };

export function suitIcon(suit, className = "suit") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", SUIT_PATHS[suit]);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

function corner(code, side) {
  const box = document.createElement("span");
  box.className = `corner corner-${side}`;
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = RANK_TEXT[code[0]] || code[0];
  box.append(rank, suitIcon(code[1], "suit corner-suit"));
  return box;
}

// where: {pile, index (0-based from the bottom), total}; placeText: "column 2".
export function faceCard(code, { index, total, placeText } = {}) {
  const el = document.createElement("div");
  el.className = `card face suit-${code[1]} ${"HD".includes(code[1]) ? "red" : "black"}`;
  el.dataset.card = code;
  el.setAttribute("role", "img");
  const label = [capitalise(cardName(code)), t("face_up")];
  if (total) label.push(t("position", { i: index + 1, n: total }));
  if (placeText) label.push(placeText);
  el.setAttribute("aria-label", label.join(", "));
  const centre = document.createElement("span");
  centre.className = "card-pip";
  if ("JQK".includes(code[0])) {
    const letter = document.createElement("span");
    letter.className = "court";
    letter.textContent = code[0];
    centre.append(letter);
  }
  centre.append(suitIcon(code[1], "suit big-suit"));
  el.append(corner(code, "left"), corner(code, "right"), centre);
  return el;
}

export function backCard({ index, total, placeText } = {}) {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("role", "img");
  const label = [capitalise(t("card_face_down"))];
  if (total) label.push(t("position", { i: index + 1, n: total }));
  if (placeText) label.push(placeText);
  el.setAttribute("aria-label", label.join(", "));
  return el;
}

// An empty place: a dashed outline with what it takes (e.g. "K", or "A" and a suit).
export function emptySlot(text, suit = null) {
  const el = document.createElement("div");
  el.className = suit ? `slot suit-${suit}` : "slot";
  if (text || suit) {
    const mark = document.createElement("span");
    mark.className = "slot-mark";
    mark.setAttribute("aria-hidden", "true");
    mark.textContent = text;
    if (suit) mark.append(suitIcon(suit, "suit slot-suit"));
    el.append(mark);
  }
  return el;
}
