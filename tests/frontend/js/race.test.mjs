// Unit tests of the race page's view (race/view.js) and socket (race/socket.js): whole views and
// each racer's progress merged by version, a skip asking for a snapshot.
import assert from "node:assert/strict";
import test from "node:test";

import { RaceSocket } from "../../../frontend/static/frontend/race/socket.js";
import { applyProgress, mergeView } from "../../../frontend/static/frontend/race/view.js";

const racer = (id, version, moves, extra = {}) => ({
  id,
  version,
  name: `r${id}`,
  status: "playing",
  gone: false,
  moves,
  foundation_cards: moves,
  foundations: [],
  seconds: moves,
  ...extra,
});
const view = (version, racers, extra = {}) => ({ version, status: "racing", racers, ...extra });
const progress = (id, version, moves) => ({ id, version, moves, foundation_cards: moves, foundations: [], seconds: moves });

test("a racer's progress changes that racer alone, and only when newer", () => {
  const held = view(4, [racer(1, 2, 5), racer(2, 7, 9)]);
  const { race, resync } = applyProgress(held, progress(1, 3, 6));
  assert.equal(resync, false);
  assert.deepEqual(race.racers.map((r) => [r.version, r.moves]), [[3, 6], [7, 9]]);
  assert.equal(race.version, 4); // a move is no change of the race
  const stale = applyProgress(race, progress(1, 3, 6));
  assert.equal(stale.race, race);
  assert.equal(stale.resync, false);
});

test("a skipped version of a racer, or an unknown racer, asks for a snapshot", () => {
  const held = view(4, [racer(1, 2, 5)]);
  const skipped = applyProgress(held, progress(1, 4, 8));
  assert.equal(skipped.resync, true);
  assert.equal(skipped.race.racers[0].moves, 8); // newer all the same: shown
  assert.equal(applyProgress(held, progress(9, 1, 1)).resync, true);
});

test("a whole view keeps a racer's newer progress, and an older view changes nothing", () => {
  const held = view(4, [racer(1, 6, 12), racer(2, 1, 1)]);
  // Built before alice's last two moves were written, sent after them: her figures stay.
  const finish = view(5, [racer(1, 4, 10), racer(2, 2, 3, { status: "resigned" })], { status: "over" });
  const merged = mergeView(held, finish);
  assert.equal(merged.status, "over");
  assert.deepEqual(merged.racers.map((r) => [r.version, r.moves, r.status]), [
    [6, 12, "playing"],
    [2, 3, "resigned"],
  ]);
  assert.equal(mergeView(merged, view(4, [racer(1, 9, 20)])), null);
  // The same version again (a snapshot, a REST answer) brings newer progress.
  assert.equal(mergeView(merged, view(5, [racer(1, 7, 13), racer(2, 2, 3)])).racers[0].moves, 13);
});

test("the socket merges what it hears, and resyncs on a skip of the race or of a racer", () => {
  const shown = [];
  const socket = new RaceSocket("abc", (race) => shown.push(race));
  const sent = [];
  socket.send = (message) => sent.push(message);
  socket.take(view(4, [racer(1, 2, 5)]));
  socket.receive(JSON.stringify({ type: "progress", racer: progress(1, 3, 6) }));
  socket.receive(JSON.stringify({ type: "progress", racer: progress(1, 3, 6) })); // again: nothing
  assert.deepEqual(shown.map((r) => r.racers[0].moves), [6]);
  assert.deepEqual(sent, []);
  socket.receive(JSON.stringify({ type: "progress", racer: progress(1, 5, 8) }));
  socket.receive(JSON.stringify({ type: "event", race: view(6, [racer(1, 4, 7)]) }));
  assert.deepEqual(sent, [
    { type: "resync", version: 4 },
    { type: "resync", version: 4 },
  ]);
  assert.deepEqual(shown.map((r) => [r.version, r.racers[0].moves]), [[4, 6], [4, 8], [6, 8]]);
  socket.receive(JSON.stringify({ type: "snapshot", race: view(6, [racer(1, 6, 9)]) }));
  assert.equal(socket.race.racers[0].moves, 9);
});
