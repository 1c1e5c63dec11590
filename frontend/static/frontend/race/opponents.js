// The racers' panel of a race page: each racer's name, state and progress (moves, cards on
// the foundations and a small picture of their foundations: the top card of each suit). It
// shows nothing else of anyone's game: the race's view carries nothing else.

import { el } from "../common/dom.js";
import { t } from "../common/text.js";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// One racer's foundations as four small cards: the top card, or the suit when empty.
export function foundationPicture(foundations) {
  return el(
    "span",
    { className: "race-foundations", "aria-hidden": "true" },
    ...foundations.map((f) =>
      el("span", {
        className: `race-foundation suit-${f.suit}${f.top ? "" : " empty"}`,
        text: f.top ? `${f.top[0] === "T" ? "10" : f.top[0]}${SUITS[f.suit] || f.suit}` : SUITS[f.suit] || f.suit,
      }),
    ),
  );
}

// What is said of a racer beside their name.
export function racerWords(racer, lobby) {
  const words = [];
  if (racer.gone) words.push(t("race_gone"));
  else if (lobby) {
    if (racer.ready) words.push(t("race_ready_mark"));
    if (racer.host) words.push(t("race_host"));
  } else words.push(t(`race_status_${racer.status}`));
  return words.join(", ");
}

// The panel: every racer, you first marked as such.
export function opponentsPanel(race, youName) {
  const lobby = race.status === "lobby";
  return el(
    "ul",
    { className: "race-racers", testid: "racers" },
    ...race.racers.map((racer) =>
      el(
        "li",
        { className: `race-racer${racer.gone ? " gone" : ""}`, testid: "racer" },
        el("strong", { text: racer.name }),
        racer.name === youName ? ` (${t("race_you")})` : "",
        " · ",
        el("span", { testid: "racer-state", text: racerWords(racer, lobby) }),
        lobby ? null : el("span", { className: "race-progress", testid: "racer-moves", text: ` · ${t("race_moves")} ${racer.moves} · ${racer.foundation_cards}/52 ` }),
        lobby ? null : foundationPicture(racer.foundations),
      ),
    ),
  );
}
