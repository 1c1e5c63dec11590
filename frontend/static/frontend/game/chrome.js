// The play page's chrome around the table: the counters and the clock, the buttons, the
// status line (a polite live region), the "no move left" notice, the resign dialog, the
// connection line and the end panel. It shows what the game (game.js) holds and sends the
// buttons' clicks back to it; it decides nothing about the game.

import { el } from "../common/dom.js";
import { clock } from "../common/text.js";
import { analysisLink, histogram, raceOffer, rankInto, reviewNotice, solutionReplay, weekOutlook } from "./end.js";
import { capitalise, t } from "./strings.js";

const FOUR_COLOUR_KEY = "patience.fourColourDeck";
const ONE_TAP_KEY = "patience.oneTap";
const LARGE_INDEX_KEY = "patience.largeIndex";
const AUTO_MOVE_KEY = "patience.autoMove";
const SPEED_KEY = "patience.speed";
const SPEEDS = ["normal", "fast", "instant"];

function storageGet(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function storageSet(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

// A setting's checkbox and its label, kept in the browser under `key` (`fallback` until the
// player changes it); `changed` runs after each change.
function setting(id, key, label, fallback, changed = () => {}) {
  const box = el("input", { type: "checkbox", id, testid: id });
  const stored = storageGet(key);
  box.checked = stored === null ? fallback : stored === "1";
  box.addEventListener("change", () => {
    storageSet(key, box.checked ? "1" : "0");
    changed();
  });
  return [el("label", { className: "toggle", for: id }, box, " ", label), box];
}

// "no undo", "1 undo", "3 undos" in the page's language.
export function undoWords(undos) {
  return undos ? t("n_undos", { n: undos }) : t("no_undo");
}

// "111 moves, 1 undo": how a result's moves are said, the undos always with them, and the
// hints when there were some ("111 moves, no undo, 2 hints").
export function movesWithUndos(state) {
  const said = `${t("n_moves", { n: state.moves_played })}, ${undoWords(state.undos || 0)}`;
  return state.hints ? `${said}, ${t("n_hints", { n: state.hints })}` : said;
}

// What the game counts towards, said before the first move: a ranked daily's rule (wins, then
// moves, then time; an undo is a move; no hints), or practice where hints are offered.
export function rankNoteText(state, { hints = false } = {}) {
  if (state.ranked) return t("rank_note_ranked");
  if (hints && state.hints_open) return t("rank_note_practice");
  return "";
}

// The position in short, for the S key: cards on the foundations, Munger's stock and waste,
// moves and undos, time.
export function summaryText(state, seconds) {
  const parts = [t("summary_foundations", { n: state.foundation_cards })];
  const view = state.view || {};
  if (view.stock) {
    const waste = (view.waste || []).length;
    parts.push(t("summary_stock", { stock: t("n_cards", { n: view.stock.count }), waste: t("n_cards", { n: waste }) }));
  }
  parts.push(`${capitalise(movesWithUndos(state))}.`, t("summary_time", { time: clock(seconds) }));
  return parts.join(" ");
}

// A note said before the first move. Once on screen it keeps its room while the game goes
// on (an empty line), so that the table never moves up under a player's quick second tap;
// it leaves the page at the end, or when a page opens on a game already begun.
function sayBeforeFirstMove(note, show, playing) {
  if (show) {
    note.hidden = false;
    note.style.visibility = "";
  } else if (playing && !note.hidden) {
    note.style.visibility = "hidden";
  } else {
    note.hidden = true;
    note.style.visibility = "";
  }
}

export class Chrome {
  // page: {game, date, title, today, rulesUrl, challenge, hints, end}: `challenge`, the end
  // panel offers to race friends on the deal (the play page's); `hints`, the page offers hints
  // where the server allows them (its counter and its note); `end`, what a page that is not a
  // daily's says at the end instead (a race's: race/race.js): {key() (the end panel is drawn
  // again when it changes: `refreshEnd`), par() (a number, or null while unknown), parWords
  // (said while it is unknown), rankInto(dd, state), shareText(state, seconds), notice(state)
  // (an element, or null)}; actions: {undo, finish, resign, refit, continueAsPractice}.
  constructor(root, page, actions) {
    this.root = root;
    this.page = page;
    this.actions = actions;
    this.seenPlaying = false;
    this.build();
  }

  build() {
    const { actions } = this;
    this.movesEl = el("span", { className: "stat-value", testid: "moves", text: "0" });
    this.timerEl = el("span", { className: "stat-value", testid: "timer", text: "0:00" });
    this.parEl = el("span", { className: "stat-value", testid: "par", text: "" });
    this.parBox = el("span", { className: "stat", hidden: true }, el("span", { text: t("par") }), " ", this.parEl);
    this.rankedEl = el("span", { className: "badge-ranked", testid: "ranked" });
    // The assists are counted in sight: undos always, hints where the page offers them.
    this.undosEl = el("span", { className: "stat-value", testid: "undos", text: "0" });
    this.hintsEl = el("span", { className: "stat-value", testid: "hints-count", text: "0" });
    this.hintsBox = el("span", { className: "stat", hidden: true }, el("span", { text: t("hints_used") }), " ", this.hintsEl);
    const stats = el(
      "p",
      { className: "play-stats" },
      el("span", { className: "stat" }, el("span", { text: t("moves") }), " ", this.movesEl),
      el("span", { className: "stat" }, el("span", { text: t("undos") }), " ", this.undosEl),
      this.hintsBox,
      // The clock's rule stays a hover (or long-press) away after the first move.
      el("span", { className: "stat", title: t("clock_policy"), testid: "time-stat" }, el("span", { text: t("time") }), " ", this.timerEl),
      this.parBox,
      this.rankedEl,
    );

    // "Undo (counts as a move)": the part in brackets may fold away on a short screen, where
    // the note said before the first move says it (game.css); the title always does.
    this.undoBtn = el(
      "button",
      { type: "button", className: "btn", testid: "undo", title: t("undo_hint") },
      t("undo_short"),
      el("span", { className: "undo-cost" }, " ", t("undo_cost")),
    );
    this.finishBtn = el("button", { type: "button", className: "btn btn-primary", testid: "finish", text: t("finish"), hidden: true });
    this.resignBtn = el("button", { type: "button", className: "btn", testid: "resign", text: t("resign") });
    const applyLooks = () => {
      this.applyDeck();
      if (actions.refit) actions.refit(); // larger indices open up the fans' strips
    };
    const [oneTap, oneTapBox] = setting("one-tap", ONE_TAP_KEY, t("one_tap"), true);
    const [toggle, fourColour] = setting("four-colour", FOUR_COLOUR_KEY, t("four_colour"), false, applyLooks);
    const [largeIndex, largeIndexBox] = setting("large-index", LARGE_INDEX_KEY, t("large_index"), false, applyLooks);
    this.oneTapBox = oneTapBox;
    this.fourColour = fourColour;
    this.largeIndex = largeIndexBox;
    const [autoMove, autoMoveBox] = setting("auto-move", AUTO_MOVE_KEY, t("auto_move"), false);
    this.autoMoveBox = autoMoveBox;
    const autoNote = el("p", { className: "setting-note", id: "auto-move-note", text: t("auto_move_note") });
    autoMoveBox.setAttribute("aria-describedby", "auto-move-note");
    this.speedSelect = el(
      "select",
      { id: "speed", testid: "speed" },
      ...SPEEDS.map((speed) => el("option", { value: speed, text: t(`speed_${speed}`) })),
    );
    const speed = el("label", { className: "toggle", for: "speed" }, t("speed"), " ", this.speedSelect);
    // The settings fold away: open, they lie over the table instead of pushing it down.
    this.settings = el(
      "details",
      { className: "play-settings", testid: "settings" },
      el("summary", { className: "btn", text: t("settings") }),
      el("div", { className: "settings-panel" }, oneTap, speed, autoMove, autoNote, toggle, largeIndex),
    );
    this.keysBtn = el("button", { type: "button", className: "btn", testid: "keys", text: t("keys_button"), "aria-keyshortcuts": "?" });
    const controls = el("div", { className: "play-controls" }, this.undoBtn, this.finishBtn, this.resignBtn, this.keysBtn, this.settings);

    this.statusEl = el("p", { className: "play-status", role: "status", "aria-live": "polite", "aria-atomic": "true", testid: "status" });
    // Said before the first move, in short (the rules pages say each at length): what the
    // game counts towards, the clock's rule, and what the deal is promised to be.
    this.rankNoteEl = el("p", { className: "play-policy", testid: "rank-note", hidden: true });
    this.policyEl = el("p", { className: "play-policy", testid: "clock-policy", text: t("clock_note"), hidden: true });
    this.promiseEl = el("p", { className: "play-policy", testid: "deal-promise", hidden: true });
    const blockedUndo = el("button", { type: "button", className: "btn", text: t("undo") });
    const blockedResign = el("button", { type: "button", className: "btn", text: t("resign") });
    this.blockedEl = el(
      "div",
      { className: "play-blocked", hidden: true, testid: "blocked" },
      el("span", { text: t("blocked") }),
      " ",
      blockedUndo,
      " ",
      blockedResign,
    );

    this.continueBtn = el("button", { type: "button", className: "btn btn-primary", testid: "continue-practice", text: t("continue_practice") });
    this.dayOverEl = el(
      "div",
      { className: "play-blocked", hidden: true, testid: "day-over" },
      el("span", { text: t("day_over") }),
      " ",
      this.continueBtn,
    );

    this.boardEl = el("div", {
      className: `board board-${this.page.game}`,
      id: "board",
      testid: "board",
      role: "region",
      "aria-label": t("board_label", { game: this.page.title }),
      "aria-describedby": "board-help",
    });
    const help = el("p", { className: "play-help", id: "board-help", text: t("keyboard_help") });
    this.endEl = el("section", { className: "play-end", hidden: true, testid: "end", "aria-labelledby": "end-title" });

    const confirmYes = el("button", { type: "button", className: "btn btn-danger", testid: "resign-confirm", text: t("resign_confirm") });
    const confirmNo = el("button", { type: "button", className: "btn", testid: "resign-cancel", text: t("resign_cancel") });
    this.dialog = el(
      "dialog",
      { className: "confirm", "aria-labelledby": "resign-title" },
      el("h2", { id: "resign-title", text: t("resign_title") }),
      el("p", { text: t("resign_question") }),
      el("div", { className: "dialog-buttons" }, confirmNo, confirmYes),
    );
    this.connectionEl = el("p", { className: "connection", testid: "connection", hidden: true });

    this.helpDialog = this.buildHelp();
    const bar = el("div", { className: "play-bar" }, stats, controls);
    // What goes with the table while it is played: above it, or beside it on a short, wide
    // screen (a phone on its side: game.css), so that the table keeps the height.
    const side = el("div", { className: "play-side" }, bar, this.statusEl, this.rankNoteEl, this.policyEl, this.promiseEl, this.blockedEl, this.dayOverEl);
    this.root.replaceChildren(side, this.boardEl, this.endEl, help, this.connectionEl, this.dialog, this.helpDialog);
    this.keysBtn.addEventListener("click", () => this.showHelp());

    this.undoBtn.addEventListener("click", () => actions.undo());
    blockedUndo.addEventListener("click", () => actions.undo());
    this.continueBtn.addEventListener("click", () => actions.continueAsPractice());
    this.finishBtn.addEventListener("click", () => actions.finish());
    this.resignBtn.addEventListener("click", () => this.askResign());
    blockedResign.addEventListener("click", () => this.askResign());
    confirmYes.addEventListener("click", () => {
      this.dialog.close();
      actions.resign();
    });
    confirmNo.addEventListener("click", () => this.dialog.close());

    this.applyDeck();
    const stored = storageGet(SPEED_KEY);
    this.speedSelect.value = SPEEDS.includes(stored) ? stored : "normal";
    this.applySpeed();
    this.speedSelect.addEventListener("change", () => {
      storageSet(SPEED_KEY, this.speedSelect.value);
      this.applySpeed();
    });
  }

  // Whether a tap on a card makes its smart move (the one-tap setting, on unless turned off).
  oneTap() {
    return this.oneTapBox.checked;
  }

  // Whether the safe foundation moves are played after the player's moves (automove.js).
  autoMove() {
    return this.autoMoveBox.checked;
  }

  applySpeed() {
    this.root.dataset.speed = this.speedSelect.value;
  }

  // The rules and keys, one key (?) away: a dialog over the table, which keeps its state.
  buildHelp() {
    const keys = el("dl", { className: "keys-list" });
    // The letter keys are the same in every language; the others' names are translated.
    for (const [key, text] of [
      [t("keys_arrows"), "keys_arrows_do"],
      [t("keys_home_end"), "keys_home_end_do"],
      [t("keys_shift"), "keys_shift_do"],
      [t("keys_enter"), "keys_enter_do"],
      [t("keys_escape"), "keys_escape_do"],
      ["U", "keys_u_do"],
      ["S", "keys_s_do"],
      ["H", "keys_h_do"],
      ["?", "keys_question_do"],
    ]) {
      keys.append(el("dt", {}, el("kbd", { text: key })), el("dd", { text: t(text) }));
    }
    const close = el("button", { type: "button", className: "btn", testid: "help-close", text: t("close") });
    const dialog = el(
      "dialog",
      { className: "confirm help-dialog", "aria-labelledby": "help-title", testid: "help" },
      el("h2", { id: "help-title", text: t("help_title") }),
      el("p", { text: t("help_tap") }),
      keys,
      el("p", {}, el("a", { href: this.page.rulesUrl, text: t("help_rules", { game: this.page.title }) })),
      el("div", { className: "dialog-buttons" }, close),
    );
    close.addEventListener("click", () => dialog.close());
    return dialog;
  }

  showHelp() {
    if (this.helpDialog.open) return;
    if (typeof this.helpDialog.showModal === "function") this.helpDialog.showModal();
  }

  // The cards' looks: the four-colour deck, the large corner indices (game.css).
  applyDeck() {
    this.root.classList.toggle("deck-four", this.fourColour.checked);
    this.root.classList.toggle("index-large", this.largeIndex.checked);
  }

  // The status line. Set anew even when the text repeats, so that screen readers say it again.
  say(text) {
    this.statusEl.textContent = "";
    window.requestAnimationFrame(() => {
      this.statusEl.textContent = text;
    });
  }

  connection(open) {
    this.connectionEl.hidden = false;
    this.connectionEl.textContent = open ? t("live") : t("live_lost");
  }

  busy(busy) {
    if (busy) this.boardEl.setAttribute("aria-busy", "true");
    else this.boardEl.removeAttribute("aria-busy");
  }

  tick(seconds) {
    this.timerEl.textContent = clock(seconds);
  }

  // The chrome after a state: counters, buttons, notices, and the end panel once it is over.
  update(state, seconds) {
    const playing = state.status === "playing";
    this.movesEl.textContent = String(state.moves_played);
    this.undosEl.textContent = String(state.undos || 0);
    this.hintsEl.textContent = String(state.hints || 0);
    this.hintsBox.hidden = !(this.page.hints && (state.hints_open || state.hints));
    this.tick(seconds);
    this.rankedEl.textContent = state.ranked ? t("ranked") : t("practice");
    this.undoBtn.disabled = !playing || !state.can_undo;
    this.finishBtn.hidden = !(playing && state.finishable);
    this.blockedEl.hidden = !(playing && state.blocked);
    // A ranked game caught by the end of its day: shown as it stood, and the way on unranked.
    this.dayOverEl.hidden = !(playing && state.day_over);
    this.resignBtn.disabled = !playing || state.day_over;
    // What the game counts towards, and the clock's rule, are said before the first move.
    const first = playing && state.seq === 0;
    const rankNote = rankNoteText(state, { hints: this.page.hints });
    this.rankNoteEl.textContent = rankNote;
    sayBeforeFirstMove(this.rankNoteEl, first && Boolean(rankNote), playing);
    sayBeforeFirstMove(this.policyEl, first, playing);
    // So is what a daily's deal is promised to be (a random deal has no date), with the par's
    // proof when the server has one.
    sayBeforeFirstMove(this.promiseEl, first && Boolean(state.date), playing);
    this.promiseEl.textContent = state.par_proven ? `${t("deal_note")} ${t("par_proven_note")}` : t("deal_note");
    this.root.dataset.status = state.status;
    const parValue = this.parOf(state);
    const par = parValue !== null && parValue !== undefined;
    this.parBox.hidden = playing || !par;
    if (!playing && par) this.parEl.textContent = String(parValue);
    if (playing) {
      this.seenPlaying = true;
      this.endEl.hidden = true;
    } else {
      this.showEnd(state, seconds);
    }
  }

  askResign() {
    if (typeof this.dialog.showModal === "function") this.dialog.showModal();
    else if (window.confirm(t("resign_question"))) this.actions.resign();
  }

  // -- the end ---------------------------------------------------------------------------------

  // The deal's par as the end shows it: the page's own (a race's, once it is over), else the
  // state's (a daily's, once it may be shown).
  parOf(state) {
    return this.page.end ? this.page.end.par() : state.par;
  }

  // The end panel drawn again when what the page says of it changed (a race's results, its
  // par once it is over); nothing while the game is played.
  refreshEnd() {
    if (this.endEl.hidden || !this.lastEnd) return;
    const [state, seconds] = this.lastEnd;
    const par = this.parOf(state);
    this.parBox.hidden = par === null || par === undefined;
    if (!this.parBox.hidden) this.parEl.textContent = String(par);
    this.showEnd(state, seconds, { quiet: true });
  }

  shareText(state, seconds) {
    if (this.page.end) return this.page.end.shareText(state, seconds);
    const key = state.status === "won" ? "share_won" : "share_resigned";
    const moves = movesWithUndos(state);
    const line = t(key, { game: this.page.title, date: state.date || this.page.date, moves, time: clock(seconds) });
    return `${line}\n${window.location.origin}${window.location.pathname}`;
  }

  // quiet: drawn again for the page's news (refreshEnd), not for a new end: the status line
  // does not say it again.
  showEnd(state, seconds, { quiet = false } = {}) {
    const s = state;
    const end = this.page.end || null;
    this.lastEnd = [state, seconds];
    // Drawn once per result: a refresh of the same state keeps the panel (and "Copied") as is.
    const key = `${s.id}:${s.seq}:${s.status}:${s.par}:${s.review}:${s.disqualified_reason}:${end ? end.key() : ""}`;
    if (!this.endEl.hidden && this.endKey === key) return;
    this.endKey = key;
    const title = s.status === "won" ? t("end_won") : t("end_resigned");
    // The status line says how it ended, whatever it said before (a move's words, a reconnection).
    if (!quiet) this.say(title);
    const facts = el("dl", { className: "end-facts" });
    const fact = (term, value, testid) => facts.append(el("dt", { text: term }), el("dd", { text: value, testid }));
    fact(t("moves"), String(s.moves_played), "end-moves");
    fact(t("undos"), undoWords(s.undos || 0), "end-undos");
    fact(t("time"), clock(seconds), "end-time");
    const par = this.parOf(s);
    const parUnknown = end && end.parWords ? end.parWords : t("par_unknown");
    fact(t("par"), par === null || par === undefined ? parUnknown : String(par), "end-par");
    fact(t("foundation_cards"), `${s.foundation_cards}/52`, "end-foundations");
    if (s.hints) fact(t("hints_used"), String(s.hints), "end-hints");
    const rank = el("dd", { testid: "end-rank" });
    facts.append(el("dt", { text: t("rank") }), rank);
    if (end) end.rankInto(rank, s);
    else rankInto(rank, s, this.page.game, s.date);
    const text = this.shareText(s, seconds);
    const share = el("textarea", { className: "share-text", readonly: true, rows: "2", testid: "share-text", "aria-label": t("share_label") });
    share.value = text;
    // The whole text in sight, however it wraps (a phone's narrow panel): the box grows to its
    // words (field-sizing in game.css); where a browser lacks that, it is measured once drawn.
    if (!(window.CSS && CSS.supports && CSS.supports("field-sizing", "content"))) {
      requestAnimationFrame(() => {
        share.style.height = "auto";
        share.style.height = `${share.scrollHeight + share.offsetHeight - share.clientHeight}px`;
      });
    }
    // The browser's share sheet where it has one (phones), else the clipboard.
    const sheet = typeof navigator.share === "function";
    const copy = el("button", { type: "button", className: "btn btn-primary", testid: "share", text: t(sheet ? "share_native" : "share") });
    const copied = el("span", { className: "copied", role: "status", testid: "copied" });
    copy.addEventListener("click", async () => {
      if (sheet) {
        try {
          await navigator.share({ text: share.value });
          copied.textContent = t("shared");
          return;
        } catch (error) {
          if (error && error.name === "AbortError") return; // the player closed the sheet
        }
      }
      try {
        await navigator.clipboard.writeText(share.value);
        copied.textContent = t("copied");
      } catch {
        share.focus();
        share.select();
        copied.textContent = t("copy_manually");
      }
    });
    const links = el("p", { className: "end-links" }, el("a", { href: "/", text: t("home_link") }));
    const wasHidden = this.endEl.hidden;
    const heading = el("h2", { id: "end-title", text: title, tabindex: "-1" });
    // The solver's line is shown only for a day that is over (the server serves it no sooner).
    const over = Boolean(s.date && this.page.today && s.date < this.page.today);
    // Today's ranked result on a daily's page: what it does to the week, and the league
    // standing the share text then carries (before its link).
    const week =
      !end && s.ranked && s.date && s.date === this.page.today && !s.disqualified_reason
        ? weekOutlook(this.page.game, (line) => {
            const lines = text.split("\n");
            share.value = [...lines.slice(0, -1), line, ...lines.slice(-1)].join("\n");
          })
        : null;
    // The parts a page has not (no review, no day, no offer) are left out: replaceChildren
    // would write a null as the text "null".
    const parts = [
      heading,
      end ? end.notice(s) : reviewNotice(s),
      facts,
      el("div", { className: "share" }, share, el("div", { className: "share-row" }, copy, copied)),
      analysisLink(s),
      week,
      s.date ? histogram(s, this.page.game, s.date) : null,
      this.page.challenge ? raceOffer(s, this.page.game) : null,
      over ? solutionReplay(this.page.layout, this.page.game, s.date) : null,
      links,
    ];
    this.endEl.replaceChildren(...parts.filter((part) => part !== null && part !== undefined));
    this.endEl.hidden = false;
    if (wasHidden && this.seenPlaying) {
      // The game ended here and now: the result is where the focus goes next.
      heading.focus({ preventScroll: true });
      const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      this.endEl.scrollIntoView({ block: "nearest", behavior: smooth ? "smooth" : "auto" });
    }
  }
}
