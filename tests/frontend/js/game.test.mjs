// Unit tests of the play page's pure modules: the server's moves as the board uses them, a
// move in words, and the histogram's buckets.
import assert from "node:assert/strict";
import test from "node:test";

import { useCatalogue } from "../../../frontend/static/frontend/common/text.js";
import { describeMove, turnedUp } from "../../../frontend/static/frontend/game/describe.js";
import { weekLines, withYours } from "../../../frontend/static/frontend/game/end.js";
import { bestFit, fanFor } from "../../../frontend/static/frontend/game/fit.js";
import { movesFrom, movesOf, smartMove } from "../../../frontend/static/frontend/game/moves.js";

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

test("one tap: the foundation first, else the only place, else nothing (picked up)", () => {
  const moves = movesOf({
    moves: [
      { move: "T2>T3", card: "AS", count: 1 },
      { move: "T2>F", card: "AS", count: 1 },
      { move: "R>T1", card: "QH", count: 1 },
      { move: "T6>T4", card: "9H", count: 1 },
      { move: "T6>T7", card: "9H", count: 1 },
    ],
  });
  assert.equal(smartMove(moves, "T2", "AS").token, "T2>F");
  assert.equal(smartMove(moves, "R", "QH").token, "R>T1");
  assert.equal(smartMove(moves, "T6", "9H"), null);
  assert.equal(smartMove(moves, "T5", "KD"), null);
});

test("one tap never fills a place the layout spares (the cellar): the card is picked up", () => {
  const moves = movesOf({
    moves: [
      { move: "M3>C", card: "7D", count: 1 },
      { move: "M4>C", card: "2S", count: 1 },
      { move: "M4>F", card: "2S", count: 1 },
      { move: "C>M2", card: "9H", count: 1 },
    ],
  });
  const spared = ["C"];
  assert.equal(smartMove(moves, "M3", "7D", { spared }), null);
  assert.equal(smartMove(moves, "M3", "7D").token, "M3>C");
  assert.equal(smartMove(moves, "M4", "2S", { spared }).token, "M4>F");
  assert.equal(smartMove(moves, "C", "9H", { spared }).token, "C>M2");
});

test("the table takes the arrangement with the bigger cards, within width and height", () => {
  const ways = [
    { name: "stacked", across: 7, gapsAcross: 0, tall: 6, gapsTall: 0 },
    { name: "wide", across: 10, gapsAcross: 0, tall: 4, gapsTall: 0 },
  ];
  // Tall and narrow: the width decides, stacked wins.
  assert.deepEqual(bestFit(ways, { width: 350, height: 800, gap: 0, maxWidth: 96, minWidth: 24 }), { name: "stacked", width: 50 });
  // Short and wide: wide gives bigger cards.
  assert.deepEqual(bestFit(ways, { width: 1000, height: 300, gap: 0, maxWidth: 96, minWidth: 24 }), { name: "wide", width: 75 });
  // Never under the smallest card.
  assert.equal(bestFit(ways, { width: 100, height: 100, gap: 0, maxWidth: 96, minWidth: 24 }).width, 24);
});

test("a fan that does not fit closes up, its face-down strips first", () => {
  const fan = { cardHeight: 70, down: 2, up: 13, fanDown: 8, fanUp: 24 };
  assert.deepEqual(fanFor({ ...fan, budget: 500 }), { fanDown: 8, fanUp: 24 });
  const closed = fanFor({ ...fan, budget: 250 });
  assert.equal(closed.fanDown, 4);
  assert.ok(70 + 2 * closed.fanDown + 13 * closed.fanUp <= 250.001);
  assert.equal(fanFor({ ...fan, budget: 10 }).fanUp, 6); // a sliver, never nothing
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

test("a refused start of a daily still played for the boards is said in the page's words", async () => {
  const { errorText } = await import("../../../frontend/static/frontend/game/game.js");
  useCatalogue({
    start_daily_played_here: "Played from this browser; practice after {until}.",
    error: "Something went wrong.",
  });
  const refused = {
    code: "daily_played_here",
    body: { code: "daily_played_here", detail: "in English", ranked_until: "2026-12-08T00:05:00Z" },
  };
  assert.equal(errorText(refused), "Played from this browser; practice after 2026-12-08 00:05 UTC.");
  // Another code keeps the server's sentence.
  assert.equal(errorText({ code: "day_over", body: { detail: "The day is over." } }), "The day is over.");
});

const WEEK_WORDS = {
  n_points: { one: "{n} point", other: "{n} points" },
  week_today: "Today: rank {rank} of {players} so far, worth {points} if it holds.",
  week_today_held: "Today’s result counts once a reviewer approves it.",
  week_so_far: "This week so far: {points}, rank {rank} of {players}.",
  week_none_yet: "This week so far: no points yet.",
  week_with_today: "With today’s: {points}, rank {rank} against the days already over.",
  week_league: "{name}: rank {rank} of {members} this week, {rank_today} with today’s.",
  share_league: "{name}: rank {rank} of {members} this week",
};

const OUTLOOK = {
  points: 100,
  rank: 4,
  players: 30,
  today: [
    { game: "munger", status: "won", rank: 2, players: 9, points: 94 },
    { game: "masterpiece", status: "held", rank: null, players: null, points: null },
  ],
  points_with_today: 194,
  rank_with_today: 1,
  leagues: ["A", "B", "C", "D"].map((name, i) => ({ id: i, name, members: 5, rank: 2, rank_with_today: 1 })),
};

test("your week says what today's result adds, and the first league goes in the share text", () => {
  useCatalogue(WEEK_WORDS, "en");
  const { lines, share } = weekLines(OUTLOOK, "munger");
  assert.deepEqual(lines, [
    "Today: rank 2 of 9 so far, worth 94 points if it holds.",
    "This week so far: 100 points, rank 4 of 30.",
    "With today’s: 194 points, rank 1 against the days already over.",
    "A: rank 2 of 5 this week, 1 with today’s.",
    "B: rank 2 of 5 this week, 1 with today’s.",
    "C: rank 2 of 5 this week, 1 with today’s.",
  ]);
  assert.equal(share, "A: rank 1 of 5 this week");
});

test("your week: a held result, no points yet, no league", () => {
  useCatalogue(WEEK_WORDS, "en");
  const outlook = { ...OUTLOOK, points: 0, rank: null, points_with_today: 0, rank_with_today: null, leagues: [] };
  const { lines, share } = weekLines(outlook, "masterpiece");
  assert.deepEqual(lines, ["Today’s result counts once a reviewer approves it.", "This week so far: no points yet."]);
  assert.equal(share, null);
});
