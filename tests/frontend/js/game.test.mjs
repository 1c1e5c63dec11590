// Unit tests of the play page's pure modules: the server's moves as the board uses them, a
// move in words, and the histogram's buckets.
import assert from "node:assert/strict";
import test from "node:test";

import { useCatalogue } from "../../../frontend/static/frontend/common/text.js";
import { describeMove, turnedUp } from "../../../frontend/static/frontend/game/describe.js";
import { withYours } from "../../../frontend/static/frontend/game/end.js";
import { movesFrom, movesOf } from "../../../frontend/static/frontend/game/moves.js";

const ENGLISH = {
  card_name: "{rank} of {suit}",
  card_face_down: "face-down card",
  card_generic: "the cards",
  rank_7: "seven",
  rank_2: "two",
  suit_H: "hearts",
  suit_C: "clubs",
  pile_column: "column {n}",
  pile_waste: "waste",
  pile_suit_foundation: "{suit} foundation",
  announce_move: "moved {card} to {place}.",
  announce_draw: "drew {card}.",
  announce_revealed: "revealed {card}.",
  announce_undo: "Took back the last move.",
};

const STATE = {
  moves: [
    { move: "S>W", card: null, count: 1 },
    { move: "T2>T5", card: "9H", count: 3 },
    { move: "T2>F", card: "2C", count: 1 },
  ],
};

test("movesOf splits each listed move and keeps the server's card and count", () => {
  assert.deepEqual(movesOf(STATE)[1], { token: "T2>T5", src: "T2", dst: "T5", card: "9H", count: 3 });
  assert.deepEqual(movesOf({}), []);
});

test("movesFrom keeps a pile's moves, or those its picked-up card leads", () => {
  const moves = movesOf(STATE);
  assert.deepEqual(movesFrom(moves, "T2").map((m) => m.token), ["T2>T5", "T2>F"]);
  assert.deepEqual(movesFrom(moves, "T2", "2C").map((m) => m.token), ["T2>F"]);
  assert.deepEqual(movesFrom(moves, "T3"), []);
});

test("a move in words names the card, the place and what it turned up", () => {
  useCatalogue(ENGLISH, "en");
  const before = { tableau: [[{ face_up: false, card: null }, { face_up: true, card: "7H" }]] };
  const after = { tableau: [[{ face_up: true, card: "2C" }]], waste: [] };
  assert.deepEqual(turnedUp(before, after), ["2C"]);
  assert.equal(describeMove("T1>T3", "7H", before, after), "Moved seven of hearts to column 3. Revealed two of clubs.");
  assert.equal(describeMove("T1>F", "7H", before, after, []), "Moved seven of hearts to hearts foundation.");
  assert.equal(describeMove("S>W", null, null, { waste: ["7H"] }), "Drew seven of hearts.");
  assert.equal(describeMove("U", null, null, null), "Took back the last move.");
});

test("the histogram gets a bar for your count, however far from the others", () => {
  const buckets = [{ from: 60, to: 69, count: 2 }];
  assert.deepEqual(withYours(buckets, 65), buckets);
  assert.deepEqual(
    withYours(buckets, 85).map((b) => [b.from, b.to, b.count]),
    [[60, 69, 2], [70, 79, 0], [80, 89, 0]],
  );
  assert.deepEqual(withYours(buckets, 41)[0], { from: 40, to: 49, count: 0 });
  assert.deepEqual(withYours([], 41), []);
});
