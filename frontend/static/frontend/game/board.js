// The board: draws the server's state through a game layout and turns pointer, touch and
// keyboard input into move tokens. It knows no rules: the targets it lights are the moves the
// server listed, and anything else a person tries is sent to the server, whose reason is shown.

import { capitalise, cardName, pileName, t } from "./strings.js";

const DRAG_THRESHOLD = 8; // px of finger drift that still counts as a tap
const DOUBLE_TAP_MS = 400;

const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// The moves of a state as {token, src, dst, card, count}; `exact` tells whether the server said
// which card leads each move (state.moves) or the page assumes the top card of the source.
export function movesOf(state, layout) {
  if (Array.isArray(state.moves)) {
    return {
      exact: true,
      list: state.moves.map((m) => {
        const [src, dst] = m.move.split(">");
        return { token: m.move, src, dst, card: m.card || null, count: m.count || 1 };
      }),
    };
  }
  return {
    exact: false,
    list: (state.legal || []).map((token) => {
      const [src, dst] = token.split(">");
      return { token, src, dst, card: src === "S" ? null : layout.topOf(state.view, src), count: null };
    }),
  };
}

export class Board {
  // el: the board element; layout: munger or masterpiece; onMove(token, info) -> Promise<bool>.
  constructor(el, layout, { onMove, onHint }) {
    this.el = el;
    this.layout = layout;
    this.onMove = onMove;
    this.onHint = onHint;
    this.state = null;
    this.moves = { exact: false, list: [] };
    this.grid = [];
    this.selection = null;
    this.focusName = null;
    this.press = null;
    this.lastTap = null;
    this.busy = false;
    this.bind();
  }

  // -- drawing ---------------------------------------------------------------------------

