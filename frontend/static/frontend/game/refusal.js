// A refused move in the player's language: a short sentence built from the server's reason
// code and its facts (cards by code, places by pile name, ranks by letter), never from the
// English text the server also sends.

import { capitalise, cardName, pileName, t } from "./strings.js";

// Each fact in words: cards and places by their names, ranks, suits, colours, directions.
export function factWords(facts = {}) {
  const words = {};
  for (const [key, value] of Object.entries(facts)) {
    if (value === null || value === undefined) continue;
    if (key === "card" || key === "onto") words[key] = cardName(value);
    else if (key === "place" || key === "to") words[key] = pileName(value);
    else if (key === "rank") words[key] = t(`rank_${value}`);
    else if (key === "ranks") words[key] = value.map((rank) => t(`rank_${rank}`)).join(t("refusal_or"));
    else if (key === "suit") words[key] = t(`suit_${value}`);
    else if (key === "colour") words[key] = t(`colour_${value}`);
    else if (key === "direction") words[key] = t(`direction_${value}`);
  }
  return words;
}

// The sentence of a refusal ({reason, facts} as the server sends them), or a general one for
// a reason this page has no sentence for.
export function refusalText(refusal) {
  const reason = refusal && refusal.reason;
  const key = `refusal_${reason}`;
  const text = reason ? t(key, factWords(refusal.facts || {})) : key;
  return capitalise(text === key ? t("refusal_other") : text);
}
