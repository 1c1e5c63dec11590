// Masterpiece's table: the Aces (foundations) in a centre column, each with its main row on the
// left (M1..M4, growing leftwards) and on the right (M5..M8, growing rightwards); the cellar
// under the Aces with the auxiliary rows A1 (left) and A2 (right). Each row's free card is its
// outermost one, drawn on top.

import { describePile, fillPile, makePile } from "./piles.js";
import { capitalise, pileName, t } from "./strings.js";

function topOf(view, name) {
  if (/^M\d$/.test(name)) {
    const row = view.main_rows[Number(name.slice(1)) - 1] || [];
    return row[row.length - 1] || null;
  }
  if (/^A\d$/.test(name)) {
    const row = view.auxiliary_rows[Number(name.slice(1)) - 1] || [];
    return row[row.length - 1] || null;
  }
  if (name === "C") return view.cellar || null;
  return null;
}

// A row, its outermost card marked free (rule 4: the only one that may move). Empty, a main
// row takes any free card (rule 6); an auxiliary row is never refilled.
function row(view, name, side) {
  const main = /^M/.test(name);
  const cards = main
    ? view.main_rows[Number(name.slice(1)) - 1] || []
    : view.auxiliary_rows[Number(name.slice(1)) - 1] || [];
  const pile = makePile(name, { classes: `row row-${side}` });
  const drawn = fillPile(pile, cards.map((code) => ({ code, up: true })), {
    emptyMark: main ? t("slot_any") : "–",
    placeText: pileName(name),
  });
  if (drawn.length) drawn[drawn.length - 1].classList.add("free");
  pile.setAttribute("aria-label", describePile(name, cards.length, topOf(view, name), t(main ? "takes_any" : "takes_nothing")));
  return pile;
}

export const masterpiece = {
  name: "masterpiece",
  topOf,
  // One tap never fills the cellar: it holds one card, and a tap that spends it can end a
  // game; a card whose only place it is gets picked up (board.js, moves.js smartMove).
  spared: ["C"],
  // How the table fits a screen (table.js), in card widths: rows close up sideways by
  // themselves; five card heights tall, plus the direction line.
  fit: {
    gap: 0.01,
    maxWidth: 74,
    margin: 8,
    // "rows": the cellar and the auxiliary rows under the Aces; "side" (a short, wide
    // screen): in a column of their own on the right.
    arrangements: [
      { name: "rows", across: 7.2, gapsAcross: 0, tall: 5 * 1.4, gapsTall: 6, extra: 46 },
      { name: "side", across: 10, gapsAcross: 2, tall: 4 * 1.4, gapsTall: 3, extra: 28 },
    ],
  },

  render(board, view) {
    const direction = document.createElement("p");
    direction.className = "direction";
    direction.dataset.direction = view.direction || "open";
    // Its words change when the first card fixes the direction (and back, by an undo): it
    // keeps the room of its longest words (table.js, data-steady), so the cards never move
    // under a finger.
    direction.dataset.steady = "direction";
    direction.textContent =
      view.direction === "up" ? t("direction_line_up") : view.direction === "down" ? t("direction_line_down") : t("direction_open");

    const table = document.createElement("div");
    table.className = "masterpiece-table";

    const centre = document.createElement("div");
    centre.className = "aces";
    centre.dataset.pile = "F";
    centre.setAttribute("role", "group");
    centre.setAttribute("aria-label", capitalise(t("pile_foundations")));

    const grid = [];
    const slots = [];
    view.foundations.forEach((f, i) => {
      const left = row(view, `M${i + 1}`, "left");
      const right = row(view, `M${i + 5}`, "right");
      const slot = makePile("F", { kind: "fixed", hook: null, classes: "foundation" });
      slot.dataset.suit = f.suit;
      slot.dataset.dest = "F";
      fillPile(slot, f.top ? [{ code: f.top, up: true }] : [], { placeText: pileName("F") });
      slot.setAttribute(
        "aria-label",
        t("foundation_label", { suit: t(`suit_${f.suit}`), n: f.count, top: f.top ? t(`rank_${f.top[0]}`) : "" }),
      );
      left.style.setProperty("grid-row", String(i + 1));
      slot.style.setProperty("grid-row", String(i + 1));
      right.style.setProperty("grid-row", String(i + 1));
      table.append(left, right);
      centre.append(slot);
      slots.push(slot);
      grid.push([left, slot, right]);
    });
    table.append(centre);

    const a1 = row(view, "A1", "left");
    const a2 = row(view, "A2", "right");
    a1.classList.add("auxiliary");
    a2.classList.add("auxiliary");
    // The cellar is a hollow with its name under it, full or empty: never a fifth foundation.
    const cellar = makePile("C", { classes: "cellar" });
    fillPile(cellar, view.cellar ? [{ code: view.cellar, up: true }] : [], {
      emptyMark: t("slot_any"),
      placeText: pileName("C"),
    });
    const caption = document.createElement("span");
    caption.className = "pile-caption";
    caption.setAttribute("aria-hidden", "true");
    caption.textContent = capitalise(pileName("C"));
    cellar.append(caption);
    cellar.setAttribute("aria-label", describePile("C", view.cellar ? 1 : 0, view.cellar, t("takes_any")));
    table.append(a1, cellar, a2);
    grid.push([a1, cellar, a2]);

    board.append(direction, table);
    return {
      grid,
      foundationFor: (suit) => slots.filter((s) => !suit || s.dataset.suit === suit),
    };
  },
};
