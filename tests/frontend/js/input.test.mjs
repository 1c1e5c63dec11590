// Unit tests of the keys that walk a fan (game/input.js): Shift+arrows follow the way a pile is
// laid out: down a column, sideways along a row (outwards along a left-hand row is leftwards).
import assert from "node:assert/strict";
import test from "node:test";

import { fanStep } from "../../../frontend/static/frontend/game/input.js";

test("a column is walked with Shift+Up and Shift+Down only", () => {
  assert.equal(fanStep("column", ["pile", "column", "fan-y"], "ArrowUp"), "previous");
  assert.equal(fanStep("column", ["pile", "column", "fan-y"], "ArrowDown"), "next");
  assert.equal(fanStep("column", ["pile", "column", "fan-y"], "ArrowLeft"), null);
});

test("a row that grows rightwards is walked outwards with Shift+Right", () => {
  for (const classes of [["pile", "reserve", "fan-x"], ["pile", "row", "row-right"]]) {
    assert.equal(fanStep("single", classes, "ArrowRight"), "next");
    assert.equal(fanStep("single", classes, "ArrowLeft"), "previous");
    assert.equal(fanStep("single", classes, "ArrowUp"), null);
  }
});

test("a left-hand row grows leftwards: Shift+Left walks out to its free card", () => {
  assert.equal(fanStep("single", ["pile", "row", "row-left"], "ArrowLeft"), "next");
  assert.equal(fanStep("single", ["pile", "row", "row-left"], "ArrowRight"), "previous");
});

test("a pile that is not fanned has no card to walk to", () => {
  assert.equal(fanStep("fixed", ["pile", "stock"], "ArrowRight"), null);
  assert.equal(fanStep("single", ["pile", "foundation"], "ArrowDown"), null);
});
