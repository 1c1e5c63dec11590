// Unit tests of the leaderboard page's rows (pages/rows.js): the ranks are the server's.
import assert from "node:assert/strict";
import test from "node:test";

import { t, useCatalogue } from "../../../frontend/static/frontend/common/text.js";
import { feedLine, gapBefore, mergeRows, rankCounts } from "../../../frontend/static/frontend/pages/rows.js";

const row = (rank, player) => ({ rank, player });

test("the top and the rows around you merge in rank order, each player once", () => {
  const top = [row(1, "Ann"), row(2, "Ben")];
  const around = [row(2, "Ben"), row(9, "Eve"), row(10, "You")];
  assert.deepEqual(mergeRows(top, around).map((r) => r.player), ["Ann", "Ben", "Eve", "You"]);
});

test("a gap shows where ranks were left out, not after a group of ties", () => {
  const rows = [row(1, "Ann"), row(2, "Ben"), row(2, "Cy"), row(4, "Di"), row(9, "Eve")];
  const counts = rankCounts(rows);
  assert.equal(counts.get(2), 2);
  const gaps = rows.map((r, i) => gapBefore(rows[i - 1], r, counts));
  assert.deepEqual(gaps, [false, false, false, false, true]);
});

test("a feed line says one card and one move in the singular, in each language's plural", () => {
  useCatalogue(
    {
      feed_won: "{player} won in {moves}",
      feed_progress: "{player}: {cards} on the foundations after {moves}",
      n_moves: { one: "{n} move", other: "{n} moves" },
      n_cards: { one: "{n} card", other: "{n} cards" },
      undos_note: { one: "{n} undo", other: "{n} undos" },
    },
    "en",
  );
  assert.equal(feedLine({ player: "Ann", moves: 1, foundation_cards: 1, status: "playing" }, t), "Ann: 1 card on the foundations after 1 move");
  assert.equal(feedLine({ player: "Ben", moves: 84, foundation_cards: 52, status: "won" }, t), "Ben won in 84 moves");
  assert.equal(feedLine({ player: "Cy", moves: 90, undos: 1, foundation_cards: 52, status: "won" }, t), "Cy won in 90 moves, 1 undo");
  useCatalogue(
    {
      feed_progress: "{player}: {cards} в домах после {moves}",
      n_moves: { one: "{n} хода", few: "{n} ходов", many: "{n} ходов", other: "{n} хода" },
      n_cards: { one: "{n} карта", few: "{n} карты", many: "{n} карт", other: "{n} карты" },
    },
    "ru",
  );
  assert.equal(feedLine({ player: "Аня", moves: 21, foundation_cards: 3, status: "playing" }, t), "Аня: 3 карты в домах после 21 хода");
});
