// Hints in practice: the Hint button (and the H key), shown only where the server allows hints
// (`hints_open` in the state: practice, never a daily still played for rank), the request, and
// the hinted move marked on the table (the pile it leaves, the card it carries, the pile it
// goes to) until another position is drawn. The server's answer names a move token and a
// face-up card only; nothing here knows a rule.

import { el } from "../common/dom.js";
import { api } from "./api.js";
import { errorText } from "./game.js";
import { cardName, pileName, placeName, t } from "./strings.js";

const MARKS = ["hint-from", "hint-to", "hint-card"];

// The places of a hint's move: {src, dst, card}, or null for an answer that is not a move.
export function hintPlaces(answer) {
  if (!answer || answer.status !== "move" || !answer.move) return null;
  const [src, dst] = answer.move.split(">");
  return { src, dst, card: answer.card || null };
}

// A hint in words, for the status line (and screen readers).
export function hintText(answer) {
  const places = hintPlaces(answer);
  if (places) {
    if (places.src === "S") return t("hint_draw");
    return t("hint_move", { card: cardName(places.card), from: pileName(places.src), place: placeName(places) });
  }
  if (answer && answer.status === "undo") return t("hint_undo", { n: answer.undo });
  if (answer && answer.status === "no_win") return t("hint_no_win");
  if (answer && answer.status === "unsure") return t("hint_unsure", { n: answer.undo });
  if (answer && answer.status === "won") return t("end_won");
  return t("hint_timeout");
}

export class Hints {
  // game: game.js's Game; table: table.js's Table; say(text): the status line.
  constructor(game, table, say) {
    this.game = game;
    this.table = table;
    this.say = say;
    this.answer = null;
    this.asking = false;
    this.button = el("button", { type: "button", className: "btn", testid: "hint", text: t("hint"), title: t("hint_title"), hidden: true });
    this.button.setAttribute("aria-keyshortcuts", "H");
    this.button.addEventListener("click", () => this.ask());
    document.addEventListener("keydown", (e) => {
      if ((e.key !== "h" && e.key !== "H") || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.target && e.target.closest && e.target.closest("input, textarea, select, [contenteditable]")) return;
      if (this.available()) {
        e.preventDefault();
        this.ask();
      }
    });
  }

  available() {
    const s = this.game.state;
    return Boolean(s && s.hints_open && s.status === "playing" && !this.button.hidden);
  }

  // After every state: the button where hints are allowed, enabled while none is asked.
  update(state) {
    this.button.hidden = !(state && state.hints_open);
    this.button.disabled = this.asking || !state || state.status !== "playing";
  }

  // After the table is drawn again: the marks of a hint still meant for this position.
  redraw(state) {
    if (this.answer && state && this.answer.attempt === state.id && this.answer.seq === state.seq) this.mark(this.answer);
    else this.answer = null;
  }

  async ask() {
    const state = this.game.state;
    if (!state || this.asking || this.game.busy) return;
    this.asking = true;
    this.update(state);
    try {
      const answer = await api.hint(state.id);
      const now = this.game.state;
      if (!now || now.id !== answer.attempt || now.seq !== answer.seq) return; // moved on meanwhile
      this.answer = answer;
      // The server's count of hints, after this one, is shown at once (the same position).
      if (typeof answer.hints === "number") this.game.recount({ hints: answer.hints });
      this.mark(answer);
      this.say(hintText(answer));
    } catch (error) {
      this.say(error && error.code === "throttled" ? t("hint_throttled") : errorText(error));
    } finally {
      this.asking = false;
      this.update(this.game.state);
    }
  }

  clear() {
    for (const name of MARKS) {
      for (const node of this.table.el.querySelectorAll(`.${name}`)) node.classList.remove(name);
    }
  }

  // The foundation a card of `suit` goes to (any empty one while none holds its suit).
  foundation(suit) {
    const found = this.table.foundationFor(suit);
    return (found.length ? found : this.table.foundationFor(null))[0] || null;
  }

  mark(answer) {
    this.clear();
    const places = hintPlaces(answer);
    if (!places) return;
    const from = this.table.pileByName(places.src);
    const to = places.dst === "F" && places.card ? this.foundation(places.card[1]) : this.table.pileByName(places.dst);
    if (from) from.classList.add("hint-from");
    if (to) to.classList.add("hint-to");
    const card = from && places.card ? from.querySelector(`[data-card="${places.card}"]`) : null;
    if (card) card.classList.add("hint-card");
  }
}
