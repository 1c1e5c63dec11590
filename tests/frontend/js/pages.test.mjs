// Unit tests of the leaderboard page's rows (pages/rows.js): the ranks are the server's.
import assert from "node:assert/strict";
import test from "node:test";

import { gapBefore, mergeRows, rankCounts } from "../../../frontend/static/frontend/pages/rows.js";

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
