// The table in play, wired: the game (game.js), its table (table.js, board.js, input.js) and
// the chrome around it (chrome.js), in `root`, for `page` ({game, date, title, today, layout,
// startAttempt?}); a request tried again is said in its status line. The race page plays
// through it (the play page wires the hints in as well).

import { onRetry } from "../common/http.js";
import { autoMoveFor } from "./automove.js";
import { Board } from "./board.js";
import { Chrome, summaryText } from "./chrome.js";
import { Game } from "./game.js";
import { Input } from "./input.js";
import { t } from "./strings.js";
import { Table } from "./table.js";

export function mountGame(root, page) {
  let board = null;
  const view = {
    draw: (state) => board.render(state),
    update: (state) => chrome.update(state, game.elapsed()),
    say: (text) => chrome.say(text),
    connection: (open) => chrome.connection(open),
    moved: (token, info) => auto.after(token, info),
    busy: (busy) => {
      chrome.busy(busy);
      if (!busy) board.drain(); // the taps that came meanwhile
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
  const table = new Table(chrome.boardEl, page.layout);
  board = new Board(table, game, { say: view.say, oneTap: () => chrome.oneTap() });
  const auto = autoMoveFor(root, game, board, () => chrome.autoMove());
  new Input(table, board, game, {
    undo,
    help: () => chrome.showHelp(),
    summary: () => game.state && chrome.say(summaryText(game.state, game.elapsed())),
  });
  const refit = () => table.fit();
  window.addEventListener("resize", refit);
  game.start().then((started) => {
    if (started) setInterval(() => chrome.tick(game.elapsed()), 1000);
  });
  return { game, chrome };
}
