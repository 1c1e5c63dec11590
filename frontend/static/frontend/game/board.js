// The board: what a tap, a drag or a key on the table means. It knows no rules: what it
// offers are the moves the server listed (play.moves), and anything else a person tries is
// sent to the server, whose reason is shown. The table (table.js) draws; input.js listens.

import { movesFrom, smartMove } from "./moves.js";
import { capitalise, cardName, pileName, placeName, t } from "./strings.js";
import { Table } from "./table.js";

const DOUBLE_TAP_MS = 400;

export class Board {
  // table: the Table; play: the game (game.js): state, moves, busy, move(token, info);
  // oneTap(): whether a tap makes the smart move (a setting of the page).
  constructor(table, play, { say, oneTap = () => false }) {
    this.table = table;
    this.play = play;
    this.say = say;
    this.oneTap = oneTap;
    this.selection = null;
    this.lastTap = null;
    this.queue = []; // taps and keys that came while a move was on its way, in order
    this.cursor = null; // {pile, index}: the card the keyboard points at in a fan
  }

  playing() {
    return this.play.playing();
  }

  // Draw a new state: what was picked up is put back.
  render(state) {
    this.selection = null;
    this.cursor = null;
    this.table.render(state, this.play.moves);
  }

  // The cards a person picks up: from the card taken (a column; a face-down card there means
  // the lowest face-up card above it) or the top card (elsewhere).
  unitFor(pile, card) {
    const cards = this.table.cardsOf(pile);
    if (!cards.length || pile.dataset.kind === "fixed") return null;
    const at = card ? cards.indexOf(card) : -1;
    if (pile.dataset.kind === "column" && at >= 0) {
      const lead = cards.findIndex((c, i) => i >= at && c.dataset.card);
      if (lead >= 0) return cards.slice(lead);
    }
    const top = cards[cards.length - 1];
    return top.dataset.card ? [top] : null;
  }

  // -- input that comes while a move is on its way --------------------------------------------

  // A tap or key while the server has not answered yet waits its turn: it is kept by pile
  // name and card (the table is drawn anew before it is replayed) and played in order.
  later(kind, pile, card) {
    const cards = this.table.cardsOf(pile);
    this.queue.push({
      kind,
      name: pile.dataset.name,
      suit: pile.dataset.suit || "",
      code: card && card.dataset.card ? card.dataset.card : null,
      index: card ? cards.indexOf(card) : -1,
      at: Date.now(),
    });
  }

  // Replays what waited, in order, while no move is on its way. A tap aimed at a card that
  // has left its pile since (the second tap of a double tap on a card the first one moved)
  // has nothing left to take: it is not turned into a tap on another card.
  drain() {
    while (this.queue.length && !this.play.busy) {
      const item = this.queue.shift();
      if (item.kind === "undo") {
        this.undo();
        continue;
      }
      const pile = this.table.piles().find((p) => p.dataset.name === item.name && (p.dataset.suit || "") === item.suit);
      if (!pile) continue;
      const cards = this.table.cardsOf(pile);
      const card = item.code ? cards.find((c) => c.dataset.card === item.code) : item.index >= 0 ? cards[item.index] : null;
      if (item.kind === "key") this.activate(pile, null, { byKeyboard: true });
      else if (item.code && !card) this.lastTap = null;
      else this.tap(pile, card || null, item.at, { aimed: item.code });
    }
  }

  // Undo (the button or U): now, or after the move on its way, in its turn with the taps.
  undo() {
    if (this.play.busy) {
      this.queue.push({ kind: "undo" });
      return;
    }
    this.clearSelection();
    this.play.undo();
  }

  // Enter or Space on a pile: now, or after the move on its way.
  key(pile) {
    if (this.play.busy) this.later("key", pile, null);
    else if (this.cursor && this.cursor.pile === pile) this.activate(pile, this.table.cardsOf(pile)[this.cursor.index], { byKeyboard: false, byCursor: true });
    else this.activate(pile, null, { byKeyboard: true });
  }