  render(state) {
    const before = this.positions();
    const hadFocus = this.el.contains(document.activeElement);
    const focused = hadFocus ? this.gridIndex(document.activeElement.closest(".pile")) : null;
    const faces = this.state && this.state.id === state.id ? this.faces() : null;
    this.state = state;
    this.moves = movesOf(state, this.layout);
    this.selection = null;
    this.press = null;
    this.el.replaceChildren();
    const drawn = this.layout.render(this.el, state.view);
    this.grid = drawn.grid;
    this.foundationFor = drawn.foundationFor;
    this.el.dataset.seq = String(state.seq);
    this.el.dataset.attempt = String(state.id);
    this.el.dataset.status = statusOf(state);
    const playing = statusOf(state) === "playing";
    this.el.classList.toggle("over", !playing);
    this.markPlayable();
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
  markPlayable() {
    for (const move of this.moves.list) {
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

  // -- piles, cards and moves ---------------------------------------------------------------

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
      if (c >= 0) return { r, c, name: pile.dataset.name };
    }
    return null;
  }

  static destOf(pile) {
    return pile.dataset.dest || pile.dataset.name;
  }

  cardsOf(pile) {
    return [...pile.querySelectorAll(":scope > .card")];
  }

  // The cards a person picks up: from the card taken (a column) or the top card (elsewhere).
  unitFor(pile, card) {
    const cards = this.cardsOf(pile);
    if (!cards.length || pile.dataset.kind === "fixed") return null;
    if (pile.dataset.kind === "column" && card && card.dataset.card) {
      return cards.slice(cards.indexOf(card));
    }
    const top = cards[cards.length - 1];
    return top.dataset.card ? [top] : null;
  }

  // The moves a picked-up unit may make. lead null: the whole pile's moves (keyboard).
  movesFor(src, lead) {
    const from = this.moves.list.filter((m) => m.src === src);
    if (!lead || !this.moves.exact) return from;
    const exact = from.filter((m) => m.card === lead);
    if (exact.length) return exact;
    const pile = this.pileByName(src);
    return pile && pile.dataset.kind !== "column" ? from : [];
  }

  targetPiles(move) {
    if (move.dst === "F") {
      const suit = move.card ? move.card[1] : null;
      const found = this.foundationFor(suit);
      return found.length ? found : this.foundationFor(null);
    }
    const pile = this.pileByName(move.dst);
    return pile ? [pile] : [];
  }

  // -- selection ----------------------------------------------------------------------------

  select(pile, card, { byKeyboard = false } = {}) {
    this.clearSelection();
    const src = pile.dataset.name;
    let unit = this.unitFor(pile, byKeyboard ? null : card);
    if (!unit) return false;
    let lead = byKeyboard ? null : unit[0].dataset.card;
    const moves = this.movesFor(src, lead);
    if (byKeyboard && this.moves.exact && moves.length) {
      // Show the longest run the pile's moves take.
      const longest = moves.reduce((a, b) => ((b.count || 1) > (a.count || 1) ? b : a));
      const cards = this.cardsOf(pile);
      const at = cards.findIndex((c) => c.dataset.card === longest.card);
      if (at >= 0) unit = cards.slice(at);
    }
    if (!lead) lead = null;
    const targets = new Map();
    for (const move of moves) {
      for (const target of this.targetPiles(move)) targets.set(target, move);
    }
    this.selection = { src, pile, lead, unit, moves, targets };
    for (const c of unit) c.classList.add("selected");
    pile.classList.add("source");
    for (const target of targets.keys()) {
      target.classList.add("target");
      target.dataset.targetMark = t("target_mark");
    }
    const name = cardName(lead || unit[0].dataset.card);
    if (targets.size) {
      const places = [...new Set([...targets.values()].map((m) => placeName(m)))].join(", ");
      this.onHint(t("selected", { card: name, places }), { polite: true });
    } else {
      this.onHint(t("selected_no_move", { card: name }), { polite: true });
    }
    return true;
  }

  clearSelection() {
    for (const el of this.el.querySelectorAll(".selected, .source, .target, .over")) {
      el.classList.remove("selected", "source", "target", "over");
      delete el.dataset.targetMark;
    }
    this.selection = null;
  }

  // Plays the selection onto a pile: a listed move, or a try the server will judge.
  async playTo(pile, { dragged = null } = {}) {
    const sel = this.selection;
    if (!sel) return false;
    const dest = Board.destOf(pile);
    const token = `${sel.src}>${dest}`;
    const listed = this.moves.list.find((m) => m.token === token);
    if (listed && this.moves.exact && sel.lead && listed.card && listed.card !== sel.lead) {
      // The move exists but takes another run than the one picked up.
      this.onHint(t("other_run", { card: cardName(listed.card), place: pileName(dest) }), { polite: false });
      this.springBack(dragged);
      this.clearSelection();
      return false;
    }
    const lead = (listed && listed.card) || sel.lead || (sel.unit[0] && sel.unit[0].dataset.card) || null;
    this.clearSelection();
    const ok = await this.onMove(token, { card: lead, src: sel.src, dst: dest });
    if (!ok) this.springBack(dragged);
    return ok;
  }

  springBack(cards) {
    if (!cards) return;
    for (const c of cards) {
      c.classList.remove("dragging", "landing");
      c.style.setProperty("--dx", "0px");
      c.style.setProperty("--dy", "0px");
    }
  }

  // -- pointer: taps, double taps and drags ---------------------------------------------------

  bind() {
    this.el.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.el.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.el.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.el.addEventListener("pointercancel", () => this.cancelPress());
    this.el.addEventListener("lostpointercapture", () => {
      if (this.press && this.press.dragging) this.cancelPress();
    });
    this.el.addEventListener("keydown", (e) => this.keyDown(e));
    this.el.addEventListener("focusin", (e) => {
      const pile = e.target.closest && e.target.closest(".pile");
      if (pile && this.gridIndex(pile)) this.setTabStop(pile);
    });
    // Escape puts back what is picked up, wherever the focus is.
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.selection) {
        e.preventDefault();
        this.clearSelection();
        this.onHint(t("selection_cleared"), { polite: true });
      }
    });
    // Double-click on a mouse is handled through taps; stop the browser selecting text.
    this.el.addEventListener("dblclick", (e) => e.preventDefault());
  }

  playing() {
    return this.state && statusOf(this.state) === "playing";
  }

  pointerDown(e) {
    if (e.button !== 0 || !this.playing()) return;
    const pile = e.target.closest(".pile");
    if (!pile || !this.el.contains(pile)) return;
    const card = e.target.closest(".card");
    this.press = { id: e.pointerId, x: e.clientX, y: e.clientY, pile, card, dragging: false, unit: null };
    try {
      this.el.setPointerCapture(e.pointerId);
    } catch {
      /* the pointer is gone already */
    }
  }

  pointerMove(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId) return;
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD || this.busy) return;
      if (press.card && !press.card.dataset.card) {
        this.press = null; // a face-down card never moves
        return;
      }
      if (!this.select(press.pile, press.card)) {
        this.press = null;
        return;
      }
      press.dragging = true;
      press.unit = this.selection.unit;
      for (const c of press.unit) c.classList.add("dragging");
    }
    e.preventDefault();
    for (const c of press.unit) {
      c.style.setProperty("--dx", `${dx}px`);
      c.style.setProperty("--dy", `${dy}px`);
    }
    const over = this.pileAt(e.clientX, e.clientY);
    for (const p of this.el.querySelectorAll(".pile.over")) if (p !== over) p.classList.remove("over");
    if (over && over !== press.pile) over.classList.add("over");
  }

  pileAt(x, y) {
    for (const el of document.elementsFromPoint(x, y)) {
      if (el.closest(".dragging")) continue;
      const pile = el.closest(".pile");
      if (pile && this.el.contains(pile)) return pile;
      const group = el.closest("[data-pile='F']");
      if (group && this.el.contains(group)) return this.foundationFor(null)[0];
    }
    return null;
  }

  async pointerUp(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId) return;
    this.press = null;
    if (!press.dragging) {
      this.tap(press.pile, press.card);
      return;
    }
    const over = this.pileAt(e.clientX, e.clientY);
    if (!over || over === press.pile || over.dataset.name === press.pile.dataset.name) {
      this.springBack(press.unit);
      this.clearSelection();
      return;
    }
    for (const c of press.unit) c.classList.remove("dragging");
    for (const c of press.unit) c.classList.add("landing");
    await this.playTo(over, { dragged: press.unit });
  }

  cancelPress() {
    const press = this.press;
    this.press = null;
    if (press && press.dragging) {
      this.springBack(press.unit);
      this.clearSelection();
    }
  }

  tap(pile, card) {
    if (this.busy) return;
    const now = Date.now();
    const key = card && card.dataset.card ? card.dataset.card : null;
    const last = this.lastTap;
    this.lastTap = { key, at: now };
    if (key && last && last.key === key && now - last.at < DOUBLE_TAP_MS) {
      this.lastTap = null;
      if (this.toFoundation(pile, card)) return;
    }
    this.activate(pile, card, { byKeyboard: false });
  }

  // Double-click / double-tap: the card goes to its foundation when that move is listed.
  toFoundation(pile, card) {
    const src = pile.dataset.name;
    const move = this.moves.list.find(
      (m) => m.src === src && m.dst === "F" && (!m.card || m.card === card.dataset.card),
    );
    if (!move) return false;
    this.clearSelection();
    this.onMove(move.token, { card: move.card || card.dataset.card, src, dst: "F" });
    return true;
  }

  // A tap or Enter on a pile: draw from the stock, pick up, put down or change the selection.
  activate(pile, card, { byKeyboard }) {
    if (!this.playing()) return;
    const sel = this.selection;
    const name = pile.dataset.name;
    if (sel) {
      if (pile === sel.pile || name === sel.src) {
        const other = !byKeyboard && card && card.dataset.card && !sel.unit.includes(card) ? card : null;
        if (other) this.select(pile, other);
        else {
          this.clearSelection();
          this.onHint(t("selection_cleared"), { polite: true });
        }
        return;
      }
      if (sel.targets.has(pile)) {
        this.playTo(pile);
        return;
      }
      // Not a listed target: another card to pick up, or a try the server judges.
      const unit = !byKeyboard && this.unitFor(pile, card);
      if (unit && this.movesFor(name, unit[0].dataset.card).length) {
        this.select(pile, card);
        return;
      }
      this.playTo(pile);
      return;
    }
    if (name === "S") {
      const draw = this.moves.list.find((m) => m.src === "S");
      if (draw) this.onMove(draw.token, { card: null, src: "S", dst: draw.dst });
      else if (pile.classList.contains("inert")) this.onHint(t("no_redeal_hint"), { polite: true });
      else this.onMove("S>W", { card: null, src: "S", dst: "W" });
      return;
    }
    this.select(pile, card, { byKeyboard });
  }

  // -- keyboard ---------------------------------------------------------------------------------

  setTabStop(pile) {
    for (const p of this.piles()) p.tabIndex = p === pile ? 0 : -1;
    this.focusName = this.gridIndex(pile);
  }

  setRoving(focused, refocus) {
    const piles = this.piles();
    if (!piles.length) return;
    let target = null;
    const want = focused || this.focusName;
    if (want) {
      const row = this.grid[want.r];
      target = (row && row[want.c]) || null;
    }
    target = target || piles[0];
    this.setTabStop(target);
    if (refocus) target.focus({ preventScroll: true });
  }

  keyDown(e) {
    const pile = e.target.closest && e.target.closest(".pile");
    if (!pile || !this.gridIndex(pile)) return;
    const at = this.gridIndex(pile);
    let next = null;
    switch (e.key) {
      case "ArrowLeft":
        next = this.grid[at.r][Math.max(0, at.c - 1)];
        break;
      case "ArrowRight":
        next = this.grid[at.r][Math.min(this.grid[at.r].length - 1, at.c + 1)];
        break;
      case "ArrowUp":
      case "ArrowDown": {
        const r = at.r + (e.key === "ArrowUp" ? -1 : 1);
        if (r < 0 || r >= this.grid.length) break;
        const from = this.grid[at.r].length;
        const to = this.grid[r].length;
        const c = from <= 1 ? 0 : Math.round((at.c * (to - 1)) / (from - 1));
        next = this.grid[r][Math.min(to - 1, c)];
        break;
      }
      case "Enter":
      case " ":
        e.preventDefault();
        if (this.busy) return;
        this.activate(pile, null, { byKeyboard: true });
        return;
      default:
        return;
    }
    e.preventDefault();
    if (next && next !== pile) {
      this.setTabStop(next);
      next.focus();
    }
  }
}

export function statusOf(state) {
  const s = state.status;
  if (s === "abandoned") return "resigned";
  return s || "playing";
}

export function placeName(move) {
  if (move.dst === "F") {
    return move.card ? t("pile_suit_foundation", { suit: t(`suit_${move.card[1]}`) }) : pileName("F");
  }
  return pileName(move.dst);
}

export { capitalise };
