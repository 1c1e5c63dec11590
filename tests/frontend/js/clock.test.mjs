// Unit tests of the play page's timer (game/game.js): it shows the server's elapsed time and
// runs on locally only as long as the server's clock does (a pause counts up to a cap).
import assert from "node:assert/strict";
import test from "node:test";

import { Game } from "../../../frontend/static/frontend/game/game.js";

function at(ms, action) {
  const real = Date.now;
  Date.now = () => ms;
  try {
    return action();
  } finally {
    Date.now = real;
  }
}

test("the timer runs on from the server's time and stops where the server's clock stops", () => {
  const game = new Game({ game: "munger", date: "2026-12-02" }, {});
  game.state = { status: "playing" };
  at(1_000_000, () => game.syncClock({ status: "playing", elapsed_seconds: 75, clock_left_seconds: 20 }));
  assert.equal(at(1_010_000, () => game.elapsed()), 85);
  assert.equal(at(1_020_000, () => game.elapsed()), 95);
  // The pause reached the cap: the clock stands still however long the player is away.
  assert.equal(at(1_020_001, () => game.elapsed()), 95);
  assert.equal(at(9_000_000, () => game.elapsed()), 95);
});

test("a finished game's timer shows the server's time and never runs", () => {
  const game = new Game({ game: "munger", date: "2026-12-02" }, {});
  game.state = { status: "won" };
  at(0, () => game.syncClock({ status: "won", elapsed_seconds: 300.5, clock_left_seconds: 0 }));
  assert.equal(at(60_000, () => game.elapsed()), 300.5);
});
