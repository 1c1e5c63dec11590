// Unit tests of the auto-move (game/automove.js): it plays only the server's safe moves, one at a
// time, after the player's card moves; it stops when the player acts; an undo starts nothing and
// a card whose auto-move was undone is not sent up again.
import assert from "node:assert/strict";
import test from "node:test";

import { AutoMove } from "../../../frontend/static/frontend/game/automove.js";

// A game whose state names `safe` moves; each move it is asked to play is recorded and, like the
// server, answered by a state with one safe move fewer.
function fakeGame(safe) {
  const game = {
    busy: false,
    sent: [],
    state: { seq: 1, safe_moves: [...safe] },
    moves: safe.map((token, i) => ({ token, src: token.split(">")[0], dst: "F", card: `${i + 1}S` })),
    playing: () => true,
    async move(token, info) {
      game.sent.push(token);
      game.state = { seq: game.state.seq + 1, safe_moves: game.state.safe_moves.filter((t) => t !== token) };
      auto.after(token, info);
      return true;
    },
  };
  let auto = null;
  game.attach = (a) => {
    auto = a;
  };
  return game;
}

const idle = () => new Promise((resolve) => setTimeout(resolve, 5));

async function settle(stops, count) {
  while (stops.length < count) await idle();
}

test("after a player's move the safe moves go up one at a time, then it stops", async () => {
  const game = fakeGame(["T2>F", "W>F"]);
  const stops = [];
  const auto = new AutoMove(game, { enabled: () => true, decided: (seq) => stops.push(seq) });
  game.attach(auto);
  auto.after("S>W", { card: null });
  await settle(stops, 1);
  assert.deepEqual(game.sent, ["T2>F", "W>F"]);
  assert.deepEqual(stops, [3]);
});

test("off, nothing is sent; the player's act stops a chain under way", async () => {
  const game = fakeGame(["T2>F", "W>F"]);
  const stops = [];
  let on = false;
  const auto = new AutoMove(game, { enabled: () => on, decided: (seq) => stops.push(seq) });
  game.attach(auto);
  auto.after("S>W", { card: null });
  await settle(stops, 1);
  assert.deepEqual(game.sent, []);
  on = true;
  auto.after("S>W", { card: null });
  auto.interrupt(); // the player pressed before the chain's first step
  await settle(stops, 2);
  assert.deepEqual(game.sent, []);
});

test("an undo starts nothing, and the card it took back is not sent up again", async () => {
  const game = fakeGame(["T2>F"]);
  const stops = [];
  const auto = new AutoMove(game, { enabled: () => true, decided: (seq) => stops.push(seq) });
  game.attach(auto);
  auto.after("S>W", { card: null });
  await settle(stops, 1);
  assert.deepEqual(game.sent, ["T2>F"]);
  // The player undoes the auto-move: the Ace is back, and safe again.
  game.state = { seq: 4, safe_moves: ["T2>F"] };
  auto.after("U", {});
  await settle(stops, 2);
  auto.after("S>W", { card: null });
  await settle(stops, 3);
  assert.deepEqual(game.sent, ["T2>F"]);
});
