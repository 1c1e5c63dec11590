// The table: draws a state the server sent through a game's layout (munger.js,
// masterpiece.js), slides the cards that moved, and shows what the board asks (a picked-up
// unit, its targets, playable cards). It decides nothing: board.js does, from the server's
// moves; input.js turns pointer and keys into the board's calls.

import { faceCard } from "./cards.js";
import { bestFit, fanFor } from "./fit.js";
import { t } from "./strings.js";

export const reducedMotion = () =>
  Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

// The least room a person's finger gets on a strip of a fanned column, when the screen has it.
const TOUCH_PX = 24;

export class Table {
  // anchor: the element the table's controls start at (the play section): on a screen too
  // short for the page's header and the table together, the page scrolls to it.
  constructor(el, layout, { anchor = null } = {}) {
    this.el = el;
    this.layout = layout;
    this.anchor = anchor;
    this.scrolled = false;
    this.grid = [];
    this.foundationFor = () => [];
    this.focusAt = null; // {r, c} of the pile that has the tab stop
    this.attempt = null;
    this.rooms = new Map(); // the tallest height of each steady line, by width (keepRoom)
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
    this.keepRoom();
    this.grid = drawn.grid;
    this.foundationFor = drawn.foundationFor;
    this.el.dataset.seq = String(state.seq);
    this.el.dataset.attempt = String(state.id);
    this.el.dataset.status = state.status;
    this.el.classList.toggle("over", state.status !== "playing");
    this.markPlayable(moves);
    this.markLast(state.last_move);
    this.fit();
    this.setRoving(focused, hadFocus);
    if (!this.instant()) {
      this.animateFrom(before);
      this.markTurned(faces);
    }
  }

  // A line of the layout whose words change with the game (data-steady: Masterpiece's
  // direction) keeps the tallest room it had at this width, so the cards under it never move
  // up or down under a quick tap.
  keepRoom() {
    for (const line of this.el.querySelectorAll("[data-steady]")) {
      const key = `${line.dataset.steady}:${this.el.clientWidth}`;
      const had = this.rooms.get(key) || 0;
      const height = line.getBoundingClientRect().height;
      if (height < had) line.style.minHeight = `${had}px`;
      else this.rooms.set(key, height);
    }
  }

  // The speed setting "instant" (chrome.js): cards jump, nothing slides or flips.
  instant() {
    return Boolean(this.el.closest('[data-speed="instant"]'));
  }

  // -- fitting the screen ----------------------------------------------------------------------

