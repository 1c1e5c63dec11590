// The play page: the daily named by the page, on the table wired by mount.js, with the hints
// and, at the end, the offer to race friends on the deal, and to a player with no name of their
// own yet, the name the boards show (naming.js).

import { masterpiece } from "./masterpiece.js";
import { mountGame } from "./mount.js";
import { munger } from "./munger.js";
import { NameOffer } from "./naming.js";
import { capitalise } from "./strings.js";

const LAYOUTS = { munger, masterpiece };

// A ranked game in play is the game of its day: the address names the day, so that a reload
// after midnight comes back to it (as it stood, when its day is over), not to the next deal.
function keepTheDay(state) {
  if (!state.ranked || state.status !== "playing" || !state.date) return;
  const dated = `/play/${state.game}/${state.date}/`;
  if (window.location.pathname !== dated) window.history.replaceState(null, "", dated);
}

const root = document.getElementById("play");
if (root && LAYOUTS[root.dataset.game]) {
  let offer = null; // the name the boards show, at the end (naming.js)
  const onState = (state) => {
    keepTheDay(state);
    if (offer) offer.update(state);
  };
  const { chrome } = mountGame(
    root,
    {
      game: root.dataset.game,
      date: root.dataset.date,
      title: root.dataset.gameTitle || capitalise(root.dataset.game),
      today: root.dataset.today,
      rulesUrl: root.dataset.rulesUrl,
      layout: LAYOUTS[root.dataset.game],
      challenge: true,
    },
    { hints: true, onState },
  );
  offer = new NameOffer(chrome.endEl, { offered: root.dataset.offerName === "true" });
}
