// What the leagues' pages say (pages/leagues.js, league.js, league_join.js): the API's
// refusals in words, a day's result of a member, the seasons' captions and the day that leads
// to the season before. Pure: no element is made here (tests/frontend/js/leagues.test.mjs).

import { t } from "../common/text.js";

// The catalogue key of each refusal code of the leagues' API.
const REFUSALS = {
  league_full: "lg_error_league_full",
  leagues_full: "lg_error_leagues_full",
  league_creations_address: "lg_error_creations",
  not_league_owner: "lg_error_not_owner",
  league_not_found: "lg_error_not_found",
  owner_remove: "lg_error_owner_remove",
  member_not_found: "lg_error_member_gone",
  bad_league_name: "lg_error_name",
  invalid: "lg_error_name",
  throttled: "lg_error_throttled",
  network: "lg_error_network",
};

// An ApiError (common/http.js) in words; `limits` fills the name's {min} and {max}.
export function refusalWords(error, limits = {}) {
  const code = error && error.code;
  let key = REFUSALS[code];
  if (!key && error && error.status === 429) key = "lg_error_throttled";
  if (!key && error && error.status === 0) key = "lg_error_network";
  return t(key || "lg_error_failed", { min: limits.name_min, max: limits.name_max });
}

// A member's daily of today in words: won in n moves, resigned, or playing and how far.
export function resultWords(result) {
  if (result.status === "won") return t("lg_won", { n: result.moves });
  if (result.status === "resigned") return t("lg_resigned", { n: result.foundation_cards });
  return t("lg_playing", { n: result.foundation_cards });
}

// Wins first (fewer moves first), then those playing (more cards home first), then the rest.
export function orderResults(results) {
  const order = { won: 0, playing: 1, resigned: 2 };
  return [...results].sort(
    (a, b) =>
      (order[a.status] ?? 3) - (order[b.status] ?? 3) ||
      (a.status === "won" ? a.moves - b.moves : b.foundation_cards - a.foundation_cards) ||
      String(a.player).localeCompare(String(b.player)),
  );
}

// The members with no result on a daily yet, by name.
export function notPlayed(members, results) {
  const played = new Set(results.map((r) => r.player_id));
  return members.filter((m) => !played.has(m.player_id)).map((m) => m.player);
}

// A day (ISO, a UTC date) in the reader's language: "7 Dec 2026".
export function dayWords(iso, lang = "en") {
  const when = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(when.getTime())) return String(iso);
  try {
    return when.toLocaleDateString(lang, { dateStyle: "medium", timeZone: "UTC" });
  } catch {
    return String(iso);
  }
}

// A day of the season before the one that starts on `first` (ISO): the day before it.
export function dayBefore(first) {
  const when = new Date(`${first}T00:00:00Z`);
  when.setUTCDate(when.getUTCDate() - 1);
  return when.toISOString().slice(0, 10);
}

// The address of an invite on this site.
export function inviteLink(origin, code) {
  return `${origin}/leagues/join/${encodeURIComponent(code)}/`;
}

// A league's name as typed, its spaces tidied; "" when its length is not allowed.
export function tidyLeagueName(text, min = 2, max = 40) {
  const name = String(text || "").trim().replace(/\s+/g, " ");
  return name.length >= min && name.length <= max ? name : "";
}

// Whether an event of a daily's socket (a snapshot or an update) names a member: a row of its
// board or of its feed of moves, by display name (names are unique). `names`: a Set.
export function namesAMember(event, names) {
  const rows = [...((event.board && event.board.top) || []), ...(event.feed || [])];
  return rows.some((row) => names.has(row.player));
}