  // Sizes the cards so the whole table fits the width and the height left for it (the
  // layout's `fit` says how many card widths it needs each way), then closes up long fans.
  // The height is the window's less what is above the table: the page's header too, when
  // that leaves the cards nearly as big; else from the play section down (the controls), and
  // the page scrolls there once.
  fit() {
    const spec = this.layout.fit;
    if (!spec || !this.el.isConnected) return;
    const style = getComputedStyle(this.el);
    const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) + spec.margin;
    const width = this.el.clientWidth - padX;
    const top = this.el.getBoundingClientRect().top + window.scrollY;
    // A fan opened up for its corners is wider: the arrangements that lay it across count it.
    const extra = this.openFans(spec.readableFans || []);
    const arrangements = spec.arrangements.map((a) => (a.fansAcross && extra ? { ...a, across: a.across + extra } : a));
    const sizeFor = (height) =>
      bestFit(arrangements, { width, height, gap: width * spec.gap, maxWidth: spec.maxWidth, minWidth: TOUCH_PX });
    const anchorTop = this.anchor ? this.anchor.getBoundingClientRect().top + window.scrollY : 0;
    let height = window.innerHeight - top - padY;
    let best = sizeFor(height);
    let scrollTo = null;
    if (this.anchor) {
      const below = window.innerHeight - (top - anchorTop) - padY;
      const anchored = sizeFor(below);
      if (best.width < 0.9 * anchored.width) {
        height = below;
        best = anchored;
        if (!this.scrolled) scrollTo = anchorTop;
      }
    }
    const size = `${Math.floor(best.width)}px`;
    // The cards change size or place (a notice over the table, a turned phone): a slide on its
    // way would end where the card no longer is, and start off the table; it lands at once.
    if (size !== this.el.style.getPropertyValue("--fit-w") || best.name !== this.el.dataset.arrangement) this.land();
    this.el.dataset.arrangement = best.name;
    this.el.style.setProperty("--fit-w", size);
    const bottom = top + parseFloat(style.paddingTop) + height;
    for (const pile of this.el.querySelectorAll(".pile.column")) this.fitColumn(pile, bottom);
    if (scrollTo !== null) {
      window.scrollTo({ top: scrollTo, behavior: "instant" });
      // Done once the page was long enough to get there (it may grow after the first draw).
      this.scrolled = window.scrollY >= scrollTo - 1;
    }
  }

  // The fans (by pile name) whose covered cards must show their corner whole, Munger's
  // reserve: each opens up as far as the widest corner needs (a "10", large corners on), in
  // card widths, so at any size; the stylesheet's step otherwise. How much wider, in card
  // widths, the widest of them got.
  openFans(names) {
    let extra = 0;
    for (const name of names) {
      const pile = this.pileByName(name);
      if (!pile) continue;
      pile.style.removeProperty("--fan-x");
      const probe = faceCard("TC");
      probe.setAttribute("aria-hidden", "true");
      probe.style.visibility = "hidden";
      probe.style.setProperty("--i", "1");
      pile.append(probe);
      const box = probe.getBoundingClientRect();
      const width = box.width;
      const step = (box.left - pile.getBoundingClientRect().left - pile.clientLeft) / width;
      // The corner's box, and a little for the ink of a glyph set tight (letter-spacing).
      const need = (probe.querySelector(".corner-left").getBoundingClientRect().right - box.left) / width + 0.01;
      probe.remove();
      if (!width || !(need > step + 0.005)) continue;
      pile.style.setProperty("--fan-x", `calc(var(--card-w) * ${need.toFixed(3)})`);
      extra = Math.max(extra, (need - step) * Math.max(0, this.cardsOf(pile).length - 1));
    }
    return extra;
  }

  // A column's fan: wide enough strips for a finger, closed up when it would pass `bottom`
  // (a page position).
  fitColumn(pile, bottom) {
    const cards = this.cardsOf(pile);
    const last = cards[cards.length - 1];
    const w = pile.offsetWidth;
    // A face-up strip shows the card's corner index: how much of a card width that takes is
    // the stylesheet's (--strip-up: larger with the large-index setting).
    const strip = parseFloat(getComputedStyle(pile).getPropertyValue("--strip-up")) || 0.38;
    const natural = { fanDown: w * 0.16, fanUp: Math.max(w * strip, Math.min(TOUCH_PX, w * 0.6)) };
    const fan = last
      ? fanFor({
          budget: bottom - (pile.getBoundingClientRect().top + window.scrollY),
          cardHeight: w * 1.4,
          down: Number(last.style.getPropertyValue("--down")) || 0,
          up: Number(last.style.getPropertyValue("--up")) || 0,
          ...natural,
        })
      : natural;
    pile.style.setProperty("--fan-down", `${fan.fanDown.toFixed(1)}px`);
    pile.style.setProperty("--fan-up", `${fan.fanUp.toFixed(1)}px`);
  }

  // The server's last card move: the pile it left and the card it brought stay marked until
  // the next state.
  markLast(last) {
    if (!last) return;
    const [src, dst] = last.move.split(">");
    const from = this.pileByName(src);
    if (from) from.classList.add("last-from");
    const to = dst === "F" && last.card ? this.foundationFor(last.card[1])[0] : this.pileByName(dst);
    if (!to) return;
    const card = last.card ? to.querySelector(`[data-card="${last.card}"]`) : null;
    (card || to).classList.add("last-to");
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

  // Where each face-up card (and the stock) is drawn, from the table's corner: a redraw that
  // scrolls the page or moves the table (fit) moves the table, not the cards' starting points.
  positions() {
    const map = new Map();
    if (reducedMotion()) return map;
    const frame = this.el.getBoundingClientRect();
    const at = (node) => {
      const box = node.getBoundingClientRect();
      return { left: box.left - frame.left, top: box.top - frame.top };
    };
    for (const card of this.el.querySelectorAll(".card[data-card]")) map.set(card.dataset.card, at(card));
    const stock = this.el.querySelector('.pile[data-name="S"]');
    if (stock) map.set("stock", at(stock));
    return map;
  }

  // FLIP: each card that moved starts where it was and slides to its new place.
  animateFrom(before) {
    if (!before.size) return;
    const frame = this.el.getBoundingClientRect();
    for (const card of this.el.querySelectorAll(".card[data-card]")) {
      // A card new to the table comes from the stock (a draw onto the waste).
      const drawn = !before.has(card.dataset.card) && card.closest('.pile[data-name="W"]');
      const old = before.get(card.dataset.card) || (drawn ? before.get("stock") : null);
      if (!old) continue;
      const now = card.getBoundingClientRect();
      const dx = old.left - (now.left - frame.left);
      const dy = old.top - (now.top - frame.top);
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      card.classList.add("no-transition", "flying");
      card.style.setProperty("--dx", `${dx}px`);
      card.style.setProperty("--dy", `${dy}px`);
      card.getBoundingClientRect(); // commit the start position
      card.classList.remove("no-transition");
      card.style.setProperty("--dx", "0px");
      card.style.setProperty("--dy", "0px");
      // A sliding card takes no input (pointer-events in game.css) until its own slide has
      // ended (not a shadow's transition, nor one of its corners'). The class is only the fast
      // path: on a slow machine the slide may still be drawn after its end was signalled, so
      // a press looks through any card away from its place (pressAt).
      const landed = () => card.classList.remove("flying");
      const end = (e) => {
        if (e.target !== card || e.propertyName !== "transform") return;
        card.removeEventListener("transitionend", end);
        landed();
      };
      card.addEventListener("transitionend", end);
      setTimeout(landed, 600);
    }
  }

  // -- piles and cards ----------------------------------------------------------------------

  // The places of the layout that one tap never fills (their names in move tokens).
  spared() {
    return this.layout.spared || [];
  }

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

  // Whether a card is drawn away from its place: sliding there (a move, a card springing
  // back), dragged, or dropped and waiting for the server. Read from what is drawn (its
  // offset), not from a timer: under load the slide outlasts the signal of its end.
  static moving(card) {
    if (card.classList.contains("dragging") || card.classList.contains("landing")) return true;
    const shift = getComputedStyle(card).transform;
    if (!shift || shift === "none") return false;
    const m = shift.match(/^matrix\((.+)\)$/);
    if (!m) return false;
    const [, , , , dx, dy] = m[1].split(",").map(Number);
    return Math.abs(dx) >= 1 || Math.abs(dy) >= 1;
  }

  // What a press at a point means: the pile there and the card of it, as they lie once every
  // card is in its place. A card on its way (Table.moving) is looked through: a tap on the
  // stock while the card it drew slides off it is a tap on the stock. Null off the table.
  pressAt(x, y) {
    for (const node of document.elementsFromPoint(x, y)) {
      const card = node.closest(".card");
      if (card && Table.moving(card)) continue;
      const pile = node.closest(".pile");
      if (!pile || !this.el.contains(pile)) return null;
      return { pile, card: card && pile.contains(card) ? card : null };
    }
    return null;
  }

  // The pile under a point, ignoring cards being dragged or on their way.
  pileAt(x, y) {
    for (const node of document.elementsFromPoint(x, y)) {
      const card = node.closest(".card");
      if (node.closest(".dragging") || (card && Table.moving(card))) continue;
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

  // The card the keyboard points at in a fan (Home, End, Shift+arrows).
  showCursor(card) {
    for (const node of this.el.querySelectorAll(".card.cursor")) node.classList.remove("cursor");
    if (card) card.classList.add("cursor");
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

  // Every card still sliding is put in its place at once.
  land() {
    for (const card of this.el.querySelectorAll(".card.flying")) {
      card.classList.add("no-transition");
      card.style.setProperty("--dx", "0px");
      card.style.setProperty("--dy", "0px");
      card.getBoundingClientRect();
      card.classList.remove("no-transition", "flying");
    }
  }

  // Cards dropped at the end of a drag wait there for the server's answer.
  drop(cards) {
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

  // The keyboard's rows as the table is drawn now: piles whose tops line up (within half a
  // card) make one row, left to right, the rows top to bottom. So the arrows follow what is on
  // the screen, whatever the arrangement: Munger's reserve is in the top row where it is drawn
  // there (a wide screen), in a row of its own where it is drawn under it.
  drawnRows() {
    const items = this.piles().map((pile) => ({ pile, box: pile.getBoundingClientRect() }));
    items.sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
    const rows = [];
    for (const item of items) {
      const row = rows[rows.length - 1];
      const first = row && row[0].box;
      if (first && Math.abs(item.box.top - first.top) < Math.min(item.box.height, first.height) / 2) row.push(item);
      else rows.push([item]);
    }
    return rows.map((row) => row.sort((a, b) => a.box.left - b.box.left).map((item) => item.pile));
  }

  // The pile one step from `pile` in a direction ("left", "right", "up", "down") of the rows as
  // drawn, or null at an edge. Up and down go to the nearest row that has a pile right above or
  // below this one on the screen (so a column reaches the foundation over it in one key), else
  // to the next row's pile nearest sideways.
  neighbour(pile, direction) {
    const rows = this.drawnRows();
    const r = rows.findIndex((row) => row.includes(pile));
    if (r < 0) return null;
    const row = rows[r];
    const c = row.indexOf(pile);
    if (direction === "left") return row[Math.max(0, c - 1)];
    if (direction === "right") return row[Math.min(row.length - 1, c + 1)];
    const step = direction === "up" ? -1 : 1;
    const box = pile.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const distance = (p) => {
      const b = p.getBoundingClientRect();
      return x < b.left ? b.left - x : x > b.right ? x - b.right : 0;
    };
    for (let k = r + step; k >= 0 && k < rows.length; k += step) {
      const over = rows[k].find((p) => distance(p) === 0);
      if (over) return over;
    }
    const next = rows[r + step];
    if (!next) return null;
    return next.reduce((a, b) => (distance(b) < distance(a) ? b : a));
  }

  focus(pile) {
    this.setTabStop(pile);
    pile.focus();
  }
}