  // -- the keyboard's card in a fan -----------------------------------------------------------

  // Home/End ("first"/"last") and Shift+arrows ("previous"/"next" card of the fan) point at one face-up card
  // of the focused pile and say it; with a run picked up from that pile, the run now starts
  // there (a shorter or longer run), and the first step goes from the card that leads it.
  point(pile, where) {
    const cards = this.table.cardsOf(pile);
    const faces = cards.map((c, i) => (c.dataset.card ? i : -1)).filter((i) => i >= 0);
    if (!faces.length) return false;
    const held = this.selection && this.selection.pile === pile ? cards.indexOf(this.selection.unit[0]) : -1;
    const now = this.cursor && this.cursor.pile === pile ? this.cursor.index : held >= 0 ? held : faces[faces.length - 1];
    let index = now;
    if (where === "first") index = faces[0];
    else if (where === "last") index = faces[faces.length - 1];
    else {
      const k = faces.indexOf(now) + (where === "next" ? 1 : -1);
      index = faces[Math.max(0, Math.min(faces.length - 1, k))];
    }
    this.cursor = { pile, index };
    this.table.showCursor(cards[index]);
    const sel = this.selection;
    if (sel && sel.pile === pile && pile.dataset.kind === "column") {
      this.select(pile, cards[index]);
      return true;
    }
    this.say(cards[index].getAttribute("aria-label"));
    return true;
  }

  // The moves a picked-up unit may make. lead null: the whole pile's moves (keyboard).
  movesFor(src, lead) {
    const exact = movesFrom(this.play.moves, src, lead);
    if (!lead || exact.length) return exact;
    const pile = this.table.pileByName(src);
    return pile && pile.dataset.kind !== "column" ? movesFrom(this.play.moves, src) : [];
  }

  // -- selection ----------------------------------------------------------------------------

  select(pile, card, { byKeyboard = false } = {}) {
    this.clearSelection();
    const src = pile.dataset.name;
    let unit = this.unitFor(pile, byKeyboard ? null : card);
    if (!unit) return false;
    const lead = byKeyboard ? null : unit[0].dataset.card;
    const moves = this.movesFor(src, lead);
    if (byKeyboard && moves.length) {
      // Show the longest run the pile's moves take.
      const longest = moves.reduce((a, b) => (b.count > a.count ? b : a));
      const cards = this.table.cardsOf(pile);
      const at = cards.findIndex((c) => c.dataset.card === longest.card);
      if (at >= 0) unit = cards.slice(at);
    }
    const targets = new Map();
    for (const move of moves) {
      for (const target of this.table.targetPiles(move)) targets.set(target, move);
    }
    this.selection = { src, pile, lead, unit, moves, targets };
    this.table.showSelection(pile, unit, targets.keys());
    const name = cardName(lead || unit[0].dataset.card);
    if (targets.size) {
      const places = [...new Set([...targets.values()].map((m) => placeName(m)))].join(", ");
      this.say(t("selected", { card: name, places }));
    } else {
      this.say(t("selected_no_move", { card: name }));
    }
    return true;
  }

  clearSelection() {
    this.table.clearSelection();
    this.selection = null;
  }

  // Escape: put back what is picked up.
  cancel() {
    if (!this.selection) return false;
    this.clearSelection();
    this.say(t("selection_cleared"));
    return true;
  }

  // Plays the selection onto a pile: a listed move, or a try the server will judge.
  async playTo(pile, { dragged = null } = {}) {
    const sel = this.selection;
    if (!sel) return false;
    const dest = Table.destOf(pile);
    const token = `${sel.src}>${dest}`;
    const listed = this.play.moves.find((m) => m.token === token);
    if (listed && sel.lead && listed.card && listed.card !== sel.lead) {
      // The move exists but takes another run than the one picked up.
      this.say(t("other_run", { card: cardName(listed.card), place: pileName(dest) }));
      this.table.springBack(dragged);
      this.clearSelection();
      return false;
    }
    const lead = (listed && listed.card) || sel.lead || (sel.unit[0] && sel.unit[0].dataset.card) || null;
    this.clearSelection();
    const ok = await this.play.move(token, { card: lead, src: sel.src, dst: dest });
    if (!ok) this.table.springBack(dragged);
    return ok;
  }

