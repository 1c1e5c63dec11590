// Input: pointer, touch and keyboard on the table, turned into the board's calls. A press that
// drifts less than DRAG_THRESHOLD is a tap; further, it drags what it picked up. Arrow keys
// walk the table's piles (one tab stop, roving focus), Home/End and Shift+arrows point at a
// card of a fan (Shift+arrows the way the fan runs: down a column, sideways along a row),
// Enter or Space acts, Escape puts back. A long press, or a mouse resting on a
// covered card, shows a card whole (peek.js) and moves nothing. Anywhere on the page (not in a text
// field): U undoes, S says the position in short, ? opens the rules and keys.

import { LONG_PRESS_MS, Peek } from "./peek.js";
import { Table } from "./table.js";

const DRAG_THRESHOLD = 8; // px of finger drift that still counts as a tap

const ARROWS = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };
const POINT = { Home: "first", End: "last" };

// Shift+arrows walk a fan's cards the way it runs: down a column (Munger's), sideways along a
// row (Munger's reserve and waste, Masterpiece's rows; a left-hand row grows leftwards).
export function fanStep(kind, classes, key) {
  if (kind === "column") return { ArrowUp: "previous", ArrowDown: "next" }[key] || null;
  if (classes.includes("row-left")) return { ArrowLeft: "next", ArrowRight: "previous" }[key] || null;
  if (classes.includes("fan-x") || classes.includes("row")) return { ArrowLeft: "previous", ArrowRight: "next" }[key] || null;
  return null;
}

function typing(target) {
  return Boolean(target && target.closest && target.closest("input, textarea, select, [contenteditable]"));
}

export class Input {
  // shortcuts: {undo(), summary(), help()}: the page's keys U, S and ?.
  constructor(table, board, play, shortcuts = {}) {
    this.table = table;
    this.board = board;
    this.play = play;
    this.press = null;
    this.peek = new Peek(table);
    const el = table.el;
    el.addEventListener("pointerleave", () => {
      if (!this.press) this.peek.hide();
    });
    // A long press is the inspection, never the browser's menu.
    el.addEventListener("contextmenu", (e) => e.preventDefault());
    el.addEventListener("pointerdown", (e) => this.pointerDown(e));
    el.addEventListener("pointermove", (e) => this.pointerMove(e));
    el.addEventListener("pointerup", (e) => this.pointerUp(e));
    el.addEventListener("pointercancel", () => this.cancelPress());
    el.addEventListener("lostpointercapture", () => {
      if (this.press && this.press.dragging) this.cancelPress();
    });
    el.addEventListener("keydown", (e) => this.keyDown(e));
    el.addEventListener("focusin", (e) => {
      const pile = e.target.closest && e.target.closest(".pile");
      if (pile && table.gridIndex(pile)) table.setTabStop(pile);
    });
    // Escape puts back what is picked up, wherever the focus is.
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && board.cancel()) e.preventDefault();
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || e.defaultPrevented) return;
      if ((e.key === "u" || e.key === "U") && shortcuts.undo) {
        e.preventDefault();
        shortcuts.undo();
      } else if ((e.key === "s" || e.key === "S") && shortcuts.summary) {
        e.preventDefault();
        shortcuts.summary();
      } else if (e.key === "?" && shortcuts.help) {
        e.preventDefault();
        shortcuts.help();
      }
    });
    // Double-click on a mouse is handled through taps; stop the browser selecting text.
    el.addEventListener("dblclick", (e) => e.preventDefault());
  }

  // The pile and card pressed: what the pointer is on, or, when that is a card on its way
  // to another place (a slide still drawn), what lies under it (Table.pressAt).
  pressed(e) {
    const hit = e.target.closest && e.target.closest(".card");
    if (hit && Table.moving(hit)) return this.table.pressAt(e.clientX, e.clientY);
    const pile = e.target.closest && e.target.closest(".pile");
    if (!pile || !this.table.el.contains(pile)) return null;
    return { pile, card: hit };
  }

  pointerDown(e) {
    if (e.button !== 0 || !this.board.playing()) return;
    const at = this.pressed(e);
    if (!at) return;
    const { pile, card } = at;
    this.peek.hide();
    // at: when the finger or button went down (the event's own time: a busy page handles it
    // late, but a press is as long as the person held it).
    this.press = { id: e.pointerId, x: e.clientX, y: e.clientY, pile, card, dragging: false, unit: null, long: false, at: e.timeStamp };
    const press = this.press;
    if (card) {
      press.timer = setTimeout(() => {
        if (this.press !== press || press.dragging) return;
        press.long = true;
        this.peek.longPress(card);
      }, LONG_PRESS_MS);
    }
    try {
      this.table.el.setPointerCapture(e.pointerId);
    } catch {
      /* the pointer is gone already */
    }
  }

  pointerMove(e) {
    const press = this.press;
    if (!press) {
      if (e.pointerType === "mouse") this.peek.hover(e.target.closest(".card"));
      return;
    }
    if (press.id !== e.pointerId) return;
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      clearTimeout(press.timer);
      if (press.long) {
        // Held, then moved: a drag after all.
        press.long = false;
        this.peek.hide();
      }
      if (this.play.busy) return;
      if (press.card && !press.card.dataset.card) {
        this.press = null; // a face-down card never moves
        return;
      }
      if (!this.board.select(press.pile, press.card)) {
        this.press = null;
        return;
      }
      press.dragging = true;
      press.unit = this.board.selection.unit;
    }
    e.preventDefault();
    this.table.drag(press.unit, dx, dy);
    this.table.hover(this.table.pileAt(e.clientX, e.clientY), press.pile);
  }

  async pointerUp(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId) return;
    this.press = null;
    clearTimeout(press.timer);
    if (press.long) {
      this.peek.hide();
      // An inspection, not a tap; unless the press was short and the page too busy to see it
      // end before the long press's timer (a quick tap on a loaded machine is still a tap).
      if (e.timeStamp - press.at >= LONG_PRESS_MS) return;
    }
    if (!press.dragging) {
      this.board.tap(press.pile, press.card);
      return;
    }
    const over = this.table.pileAt(e.clientX, e.clientY);
    if (!over || over === press.pile || over.dataset.name === press.pile.dataset.name) {
      this.table.springBack(press.unit);
      this.board.clearSelection();
      return;
    }
    this.table.drop(press.unit);
    await this.board.playTo(over, { dragged: press.unit });
  }

  cancelPress() {
    const press = this.press;
    this.press = null;
    if (press) clearTimeout(press.timer);
    this.peek.hide();
    if (press && press.dragging) {
      this.table.springBack(press.unit);
      this.board.clearSelection();
    }
  }

  keyDown(e) {
    const pile = e.target.closest && e.target.closest(".pile");
    if (!pile || !this.table.gridIndex(pile)) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.board.key(pile);
      return;
    }
    const where = POINT[e.key] || (e.shiftKey ? fanStep(pile.dataset.kind, [...pile.classList], e.key) : null);
    if (where) {
      e.preventDefault();
      this.board.point(pile, where);
      return;
    }
    const direction = ARROWS[e.key];
    if (!direction) return;
    e.preventDefault();
    const next = this.table.neighbour(pile, direction);
    if (next && next !== pile) this.table.focus(next);
  }
}
