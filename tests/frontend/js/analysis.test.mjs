// Unit tests of what the analysis page says and where its chart puts each position
// (pages/report.js), on reports written by hand as the API sends them: a win over par with a
// costly stretch and a bound, and a loss with the move after which no win was left.
import assert from "node:assert/strict";
import test from "node:test";

import { useCatalogue } from "../../../frontend/static/frontend/common/text.js";
import {
  budgetWords,
  chartModel,
  distanceWords,
  keyStep,
  refusalWords,
  stretchWords,
  summaryLines,
  tickStep,
} from "../../../frontend/static/frontend/pages/report.js";

const WORDS = {
  n_moves: { one: "{n} move", other: "{n} moves" },
  analysis_won: "You won in {moves}.",
  analysis_resigned: "You resigned after {moves}.",
  analysis_unfinished_game: "This game was left unfinished after {moves}.",
  analysis_par_proven: "Par {par}: the fewest moves any win takes (proven).",
  analysis_par_known: "Par {par}: the fewest moves of any win the solver knows (not proven the fewest).",
  analysis_over_par: { one: "{n} move over par.", other: "{n} moves over par." },
  analysis_on_par: "Right on par.",
  analysis_lost_at: "No win was left after move {k}.",
  analysis_never_winnable: "This deal could not be won, not even from its start.",
  analysis_still_winnable: { one: "A win was still there: {n} more move would have won.", other: "A win was still there: {n} more moves would have won." },
  analysis_maybe_winnable: "The solver could not decide in its time whether a win was still there.",
  analysis_budget_all: { one: "The solver settled the game’s {n} position, in {seconds} s.", other: "The solver settled every one of the game’s {n} positions, in {seconds} s." },
  analysis_budget_some: "For {bounded} of the game’s {total} positions the solver’s time ran out: only bounds are known there ({seconds} s in all).",
  analysis_from_deal: "Fewest moves to win from the deal, by this analysis: {value}.",
  analysis_distance_won: "won",
  analysis_distance_no_win: "no win left",
  analysis_distance_at_least: "at least {n}",
  analysis_distance_between: "{lower} to {upper}",
  analysis_stretch: "Moves {from}–{to}: {lost}",
  analysis_lost_moves: { one: "{n} move lost", other: "{n} moves lost" },
  analysis_lost_at_least: { one: "at least {n} move lost", other: "at least {n} moves lost" },
  analysis_not_found: "This is not your game (or there is no such game): only its player can analyse it.",
  analysis_not_yet: "The analysis opens when the day’s ranked play is over, at {time}: until then the deal’s solution stays secret.",
  analysis_not_yet_soon: "The analysis opens when the day’s ranked play is over.",
  analysis_unfinished: "This game is still being played: the analysis opens once it is over.",
  analysis_race: "A race on this deal is still running: the analysis opens once the race is over.",
  analysis_throttled: "Too many tries.",
  analysis_network: "The server could not be reached.",
  analysis_error: "Something went wrong.",
};

const exact = (index, distance, best = { move: "M1>F", card: "AH", count: 1 }) => ({ index, status: "exact", distance, lower: null, upper: null, best });

// A win in 8 moves of a deal whose proven par is 5: moves 2-4 lost 3, position 3 only bounded.
const WIN = {
  attempt: 7,
  game: "masterpiece",
  date: "2026-12-01",
  ranked: true,
  outcome: "won",
  par: 5,
  par_proven: true,
  moves: 8,
  over_par: 3,
  points: [
    exact(0, 5),
    exact(1, 4),
    exact(2, 5),
    { index: 3, status: "bounds", distance: null, lower: 5, upper: 7, best: null },
    exact(4, 4),
    exact(5, 3),
    exact(6, 2),
    exact(7, 1),
    { index: 8, status: "won", distance: 0, lower: null, upper: null, best: null },
  ],
  lost_at: null,
  winning_move: null,
  stretches: [{ from: 2, to: 4, wasted: 3, exact: true, better: { start: {}, steps: [] } }],
  settled: 8,
  bounded: 1,
  seconds: 2.4,
  hidden_cards: false,
};

// A resignation after 4 moves: no win left after move 3; the last position not decided.
const LOSS = {
  ...WIN,
  outcome: "resigned",
  par: 90,
  par_proven: false,
  moves: 4,
  over_par: null,
  points: [
    exact(0, 90),
    exact(1, 89),
    exact(2, 89),
    { index: 3, status: "no_win", distance: null, lower: null, upper: null, best: null },
    { index: 4, status: "no_win", distance: null, lower: null, upper: null, best: null },
  ],
  lost_at: 3,
  winning_move: { move: "T1>T3", card: "7H", count: 2 },
  stretches: [],
  settled: 5,
  bounded: 0,
};

test("a win says its moves, the proven par and the moves over it", () => {
  useCatalogue(WORDS, "en");
  assert.deepEqual(summaryLines(WIN), ["You won in 8 moves.", "Par 5: the fewest moves any win takes (proven).", "3 moves over par."]);
  assert.deepEqual(summaryLines({ ...WIN, over_par: 0, moves: 5 }).slice(-1), ["Right on par."]);
  assert.deepEqual(summaryLines({ ...WIN, over_par: 1, moves: 6 }).slice(-1), ["1 move over par."]);
});

