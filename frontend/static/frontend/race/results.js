// What a race says of its results, in the page's language (pure functions of the race's view,
// no page): a racer's row, their place in the race ("2 of 3"), the deal's par once the race is
// over, and the share text. A result held by the fair-play checks is listed "under review" and
// ranks nobody (races/selectors.py `results`): its player is told so, never given a place.

import { clock, t } from "../common/text.js";

// The results that rank (held ones do not).
function ranked(race) {
  return race.results.filter((r) => !r.held);
}

// A racer's row of the results (by their racer id), or null while they have none.
export function resultOf(race, racerId) {
  return race.results.find((r) => r.id === racerId) || null;
}

// Where the racer stands: their place once the race is over ("2 of 3"), "under review" for a
// held result, and "once every racer has finished" before.
export function placeWords(race, row) {
  if (row && row.held) return t("rank_held");
  if (!row || race.status !== "over" || row.rank === null) return t("race_rank_later");
  return t("rank_of", { rank: row.rank, total: ranked(race).length });
}

// The deal's par: a number once the race is over (the server says it then), else null.
export function parOf(race) {
  return race.par === null || race.par === undefined ? null : race.par;
}

// The share text of a race's results from one racer's row ("" without a row): their place
// once the race is over, "under review" for a held result, and the link of the race.
export function shareText(race, row, title, url) {
  if (!row) return "";
  const result = row.won
    ? t("race_share_won", { moves: row.moves, time: clock(row.seconds) })
    : t("race_share_lost", { cards: row.foundation_cards });
  let said = result;
  if (row.held) said = `${result} (${t("race_under_review")})`;
  else if (race.status === "over" && row.rank !== null) said = `#${row.rank}/${ranked(race).length}, ${result}`;
  return `${t("race_share_text", { game: title, result: said })} ${url}`;
}
