// The table: draws a state the server sent through a game's layout (munger.js,
// masterpiece.js), slides the cards that moved, and shows what the board asks (a picked-up
// unit, its targets, playable cards). It decides nothing: board.js does, from the server's
// moves; input.js turns pointer and keys into the board's calls.

import { t } from "./strings.js";

export const reducedMotion = () =>
  Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

export class Table {
  constructor(el, layout) {
    this.el = el;
    this.layout = layout;
    this.grid = [];
    this.foundationFor = () => [];
    this.focusAt = null; // {r, c} of the pile that has the tab stop
    this.attempt = null;
  }

  // -- drawing ---------------------------------------------------------------------------

  // Draws `state`; `moves` are the server's moves (movesOf), whose leading cards get a mark.
  render(state, moves) {
    const before = this.positions();
    const hadFocus = this.el.contains(document.activeElement);
    const focused = hadFocus ? this.gridIndex(document.activeElement.closest(".pile")) : null;
    const faces = this.attempt === state.id ? this.faces() : null;
    this.attempt = state.id;
    this.el.replaceChildren();
    const drawn = this.layout.render(this.el, state.view);
    this.grid = drawn.grid;
    this.foundationFor = drawn.foundationFor;
    this.el.dataset.seq = String(state.seq);
    this.el.dataset.attempt = String(state.id);
    this.el.dataset.status = state.status;
    this.el.classList.toggle("over", state.status !== "playing");
    this.markPlayable(moves);
    this.setRoving(focused, hadFocus);
    this.animateFrom(before);
    this.markTurned(faces);
  }

  // The codes of the face-up cards on the table.
  faces() {
    return new Set([...this.el.querySelectorAll(".card[data-card]")].map((card) => card.dataset.card));
  }

  // A column card face up now that was nowhere on the table before was turned over by the
  // server (Munger turns up the card a move uncovers): it gets a short flip (game.css), which
  // people who ask for less motion do not see.
  markTurned(before) {
    if (!before || reducedMotion()) return;
    for (const card of this.el.querySelectorAll('.pile[data-kind="column"] > .card[data-card]')) {
      if (!before.has(card.dataset.card)) card.classList.add("turned");
    }
  }

  // Cards that lead a legal move get a class (a subtle lift), for people and for looks only.
  markPlayable(moves) {
    for (const move of moves) {
      const pile = this.pileByName(move.src);
      if (!pile) continue;
      const card = move.card ? pile.querySelector(`[data-card="${move.card}"]`) : null;
      (card || pile).classList.add("playable");
    }
  }

  positions() {
    const map = new Map();
    if (reducedMotion()) return map;
    for (const card of this.el.querySelectorAll(".card[data-card]")) {
      map.set(card.dataset.card, card.getBoundingClientRect());
    }
    const stock = this.el.querySelector('.pile[data-name="S"]');
    if (stock) map.set("stock", stock.getBoundingClientRect());
    return map;
  }

  // FLIP: each card that moved starts where it was and slides to its new place.
  animateFrom(before) {
    if (!before.size) return;
    for (const card of this.el.querySelectorAll(".card[data-card]")) {
      // A card new to the table comes from the stock (a draw onto the waste).
      const drawn = !before.has(card.dataset.card) && card.closest('.pile[data-name="W"]');
      const old = before.get(card.dataset.card) || (drawn ? before.get("stock") : null);
      if (!old) continue;
      const now = card.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      card.classList.add("no-transition", "flying");
      card.style.setProperty("--dx", `${dx}px`);
      card.style.setProperty("--dy", `${dy}px`);
      card.getBoundingClientRect(); // commit the start position
      card.classList.remove("no-transition");
      card.style.setProperty("--dx", "0px");
      card.style.setProperty("--dy", "0px");
      card.addEventListener("transitionend", () => card.classList.remove("flying"), { once: true });
    }
  }

  // -- piles and cards ----------------------------------------------------------------------

  piles() {
    return this.grid.flat();
  }

  pileByName(name) {
    if (name === "F") return this.foundationFor(null)[0] || null;
    return this.piles().find((p) => p.dataset.name === name) || null;
  }

