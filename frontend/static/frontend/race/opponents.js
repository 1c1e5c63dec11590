// The racers' panel of a race page: each racer's name, state and progress (moves, cards on
// the foundations and a small picture of their foundations: the top card of each suit, drawn
// as little cards with the table's faces and colours). It shows nothing else of anyone's game:
// the race's view carries nothing else. Compact: a racer a line (two on a narrow panel), so
// that it sits beside the table, or over it on a phone, without pushing it off the screen.

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

// What is said of a racer beside their name: in the lobby whether they are ready (and who
// starts the race), then how their game stands; never nothing.
export function racerWords(racer, lobby) {
  const words = [];
  if (racer.gone) words.push(t("race_gone"));
  else if (lobby) {
    words.push(racer.ready ? t("race_ready_mark") : t("race_not_ready_mark"));
    if (racer.host) words.push(t("race_host"));
  } else words.push(t(`race_status_${racer.status}`));
  return words.join(", ");
}

// The panel: every racer, you marked as such.
export function opponentsPanel(race, youName) {
  const lobby = race.status === "lobby";
  return el(
    "ul",
    { className: "race-racers", testid: "racers" },
    ...race.racers.map((racer) => {
      const words = racerWords(racer, lobby);
      return el(
        "li",
        { className: `race-racer${racer.gone ? " gone" : ""}`, testid: "racer" },
        el(
          "span",
          { className: "race-who" },
          el("strong", { text: racer.name }),
          racer.name === youName ? ` (${t("race_you")})` : null,
          words ? " · " : null,
          words ? el("span", { testid: "racer-state", text: words }) : null,
        ),
        lobby
          ? null
          : el(
              "span",
              { className: "race-how" },
              el("span", { className: "race-progress", testid: "racer-moves", text: `${t("race_moves")} ${racer.moves} · ${racer.foundation_cards}/52` }),
              " ",
              foundationPicture(racer.foundations),
            ),
      );
    }),
  );
}
