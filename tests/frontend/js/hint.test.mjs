// Unit tests of the play page's hints: the places a hint's move marks and its words.
import assert from "node:assert/strict";
import test from "node:test";

import { useCatalogue } from "../../../frontend/static/frontend/common/text.js";
import { hintPlaces, hintText } from "../../../frontend/static/frontend/game/hint.js";

useCatalogue({
  card_name: "{rank} of {suit}",
  card_face_down: "face-down card",
  rank_9: "nine",
  rank_2: "two",
  suit_H: "hearts",
  suit_C: "clubs",
  pile_column: "column {n}",
  pile_suit_foundation: "{suit} foundation",
  hint_move: "Hint: move {card} from {from} to {place}.",
  hint_draw: "Hint: draw from the stock.",
  hint_undo: "No win from here: undo {n} moves.",
  hint_undo_one: "No win from here: undo the last move.",
  hint_no_win: "No win at all.",
  hint_unsure: { one: "Unsure: winnable {n} move ago.", other: "Unsure: winnable {n} moves ago." },
  hint_timeout: "No hint in time.",
});

test("a move's places are its token's piles and the card it carries", () => {
  assert.deepEqual(hintPlaces({ status: "move", move: "T2>T5", card: "9H" }), { src: "T2", dst: "T5", card: "9H" });
  assert.deepEqual(hintPlaces({ status: "move", move: "S>W", card: null }), { src: "S", dst: "W", card: null });
  assert.equal(hintPlaces({ status: "undo", move: null, undo: 2 }), null);
  assert.equal(hintPlaces(null), null);
});

test("a hint in words names the card, both piles, a foundation by suit, or the undo count", () => {
  assert.equal(hintText({ status: "move", move: "T2>T5", card: "9H" }), "Hint: move nine of hearts from column 2 to column 5.");
  assert.equal(hintText({ status: "move", move: "T3>F", card: "2C" }), "Hint: move two of clubs from column 3 to clubs foundation.");
  assert.equal(hintText({ status: "move", move: "S>W", card: null }), "Hint: draw from the stock.");
  assert.equal(hintText({ status: "undo", undo: 3 }), "No win from here: undo 3 moves.");
  assert.equal(hintText({ status: "undo", undo: 1 }), "No win from here: undo the last move.");
  assert.equal(hintText({ status: "no_win" }), "No win at all.");
  assert.equal(hintText({ status: "unsure", undo: 1 }), "Unsure: winnable 1 move ago.");
  assert.equal(hintText({ status: "unsure", undo: 4 }), "Unsure: winnable 4 moves ago.");
  assert.equal(hintText({ status: "timeout" }), "No hint in time.");
});