test("a loss says after which move no win was left, and a par not proven is said so", () => {
  useCatalogue(WORDS, "en");
  assert.deepEqual(summaryLines(LOSS), [
    "You resigned after 4 moves.",
    "Par 90: the fewest moves of any win the solver knows (not proven the fewest).",
    "No win was left after move 3.",
  ]);
  // A par not proven, which the analysis beat from the deal, or only bounded.
  const shorter = { ...LOSS, points: [exact(0, 84), ...LOSS.points.slice(1)] };
  assert.equal(summaryLines(shorter)[2], "Fewest moves to win from the deal, by this analysis: 84.");
  const bounded = { ...LOSS, points: [{ index: 0, status: "bounds", lower: 80, upper: 90 }, ...LOSS.points.slice(1)] };
  assert.equal(summaryLines(bounded)[2], "Fewest moves to win from the deal, by this analysis: 80 to 90.");
  // A resignation with a win still there, and a deal lost from its start.
  const winnable = { ...LOSS, lost_at: null, points: [exact(0, 90), exact(1, 1)] };
  assert.equal(summaryLines(winnable).at(-1), "A win was still there: 1 more move would have won.");
  const hopeless = { ...LOSS, lost_at: null, points: LOSS.points.slice(3) };
  assert.equal(summaryLines(hopeless).at(-1), "This deal could not be won, not even from its start.");
  const unsure = { ...LOSS, lost_at: null, points: [exact(0, 90), WIN.points[3]] };
  assert.equal(summaryLines(unsure).at(-1), "The solver could not decide in its time whether a win was still there.");
});

test("each position's value in words: exact, bounds, no win, won", () => {
  useCatalogue(WORDS, "en");
  assert.deepEqual(WIN.points.slice(2, 4).map(distanceWords), ["5", "5 to 7"]);
  assert.equal(distanceWords({ status: "bounds", lower: 12, upper: null }), "at least 12");
  assert.equal(distanceWords(LOSS.points[3]), "no win left");
  assert.equal(distanceWords(WIN.points[8]), "won");
});

test("a stretch says the moves lost, a bound as at least", () => {
  useCatalogue(WORDS, "en");
  assert.equal(stretchWords(WIN.stretches[0]), "Moves 2–4: 3 moves lost");
  assert.equal(stretchWords({ from: 9, to: 9, wasted: 1, exact: false }), "Moves 9–9: at least 1 move lost");
  assert.equal(budgetWords(WIN), "For 1 of the game’s 9 positions the solver’s time ran out: only bounds are known there (2 s in all).");
  assert.equal(budgetWords(LOSS), "The solver settled every one of the game’s 5 positions, in 2 s.");
});

test("a refusal is said from its code, the opening time in the reader's words", () => {
  useCatalogue(WORDS, "en");
  const when = (iso) => `local(${iso})`;
  const opens = { status: 409, body: { code: "analysis_not_yet", opens_at: "2026-12-08T00:05:00Z" } };
  assert.match(refusalWords(opens, when), /at local\(2026-12-08T00:05:00Z\): until then/);
  assert.equal(refusalWords({ status: 404, body: { code: "not_found" } }, when), WORDS.analysis_not_found);
  assert.equal(refusalWords({ status: 409, body: { code: "analysis_race" } }, when), WORDS.analysis_race);
  assert.equal(refusalWords({ status: 409, body: { code: "analysis_unfinished" } }, when), WORDS.analysis_unfinished);
  assert.equal(refusalWords({ status: 0, body: {} }, when), WORDS.analysis_network);
});

test("the keys move the cursor along the positions, never past either end", () => {
  assert.equal(keyStep("ArrowRight", 3, 8), 4);
  assert.equal(keyStep("ArrowLeft", 0, 8), 0);
  assert.equal(keyStep("End", 3, 8), 8);
  assert.equal(keyStep("Home", 3, 8), 0);
  assert.equal(keyStep("PageUp", 3, 8), 8);
  assert.equal(keyStep("a", 3, 8), null);
});

test("the chart: exact runs broken by a bound, the par line, no win in the top band", () => {
  const m = chartModel(WIN);
  assert.equal(m.last, 8);
  assert.deepEqual(m.runs.map((run) => run.length), [3, 5]); // positions 0-2, then 4-8
  assert.equal(m.bounds.length, 1);
  assert.ok(m.bounds[0].low > m.bounds[0].high); // the lower bound is drawn lower down
  assert.equal(m.par.y, m.y(5));
  assert.equal(m.x(0), m.plot.left);
  assert.equal(m.x(8), m.plot.right);
  assert.deepEqual(m.stretches, [{ number: 1, from: m.x(1), to: m.x(4) }]);
  assert.equal(m.indexAt(m.x(6) + 3), 6);
  assert.equal(m.indexAt(-50), 0);
  const lost = chartModel(LOSS);
  assert.deepEqual(lost.noWin.map((p) => p.index), [3, 4]);
  assert.ok(lost.noWin.every((p) => p.y < lost.plot.top)); // over every number
  assert.equal(lost.yOf(LOSS.points[3]), lost.band.middle);
  // A bound with no upper end reaches the top of the numbers.
  const open = chartModel({ ...WIN, points: [exact(0, 5), { index: 1, status: "bounds", lower: 4, upper: null }] });
  assert.equal(open.bounds[0].high, open.plot.top);
  assert.ok(open.bounds[0].open);
});

test("round tick steps", () => {
  assert.equal(tickStep(130, 6), 50);
  assert.equal(tickStep(8, 6), 2);
  assert.equal(tickStep(0, 4), 1);
});