  // -- taps -----------------------------------------------------------------------------------

  // at: when the tap came (a tap that waited keeps its time, for the double tap); aimed: the
  // card a tap that waited was aimed at (what the pile showed then).
  tap(pile, card, at = Date.now(), { aimed = undefined } = {}) {
    if (this.play.busy) {
      this.later("tap", pile, card);
      return;
    }
    const name = pile.dataset.name;
    const key = card && card.dataset.card ? card.dataset.card : null;
    const last = this.lastTap;
    this.lastTap = { key, name, at, moved: false };
    // The second tap of a double tap whose first tap moved the card already: on the same pile
    // soon after; a tap that waited counts only when it was aimed at that card (it may have
    // been aimed at another card of a column).
    const second = aimed === undefined || Boolean(last && aimed === last.key);
    if (last && last.moved && last.name === name && at - last.at < DOUBLE_TAP_MS && second) {
      this.lastTap = null;
      return;
    }
    if (key && last && last.key === key && at - last.at < DOUBLE_TAP_MS) {
      this.lastTap = null;
      if (this.toFoundation(pile, card)) return;
    }
    if (!this.selection && this.oneTap() && this.smart(pile, card)) {
      this.lastTap.moved = true;
      return;
    }
    this.activate(pile, card, { byKeyboard: false });
  }

  // One tap sends a card to its best place (smartMove: its foundation, else its only place,
  // never one the layout spares: Masterpiece's cellar); false when it has none or several, and
  // the card is picked up instead.
  smart(pile, card) {
    if (!this.playing()) return false;
    const unit = this.unitFor(pile, card);
    if (!unit) return false;
    const src = pile.dataset.name;
    const move = smartMove(this.play.moves, src, unit[0].dataset.card, { spared: this.table.spared() });
    if (!move) return false;
    this.play.move(move.token, { card: move.card, src, dst: move.dst });
    return true;
  }

  // Double-click / double-tap: the card goes to its foundation when that move is listed;
  // otherwise the move is sent all the same, and the server's refusal says why it cannot go.
  toFoundation(pile, card) {
    const src = pile.dataset.name;
    const move = this.play.moves.find((m) => m.src === src && m.dst === "F" && m.card === card.dataset.card);
    this.clearSelection();
    const cards = this.table.cardsOf(pile);
    if (move) this.play.move(move.token, { card: move.card, src, dst: "F" });
    else if (cards[cards.length - 1] !== card) this.say(capitalise(t("refusal_not_top", { card: cardName(card.dataset.card) })));
    else this.play.move(`${src}>F`, { card: card.dataset.card, src, dst: "F" });
    return true;
  }

  // A tap or Enter on a pile: draw from the stock, pick up, put down or change the selection.
  // byCursor: Enter on the card the keyboard points at (taken as a tap on it).
  activate(pile, card, { byKeyboard, byCursor = false }) {
    if (!this.playing()) return;
    const sel = this.selection;
    const name = pile.dataset.name;
    if (sel) {
      if (pile === sel.pile || name === sel.src) {
        const other = !byKeyboard && !byCursor && card && card.dataset.card && !sel.unit.includes(card) ? card : null;
        if (other) this.select(pile, other);
        else this.cancel();
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
      const draw = this.play.moves.find((m) => m.src === "S");
      if (draw) this.play.move(draw.token, { card: null, src: "S", dst: draw.dst });
      else if (pile.classList.contains("inert")) this.say(t("no_redeal_hint"));
      else this.play.move("S>W", { card: null, src: "S", dst: "W" });
      return;
    }
    this.select(pile, card, { byKeyboard });
  }
}
