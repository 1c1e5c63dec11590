// The table in play, wired: the game (game.js), its table (table.js, board.js, input.js), the
// auto-moves (automove.js) and the chrome around it (chrome.js), in `root`, for `page` ({game,
// date, title, today, rulesUrl, layout, startAttempt?}); a request tried again is said in its
// status line, and the table fits the screen again when the window or the controls over it
// change size. Both the play page (play.js, with the hints) and the race page (race/race.js)
// play through it.

import { onRetry } from "../common/http.js";
import { autoMoveFor } from "./automove.js";
import { Board } from "./board.js";
import { Chrome, summaryText } from "./chrome.js";
import { Game } from "./game.js";
import { Hints } from "./hint.js";
import { Input } from "./input.js";
import { t } from "./strings.js";
import { Table } from "./table.js";

// The status line, where it sits over the table (a phone held upright), keeps the room of its
// longest sentence while the game is played, and of two lines from the start where a move's
// sentence wraps: a move said in two lines never pushes the table down under a quick tap (a
// blank band opening over it). Beside the table, or once the game is over, it is as tall as
// its words.
export function holdStatusRoom(line, table, playing, kept) {
  const style = getComputedStyle(line);
  const size = parseFloat(style.fontSize) || 16;
  const above = line.getBoundingClientRect().bottom <= table.getBoundingClientRect().top + 1;
  if (!playing || !above) {
    line.style.minHeight = "";
    return kept;
  }
  const key = String(line.clientWidth);
  const lines = line.clientWidth < 36 * size ? 2 : 1;
  const reserve = lines * (parseFloat(style.lineHeight) || size * 1.3);
  const tallest = Math.max(kept.get(key) || 0, reserve, line.getBoundingClientRect().height);
  kept.set(key, tallest);
  line.style.minHeight = `${tallest}px`;
  return kept;
}

// options: {hints}: the Hint button and its marks on the table (the play page's); {onState}:
// called with each state the page shows, after the chrome.
export function mountGame(root, page, { hints: withHints = false, onState = null } = {}) {
  let board = null;
  let hints = null;
  const statusRoom = new Map();
  const steadyStatus = () => holdStatusRoom(chrome.statusEl, chrome.boardEl, game.playing(), statusRoom);
  const view = {
    draw: (state) => {
      board.render(state);
      if (hints) hints.redraw(state);
    },
    update: (state) => {
      chrome.update(state, game.elapsed());
      steadyStatus();
      if (onState) onState(state);
      if (hints) hints.update(state);
    },
    say: (text) => {
      chrome.say(text);
      steadyStatus();
    },
    connection: (open) => chrome.connection(open),
    moved: (token, info) => auto.after(token, info),
    busy: (busy) => {
      chrome.busy(busy);
      if (!busy) board.drain(); // the taps that came meanwhile
    },
  };
  const game = new Game(page, view);
  // Undo waits its turn behind a move on its way and the taps that came meanwhile.
  const undo = () => board.undo();
  const chrome = new Chrome(root, { ...page, hints: withHints }, {
    undo,
    finish: () => game.finish(),
    resign: () => game.resign(),
    refit: () => table.fit(),
    continueAsPractice: () => game.continueAsPractice(),
  });
  onRetry((kind) => chrome.say(t(kind === "throttled" ? "throttled" : "network")));
  const table = new Table(chrome.boardEl, page.layout, { anchor: root });
  board = new Board(table, game, { say: view.say, oneTap: () => chrome.oneTap() });
  const auto = autoMoveFor(root, game, board, () => chrome.autoMove());
  if (withHints) {
    hints = new Hints(game, table, view.say);
    chrome.undoBtn.after(hints.button);
  }
  new Input(table, board, game, {
    undo,
    help: () => chrome.showHelp(),
    summary: () => game.state && chrome.say(summaryText(game.state, game.elapsed())),
  });
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
  return { game, chrome };
}