  gridIndex(pile) {
    if (!pile) return null;
    for (let r = 0; r < this.grid.length; r += 1) {
      const c = this.grid[r].indexOf(pile);
      if (c >= 0) return { r, c };
    }
    return null;
  }

  // The name a pile takes in a move token as a destination (a foundation's is "F").
  static destOf(pile) {
    return pile.dataset.dest || pile.dataset.name;
  }

  cardsOf(pile) {
    return [...pile.querySelectorAll(":scope > .card")];
  }

  // The piles a move may land on: for a foundation move, the card's own foundation.
  targetPiles(move) {
    if (move.dst === "F") {
      const suit = move.card ? move.card[1] : null;
      const found = this.foundationFor(suit);
      return found.length ? found : this.foundationFor(null);
    }
    const pile = this.pileByName(move.dst);
    return pile ? [pile] : [];
  }

  // The pile under a point, ignoring cards being dragged.
  pileAt(x, y) {
    for (const node of document.elementsFromPoint(x, y)) {
      if (node.closest(".dragging")) continue;
      const pile = node.closest(".pile");
      if (pile && this.el.contains(pile)) return pile;
      const group = node.closest("[data-pile='F']");
      if (group && this.el.contains(group)) return this.foundationFor(null)[0];
    }
    return null;
  }

  // -- what the board shows -----------------------------------------------------------------

  showSelection(pile, unit, targets) {
    for (const c of unit) c.classList.add("selected");
    pile.classList.add("source");
    for (const target of targets) {
      target.classList.add("target");
      target.dataset.targetMark = t("target_mark");
    }
  }

  clearSelection() {
    for (const node of this.el.querySelectorAll(".selected, .source, .target, .over")) {
      node.classList.remove("selected", "source", "target", "over");
      delete node.dataset.targetMark;
    }
  }

  // Cards being dragged follow the pointer by (dx, dy).
  drag(cards, dx, dy) {
    for (const c of cards) {
      c.classList.add("dragging");
      c.style.setProperty("--dx", `${dx}px`);
      c.style.setProperty("--dy", `${dy}px`);
    }
  }

  hover(pile, source) {
    for (const p of this.el.querySelectorAll(".pile.over")) if (p !== pile) p.classList.remove("over");
    if (pile && pile !== source) pile.classList.add("over");
  }

  land(cards) {
    for (const c of cards) {
      c.classList.remove("dragging");
      c.classList.add("landing");
    }
  }

  springBack(cards) {
    if (!cards) return;
    for (const c of cards) {
      c.classList.remove("dragging", "landing");
      c.style.setProperty("--dx", "0px");
      c.style.setProperty("--dy", "0px");
    }
  }

  // -- the keyboard's tab stop ------------------------------------------------------------------

  setTabStop(pile) {
    for (const p of this.piles()) p.tabIndex = p === pile ? 0 : -1;
    this.focusAt = this.gridIndex(pile);
  }

  setRoving(focused, refocus) {
    const piles = this.piles();
    if (!piles.length) return;
    const want = focused || this.focusAt;
    const row = want ? this.grid[want.r] : null;
    const target = (row && row[want.c]) || piles[0];
    this.setTabStop(target);
    if (refocus) target.focus({ preventScroll: true });
  }

  // The pile one step from `pile` in a direction of the keyboard's grid ("left", "right",
  // "up", "down"), or null at an edge.
  neighbour(pile, direction) {
    const at = this.gridIndex(pile);
    if (!at) return null;
    const row = this.grid[at.r];
    if (direction === "left") return row[Math.max(0, at.c - 1)];
    if (direction === "right") return row[Math.min(row.length - 1, at.c + 1)];
    const r = at.r + (direction === "up" ? -1 : 1);
    if (r < 0 || r >= this.grid.length) return null;
    const from = row.length;
    const to = this.grid[r].length;
    const c = from <= 1 ? 0 : Math.round((at.c * (to - 1)) / (from - 1));
    return this.grid[r][Math.min(to - 1, c)];
  }

  focus(pile) {
    this.setTabStop(pile);
    pile.focus();
  }
}
