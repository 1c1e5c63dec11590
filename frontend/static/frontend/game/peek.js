// Inspecting a card: a long press (LONG_PRESS_MS, a finger or a mouse) on a face-up card, or a
// mouse resting on one that another card covers (HOVER_MS), shows it whole, raised over the
// table with its name, and starts no move. A face-down card has no face in the page, so there
// is nothing to show: it is never shown. The board's `data-peek` says what the last long press
// showed (a card's code, or "none").

import { el } from "../common/dom.js";
import { faceCard } from "./cards.js";
import { capitalise, cardName } from "./strings.js";

export const LONG_PRESS_MS = 500;
export const HOVER_MS = 600;

// Whether `card` is face up with another card of its pile over it.
export function covered(card) {
  return Boolean(card && card.dataset.card && card.nextElementSibling && card.nextElementSibling.classList.contains("card"));
}

export class Peek {
  constructor(table) {
    this.table = table;
    this.box = null;
    this.timer = null;
    this.hovered = null;
  }

  // Shows `card` whole over the table, where it lies (kept inside the table).
  show(card) {
    this.hide();
    const board = this.table.el;
    const code = card && card.dataset.card;
    if (!code || !board.contains(card)) return false;
    const face = faceCard(code);
    face.removeAttribute("role");
    face.removeAttribute("aria-label");
    face.setAttribute("aria-hidden", "true");
    const name = capitalise(cardName(code));
    this.box = el("div", { className: "card-peek", role: "tooltip", testid: "peek" }, face, el("span", { className: "peek-name", text: name }));
    board.append(this.box);
    const at = card.getBoundingClientRect();
    const frame = board.getBoundingClientRect();
    const size = this.box.getBoundingClientRect();
    const left = Math.min(Math.max(0, at.left - frame.left - board.clientLeft), board.clientWidth - size.width);
    const top = Math.min(Math.max(0, at.top - frame.top - board.clientTop - size.height * 0.25), board.clientHeight - size.height);
    this.box.style.left = `${Math.max(0, left)}px`;
    this.box.style.top = `${Math.max(0, top)}px`;
    return true;
  }

  hide() {
    clearTimeout(this.timer);
    this.timer = null;
    this.hovered = null;
    if (this.box) this.box.remove();
    this.box = null;
  }

  // A long press on `card` has lasted: show it if it is face up.
  longPress(card) {
    const shown = this.show(card);
    this.table.el.dataset.peek = shown ? card.dataset.card : "none";
  }

  // The mouse rests on `card` (or on nothing): a covered face-up card shows after a moment.
  hover(card) {
    const target = covered(card) ? card : null;
    if (target === this.hovered) return;
    this.hide();
    if (!target) return;
    this.hovered = target;
    this.timer = setTimeout(() => {
      this.show(target);
      this.hovered = target;
    }, HOVER_MS);
  }
}
