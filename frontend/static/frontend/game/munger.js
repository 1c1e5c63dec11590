// Munger's table: stock and waste, the four foundations, the reserve fanned so every card is
// readable, and the seven columns. Draws what the server's view holds, nothing more.

import { describePile, fillPile, makePile } from "./piles.js";
import { capitalise, cardName, pileName, t } from "./strings.js";

const SUIT_ORDER = ["C", "D", "H", "S"];

function topOf(view, name) {
  if (/^T\d$/.test(name)) {
    const col = view.tableau[Number(name.slice(1)) - 1] || [];
    const last = col[col.length - 1];
    return last && last.face_up ? last.card : null;
  }
  if (name === "R") return view.reserve[view.reserve.length - 1] || null;
  if (name === "W") return view.waste[view.waste.length - 1] || null;
  if (/^F[CDHS]$/.test(name)) {
    const f = view.foundations.find((x) => x.suit === name[1]);
    return f ? f.top : null;
  }
  return null;
}

export const munger = {
  name: "munger",
  topOf,
  // How the table fits a screen (table.js): stacked, the reserve has a row of its own; wide
  // (a short, wide screen), it sits between the waste and the foundations. Sizes in card
  // widths: a card is 1.4 tall, the columns get 2 more for their fans (longer ones close up).
  // The reserve's covered cards show their corner whole (readableFans: table.js opens the fan
  // for large corners); wide, the reserve lies across the top row (fansAcross).
  fit: {
    gap: 0.012,
    maxWidth: 96,
    margin: 8,
    readableFans: ["R"],
    arrangements: [
      { name: "stacked", across: 7, gapsAcross: 6, tall: 3 * 1.4 + 2, gapsTall: 4 },
      { name: "wide", across: 10.6, gapsAcross: 9, tall: 2 * 1.4 + 2, gapsTall: 2, fansAcross: true },
    ],
  },

  render(board, view) {
    const top = document.createElement("div");
    top.className = "munger-top";

    // Stock: a back with its count; empty, it is inert and says there is no redeal.
    const stockCount = view.stock ? view.stock.count : 0;
    const stock = makePile("S", { kind: "fixed", classes: "stock" });
    stock.setAttribute("aria-label", stockCount ? t("stock_label", { n: stockCount }) : t("stock_empty_label"));
    if (stockCount) {
      fillPile(stock, [{ code: null, up: false }], {});
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.setAttribute("aria-hidden", "true");
      badge.textContent = String(stockCount);
      stock.append(badge);
    } else {
      stock.classList.add("inert");
      stock.setAttribute("aria-disabled", "true");
      fillPile(stock, [], { emptyMark: t("no_redeal") });
    }

    const waste = makePile("W", { classes: "waste fan-x" });
    const shown = view.waste.slice(-3);
    fillPile(waste, shown.map((code) => ({ code, up: true })), { emptyMark: t("slot_waste"), placeText: pileName("W") });
    waste.setAttribute("aria-label", describePile("W", view.waste.length, topOf(view, "W"), t("takes_draws")));

    const foundations = document.createElement("div");
    foundations.className = "foundations";
    foundations.dataset.pile = "F";
    foundations.setAttribute("role", "group");
    foundations.setAttribute("aria-label", capitalise(t("pile_foundations")));
    const fPiles = [];
    for (const suit of SUIT_ORDER) {
      const f = view.foundations.find((x) => x.suit === suit) || { suit, top: null, count: 0 };
      const pile = makePile(`F${suit}`, { classes: "foundation" });
      pile.dataset.suit = suit;
      pile.dataset.dest = "F";
      // Empty, each foundation shows the Ace it takes: its own suit's (rule 1).
      fillPile(pile, f.top ? [{ code: f.top, up: true }] : [], { emptyMark: "A", emptySuit: suit, placeText: pileName(`F${suit}`) });
      const ace = t("takes_card", { card: cardName(`A${suit}`) });
      pile.setAttribute("aria-label", describePile(`F${suit}`, f.count, f.top, ace));
      foundations.append(pile);
      fPiles.push(pile);
    }
    const reserveRow = document.createElement("div");
    reserveRow.className = "munger-reserve";
    const reserve = makePile("R", { classes: "reserve fan-x" });
    fillPile(reserve, view.reserve.map((code) => ({ code, up: true })), { emptyMark: "–", placeText: pileName("R") });
    reserve.setAttribute("aria-label", describePile("R", view.reserve.length, topOf(view, "R"), t("takes_nothing")));
    const reserveTitle = document.createElement("span");
    reserveTitle.className = "pile-title";
    reserveTitle.setAttribute("aria-hidden", "true");
    reserveTitle.textContent = capitalise(pileName("R"));
    reserveRow.append(reserveTitle, reserve);
    top.append(stock, waste, reserveRow, foundations);

    const tableau = document.createElement("div");
    tableau.className = "munger-tableau";
    const columns = view.tableau.map((col, k) => {
      const name = `T${k + 1}`;
      const pile = makePile(name, { kind: "column", classes: "column fan-y" });
      // A face-down card is drawn as a back even when the view knows its code (seen before an
      // undo turned it back): the page never shows a face-down card's face.
      fillPile(pile, col.map((c) => ({ code: c.face_up ? c.card : null, up: c.face_up })), {
        emptyMark: "K",
        placeText: pileName(name),
      });
      pile.setAttribute("aria-label", describePile(name, col.length, topOf(view, name), t("takes_king")));
      tableau.append(pile);
      return pile;
    });

    board.append(top, tableau);
    return {
      grid: [[stock, waste, ...fPiles], [reserve], columns],
      foundationFor: (suit) => fPiles.filter((p) => !suit || p.dataset.suit === suit),
      info: null,
    };
  },
};
