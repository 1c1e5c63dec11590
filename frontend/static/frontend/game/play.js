// The play page: the game (game.js), its table (table.js, board.js, input.js) and the page's
// chrome (chrome.js), wired together for the daily named by the page.

import { onRetry } from "../common/http.js";
import { autoMoveFor } from "./automove.js";
import { Board } from "./board.js";
import { Chrome, summaryText } from "./chrome.js";
import { Game } from "./game.js";
import { Hints } from "./hint.js";
import { Input } from "./input.js";
import { masterpiece } from "./masterpiece.js";
import { munger } from "./munger.js";
import { capitalise, t } from "./strings.js";
import { Table } from "./table.js";

const LAYOUTS = { munger, masterpiece };

// A ranked game in play is the game of its day: the address names the day, so that a reload
// after midnight comes back to it (as it stood, when its day is over), not to the next deal.
function keepTheDay(state) {
  if (!state.ranked || state.status !== "playing" || !state.date) return;
  const dated = `/play/${state.game}/${state.date}/`;
  if (window.location.pathname !== dated) window.history.replaceState(null, "", dated);
}

function main(root) {
  const layout = LAYOUTS[root.dataset.game];
  const page = {
    game: root.dataset.game,
    date: root.dataset.date,
    title: root.dataset.gameTitle || capitalise(root.dataset.game),
    today: root.dataset.today,
    rulesUrl: root.dataset.rulesUrl,
    layout,
  };
  let board = null;
  let hints = null;
  const view = {
    draw: (state) => {
      board.render(state);
      hints.redraw(state);
    },
    update: (state) => {
      chrome.update(state, game.elapsed());
      keepTheDay(state);
      hints.update(state);
    },
    say: (text) => chrome.say(text),
    connection: (open) => chrome.connection(open),
    moved: (token, info) => auto.after(token, info),
    busy: (busy) => {
      chrome.busy(busy);
      if (!busy) board.drain();
    },
  };
  const game = new Game(page, view);
  const undo = () => {
    board.clearSelection();
    game.undo();
  };
  const chrome = new Chrome(root, page, {
    undo,
    finish: () => game.finish(),
    resign: () => game.resign(),
    refit: () => table.fit(),
    continueAsPractice: () => game.continueAsPractice(),
  });
  onRetry((kind) => chrome.say(t(kind === "throttled" ? "throttled" : "network")));
  const table = new Table(chrome.boardEl, layout, { anchor: root });
  board = new Board(table, game, { say: view.say, oneTap: () => chrome.oneTap() });
  const auto = autoMoveFor(root, game, board, () => chrome.autoMove());
  hints = new Hints(game, table, view.say);
  chrome.undoBtn.after(hints.button);
  new Input(table, board, game, {
    undo,
    help: () => chrome.showHelp(),
    summary: () => game.state && chrome.say(summaryText(game.state, game.elapsed())),
  });
  // The table fits the screen again when the window or the controls over it change size.
  const refit = () => table.fit();
  window.addEventListener("resize", refit);
  if (typeof ResizeObserver === "function") {
    const observer = new ResizeObserver(refit);
    observer.observe(chrome.statusEl);
    observer.observe(document.body);
  }
  game.start().then((started) => {
    if (started) setInterval(() => chrome.tick(game.elapsed()), 1000);
  });
}

const root = document.getElementById("play");
if (root && LAYOUTS[root.dataset.game]) main(root);
