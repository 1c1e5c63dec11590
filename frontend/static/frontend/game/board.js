// The board: what a tap, a drag or a key on the table means. It knows no rules: what it
// offers are the moves the server listed (play.moves), and anything else a person tries is
// sent to the server, whose reason is shown. The table (table.js) draws; input.js listens.

import { movesFrom } from "./moves.js";
import { capitalise, cardName, pileName, placeName, t } from "./strings.js";
import { Table } from "./table.js";

const DOUBLE_TAP_MS = 400;

export class Board {
  // table: the Table; play: the game (game.js): state, moves, busy, move(token, info).
  constructor(table, play, { say }) {
    this.table = table;
    this.play = play;
    this.say = say;
    this.selection = null;
    this.lastTap = null;
  }

  playing() {
    return this.play.playing();
  }

  // Draw a new state: what was picked up is put back.
  render(state) {
    this.selection = null;
    this.table.render(state, this.play.moves);
  }

  // The cards a person picks up: from the card taken (a column) or the top card (elsewhere).
  unitFor(pile, card) {
    const cards = this.table.cardsOf(pile);
    if (!cards.length || pile.dataset.kind === "fixed") return null;
    if (pile.dataset.kind === "column" && card && card.dataset.card) return cards.slice(cards.indexOf(card));
    const top = cards[cards.length - 1];
    return top.dataset.card ? [top] : null;
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

  tap(pile, card) {
    if (this.play.busy) return;
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
  activate(pile, card, { byKeyboard }) {
    if (!this.playing()) return;
    const sel = this.selection;
    const name = pile.dataset.name;
    if (sel) {
      if (pile === sel.pile || name === sel.src) {
        const other = !byKeyboard && card && card.dataset.card && !sel.unit.includes(card) ? card : null;
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
