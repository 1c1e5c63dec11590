// Unit tests of the race page's view (race/view.js) and socket (race/socket.js): whole views and
// each racer's progress merged by version, a skip asking for a snapshot; and its words
// (race/results.js, race/opponents.js): a place, the par and the share text, a held result
// "under review" and never ranked, and a racer's line never left with a dangling separator.
import assert from "node:assert/strict";
import test from "node:test";

import { useCatalogue } from "../../../frontend/static/frontend/common/text.js";
import { racerWords } from "../../../frontend/static/frontend/race/opponents.js";
import { parOf, placeWords, resultOf, shareText } from "../../../frontend/static/frontend/race/results.js";
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

// The race's words in French (as the page's catalogue has them).
const FRENCH = {
  rank_of: "{rank} sur {total}",
  rank_held: "aucun tant que le résultat est en cours d’examen",
  race_rank_later: "connu quand tous les coureurs auront fini",
  race_under_review: "en cours d’examen",
  race_share_text: "J’ai fait la course à {game} avec des amis sur Patience Daily : {result}",
  race_share_won: "gagné en {moves} coups, {time}",
  race_share_lost: "{cards} cartes rangées",
  race_gone: "parti",
  race_ready_mark: "prêt",
  race_not_ready_mark: "pas encore prêt",
  race_host: "lance la course",
  race_status_playing: "en jeu",
};
const URL = "https://patience.example/challenge/abcdefghij/";
const BROKEN = /\bnull\b|\bundefined\b|\bNaN\b|\{\w*\}/;

// A race whose results hold a win held by the fair-play checks (listed first, no rank), then
// the results that rank as a board ranks them.
function finished(status) {
  return {
    status,
    par: status === "over" ? 107 : null,
    results: [
      { id: 1, rank: null, held: true, name: "Alice", won: true, moves: 90, seconds: 75, foundation_cards: 52 },
      { id: 3, rank: 1, held: false, name: "Carol", won: false, moves: 40, seconds: 300, foundation_cards: 20 },
      { id: 2, rank: 2, held: false, name: "Bob", won: false, moves: 1, seconds: 4, foundation_cards: 4 },
    ],
  };
}

test("a held result is said to be under review, never given a place", () => {
  useCatalogue(FRENCH, "fr");
  const race = finished("over");
  const alice = resultOf(race, 1);
  assert.equal(placeWords(race, alice), FRENCH.rank_held);
  const text = shareText(race, alice, "Masterpiece", URL);
  assert.equal(text, `J’ai fait la course à Masterpiece avec des amis sur Patience Daily : gagné en 90 coups, 1:15 (en cours d’examen) ${URL}`);
  assert.ok(!text.includes("#"));
});

test("once the race is over the others have their place among the results that rank, and the par", () => {
  useCatalogue(FRENCH, "fr");
  const race = finished("over");
  assert.equal(placeWords(race, resultOf(race, 3)), "1 sur 2");
  assert.equal(placeWords(race, resultOf(race, 2)), "2 sur 2");
  assert.match(shareText(race, resultOf(race, 2), "Masterpiece", URL), /: #2\/2, 4 cartes rangées https:/);
  assert.equal(parOf(race), 107);
});

test("before the end: no place yet, no par, and never a hole in the words", () => {
  useCatalogue(FRENCH, "fr");
  const race = finished("racing");
  assert.equal(placeWords(race, resultOf(race, 3)), FRENCH.race_rank_later);
  assert.equal(placeWords(race, null), FRENCH.race_rank_later);
  assert.equal(parOf(race), null);
  assert.equal(resultOf(race, 9), null);
  assert.equal(shareText(race, null, "Masterpiece", URL), "");
  for (const row of race.results) {
    const text = shareText(race, row, "Masterpiece", URL);
    assert.ok(!BROKEN.test(text), text);
    assert.ok(!text.includes("#"), text);
  }
});

test("a racer's line always says something: ready or not in the lobby, how they stand after", () => {
  useCatalogue(FRENCH, "fr");
  const racer = { gone: false, ready: false, host: false, status: "playing" };
  assert.equal(racerWords(racer, true), "pas encore prêt");
  assert.equal(racerWords({ ...racer, ready: true, host: true }, true), "prêt, lance la course");
  assert.equal(racerWords({ ...racer, gone: true }, true), "parti");
  assert.equal(racerWords(racer, false), "en jeu");
});
