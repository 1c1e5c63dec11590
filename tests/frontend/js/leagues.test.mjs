// Unit tests of what the leagues' pages say (pages/leaguewords.js).
import assert from "node:assert/strict";
import test from "node:test";

import { useCatalogue } from "../../../frontend/static/frontend/common/text.js";
import {
  dayBefore,
  inviteLink,
  namesAMember,
  notPlayed,
  orderResults,
  refusalWords,
  resultWords,
  tidyLeagueName,
} from "../../../frontend/static/frontend/pages/leaguewords.js";

useCatalogue({
  lg_error_league_full: "full",
  lg_error_leagues_full: "too many leagues",
  lg_error_creations: "address",
  lg_error_not_owner: "owner only",
  lg_error_not_found: "no league",
  lg_error_name: "{min} to {max}",
  lg_error_throttled: "slow down",
  lg_error_network: "offline",
  lg_error_failed: "failed",
  lg_won: { one: "won in {n} move", other: "won in {n} moves" },
  lg_resigned: { one: "resigned, {n} card", other: "resigned, {n} cards" },
  lg_playing: { one: "playing, {n} card", other: "playing, {n} cards" },
});

test("each refusal code of the leagues' API is said in words", () => {
  const said = (code, status = 409) => refusalWords({ code, status }, { name_min: 2, name_max: 40 });
  assert.equal(said("league_full"), "full");
  assert.equal(said("leagues_full"), "too many leagues");
  assert.equal(said("league_creations_address"), "address");
  assert.equal(said("not_league_owner", 403), "owner only");
  assert.equal(said("league_not_found", 404), "no league");
  assert.equal(said("bad_league_name", 400), "2 to 40");
  assert.equal(said("http_429", 429), "slow down");
  assert.equal(said("network", 0), "offline");
  assert.equal(said("something_new", 500), "failed");
});

test("a result says won in how many moves, resigned or playing, with the cards home", () => {
  assert.equal(resultWords({ status: "won", moves: 1, foundation_cards: 52 }), "won in 1 move");
  assert.equal(resultWords({ status: "won", moves: 91, foundation_cards: 52 }), "won in 91 moves");
  assert.equal(resultWords({ status: "resigned", moves: 40, foundation_cards: 12 }), "resigned, 12 cards");
  assert.equal(resultWords({ status: "playing", moves: 3, foundation_cards: 1 }), "playing, 1 card");
});

test("wins come first, the fewest moves first, then those playing by cards home", () => {
  const results = [
    { player: "Cy", status: "resigned", moves: 10, foundation_cards: 30 },
    { player: "Ann", status: "won", moves: 95, foundation_cards: 52 },
    { player: "Dee", status: "playing", moves: 5, foundation_cards: 4 },
    { player: "Ben", status: "won", moves: 80, foundation_cards: 52 },
    { player: "Eve", status: "playing", moves: 9, foundation_cards: 20 },
  ];
  assert.deepEqual(orderResults(results).map((r) => r.player), ["Ben", "Ann", "Eve", "Dee", "Cy"]);
});

test("the members who have not played are named", () => {
  const members = [{ player_id: 1, player: "Ann" }, { player_id: 2, player: "Ben" }];
  assert.deepEqual(notPlayed(members, [{ player_id: 1 }]), ["Ben"]);
});

test("the season before is reached by the day before the first", () => {
  assert.equal(dayBefore("2026-12-07"), "2026-12-06");
  assert.equal(dayBefore("2026-03-01"), "2026-02-28");
  assert.equal(dayBefore("2027-01-01"), "2026-12-31");
});

test("an invite's link and a league's name as typed", () => {
  assert.equal(inviteLink("http://x.test", "Ab_9-z"), "http://x.test/leagues/join/Ab_9-z/");
  assert.equal(tidyLeagueName("  The   club "), "The club");
  assert.equal(tidyLeagueName("x"), "");
  assert.equal(tidyLeagueName("y".repeat(41)), "");
});

test("a daily's event matters to the page when it names a member, on its board or in its feed", () => {
  const members = new Set(["ann", "bo"]);
  assert.equal(namesAMember({ type: "update", feed: [{ player: "zed" }, { player: "bo" }] }, members), true);
  assert.equal(namesAMember({ type: "update", board: { top: [{ player: "ann" }] } }, members), true);
  assert.equal(namesAMember({ type: "update", feed: [{ player: "zed" }], board: { top: [] } }, members), false);
  assert.equal(namesAMember({ type: "update", counts: { players: 3 } }, members), false);
});
