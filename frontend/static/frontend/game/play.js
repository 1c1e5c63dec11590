// The play page: starts (or resumes) the attempt, draws each state the server sends and sends
// the moves a person makes. Nothing is played locally: the board is always the server's answer.

import { api, ApiError, onRetry } from "./api.js";
import { Board, statusOf } from "./board.js";
import { masterpiece } from "./masterpiece.js";
import { munger } from "./munger.js";
import { describeMove } from "./describe.js";
import { el } from "./dom.js";
import { histogram, rankInto, reviewNotice, solutionReplay } from "./end.js";
import { PlaySocket } from "./socket.js";
import { capitalise, clock, t } from "./strings.js";

const LAYOUTS = { munger, masterpiece };
const FOUR_COLOUR_KEY = "patience.fourColourDeck";

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

class PlayPage {
  constructor(root) {
    this.root = root;
    this.game = root.dataset.game;
    this.date = root.dataset.date;
    this.title = root.dataset.gameTitle || capitalise(this.game);
    this.practice = root.dataset.practice === "true";
    this.today = root.dataset.today;
    this.layout = LAYOUTS[this.game];
    this.state = null;
    this.sending = false;
    this.socket = null;
    this.timerBase = 0; // seconds played when the last state arrived, by the server's clock
    this.timerAt = 0; // when it arrived (local ms)
    this.build();
    onRetry((kind) => this.say(t(kind === "throttled" ? "throttled" : "network")));
    this.board = new Board(this.boardEl, this.layout, {
      onMove: (token, info) => this.play(token, info),
      onHint: (text) => this.say(text),
    });
  }

  // -- the page's parts ---------------------------------------------------------------------

  build() {
    const r = this.root;
    this.movesEl = el("span", { className: "stat-value", testid: "moves", text: "0" });
    this.timerEl = el("span", { className: "stat-value", testid: "timer", text: "0:00" });
    this.parEl = el("span", { className: "stat-value", testid: "par", text: "" });
    this.parBox = el("span", { className: "stat", hidden: true }, el("span", { text: t("par") }), " ", this.parEl);
    this.rankedEl = el("span", { className: "badge-ranked", testid: "ranked" });
    const stats = el(
      "p",
      { className: "play-stats" },
      el("span", { className: "stat" }, el("span", { text: t("moves") }), " ", this.movesEl),
      el("span", { className: "stat" }, el("span", { text: t("time") }), " ", this.timerEl),
      this.parBox,
      this.rankedEl,
    );

    this.undoBtn = el("button", { type: "button", className: "btn", testid: "undo", text: t("undo") });
    this.undoBtn.title = t("undo_hint");
    this.finishBtn = el("button", { type: "button", className: "btn btn-primary", testid: "finish", text: t("finish"), hidden: true });
    this.resignBtn = el("button", { type: "button", className: "btn", testid: "resign", text: t("resign") });
    this.fourColour = el("input", { type: "checkbox", id: "four-colour", testid: "four-colour" });
    const toggle = el("label", { className: "toggle", for: "four-colour" }, this.fourColour, " ", t("four_colour"));
    const controls = el("div", { className: "play-controls" }, this.undoBtn, this.finishBtn, this.resignBtn, toggle);

    this.statusEl = el("p", { className: "play-status", role: "status", "aria-live": "polite", "aria-atomic": "true", testid: "status" });
    this.blockedEl = el(
      "div",
      { className: "play-blocked", hidden: true, testid: "blocked" },
      el("span", { text: t("blocked") }),
    );
    const blockedUndo = el("button", { type: "button", className: "btn", text: t("undo") });
    const blockedResign = el("button", { type: "button", className: "btn", text: t("resign") });
    this.blockedEl.append(" ", blockedUndo, " ", blockedResign);

    this.boardEl = el("div", {
      className: `board board-${this.game}`,
      id: "board",
      testid: "board",
      role: "region",
      "aria-label": t("board_label", { game: this.title }),
      "aria-describedby": "board-help",
    });
    const help = el("p", { className: "play-help", id: "board-help", text: t("keyboard_help") });

    this.endEl = el("section", { className: "play-end", hidden: true, testid: "end", "aria-labelledby": "end-title" });

    this.dialog = el("dialog", { className: "confirm", "aria-labelledby": "resign-title" });
    const confirmYes = el("button", { type: "button", className: "btn btn-danger", testid: "resign-confirm", text: t("resign_confirm") });
    const confirmNo = el("button", { type: "button", className: "btn", testid: "resign-cancel", text: t("resign_cancel") });
    this.dialog.append(
      el("h2", { id: "resign-title", text: t("resign_title") }),
      el("p", { text: t("resign_question") }),
      el("div", { className: "dialog-buttons" }, confirmNo, confirmYes),
    );

    const connection = el("p", { className: "connection", testid: "connection", hidden: true });
    this.connectionEl = connection;

    r.replaceChildren(stats, controls, this.statusEl, this.blockedEl, this.boardEl, this.endEl, help, connection, this.dialog);

    this.undoBtn.addEventListener("click", () => this.undo());
    blockedUndo.addEventListener("click", () => this.undo());
    this.finishBtn.addEventListener("click", () => this.finish());
    this.resignBtn.addEventListener("click", () => this.askResign());
    blockedResign.addEventListener("click", () => this.askResign());
    confirmYes.addEventListener("click", () => {
      this.dialog.close();
      this.resign();
    });
    confirmNo.addEventListener("click", () => this.dialog.close());

    this.fourColour.checked = storageGet(FOUR_COLOUR_KEY) === "1";
    this.applyDeck();
    this.fourColour.addEventListener("change", () => {
      storageSet(FOUR_COLOUR_KEY, this.fourColour.checked ? "1" : "0");
      this.applyDeck();
    });
  }

  applyDeck() {
    this.root.classList.toggle("deck-four", this.fourColour.checked);
  }

  say(text) {
    // Set anew even when the text repeats, so that screen readers announce it again.
    this.statusEl.textContent = "";
    window.requestAnimationFrame(() => {
      this.statusEl.textContent = text;
    });
  }

  // -- state ----------------------------------------------------------------------------------

  async start() {
    this.say(t("loading"));
    try {
      const state = await api.start(this.game, this.date);
      this.show(state);
      this.say(statusOf(state) === "playing" ? t(state.seq ? "resumed" : "started") : "");
    } catch (error) {
      this.say(this.errorText(error));
      return;
    }
    this.socket = new PlaySocket(this.state.id, {
      onState: (state) => this.show(state),
      onStatus: (open) => this.showConnection(open),
    });
    this.socket.connect();
    setInterval(() => this.tick(), 1000);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.refresh();
    });
    window.addEventListener("focus", () => this.refresh());
    window.addEventListener("online", () => this.refresh());
  }

  showConnection(open) {
    this.connectionEl.hidden = false;
    this.connectionEl.textContent = open ? t("live") : t("live_lost");
  }

  // Draws a state unless an older one arrives after a newer one.
  show(state, { force = false } = {}) {
    if (!state || !state.view) return;
    const old = this.state;
    if (!force && old && old.id === state.id && state.seq < old.seq) return;
    if (old && old.seq === state.seq && statusOf(old) === statusOf(state) && !force && old.finished_at === state.finished_at) {
      this.state = { ...old, ...state };
      this.syncClock(state);
      this.updateChrome();
      return;
    }
    this.state = state;
    this.syncClock(state);
    this.board.render(state);
    this.updateChrome();
  }

  // The timer shows the server's `elapsed_seconds` (counted from the first move) and runs on
  // locally between two states. A server that counts from the start instead (no `blocked`
  // field) is corrected by the time between the start and the first move.
  syncClock(state) {
    if (typeof state.elapsed_seconds !== "number") return;
    let base = state.elapsed_seconds;
    if (!("blocked" in state) && state.first_move_at && state.started_at) {
      base -= (Date.parse(state.first_move_at) - Date.parse(state.started_at)) / 1000;
    }
    this.timerBase = state.first_move_at ? Math.max(0, base) : 0;
    this.timerAt = Date.now();
  }

  async refresh() {
    if (!this.state || this.sending) return;
    try {
      this.show(await api.state(this.state.id));
    } catch {
      /* the next event tries again */
    }
  }

  elapsed() {
    const s = this.state;
    if (!s || !s.first_move_at) return 0;
    if (statusOf(s) !== "playing") return this.timerBase;
    return this.timerBase + (Date.now() - this.timerAt) / 1000;
  }

  tick() {
    this.timerEl.textContent = clock(this.elapsed());
  }

  updateChrome() {
    const s = this.state;
    const status = statusOf(s);
    const playing = status === "playing";
    this.movesEl.textContent = String(s.moves_played);
    this.tick();
    this.rankedEl.textContent = s.ranked ? t("ranked") : t("practice");
    this.undoBtn.disabled = !playing || !s.can_undo;
    this.resignBtn.disabled = !playing;
    this.finishBtn.hidden = !(playing && s.finishable);
    const blocked = playing && (s.blocked === true || (s.blocked === undefined && !(s.legal || []).length));
    this.blockedEl.hidden = !blocked;
    this.root.dataset.status = status;
    if (!playing && s.par !== null && s.par !== undefined) {
      this.parBox.hidden = false;
      this.parEl.textContent = String(s.par);
    } else {
      this.parBox.hidden = true;
    }
    if (playing) {
      this.seenPlaying = true;
      this.endEl.hidden = true;
    } else {
      this.showEnd();
    }
  }

  // -- moves ----------------------------------------------------------------------------------

  // Sends one move; resolves true when the server played it. The board springs back on false.
  async play(token, info = {}) {
    if (!this.state || this.sending || statusOf(this.state) !== "playing") return false;
    this.sending = true;
    this.board.busy = true;
    this.boardEl.setAttribute("aria-busy", "true");
    const before = this.state;
    const seq = before.seq;
    try {
      const answer = await this.send(seq, token);
      this.show(answer, { force: true });
      this.say(this.describe(token, info, before, answer));
      return true;
    } catch (error) {
      await this.refused(error);
      return false;
    } finally {
      this.sending = false;
      this.board.busy = false;
      this.boardEl.removeAttribute("aria-busy");
    }
  }

  // Over the socket when it is open, else (or when it fails to carry the move) over REST.
  async send(seq, token) {
    if (this.socket && this.socket.open) {
      try {
        return await this.socket.move(seq, token);
      } catch (error) {
        // The socket's own message budget is not the game's: REST carries the move instead.
        if (error && error.type === "error" && error.code !== "rate_limited") throw new ApiError(0, error);
        // The socket could not carry it: REST with the same seq is safe (a replay answers).
      }
    }
    return api.move(this.state.id, seq, token);
  }

  async refused(error) {
    const code = error && error.code;
    if (code === "wrong_seq" || code === "seq_taken" || code === "attempt_finished") {
      this.say(t("resynced"));
      await this.resync();
      return;
    }
    this.say(this.errorText(error));
    if (code === "network") this.resyncLater();
  }

  async resync() {
    try {
      this.show(await api.state(this.state.id), { force: true });
    } catch (error) {
      this.say(this.errorText(error));
      this.resyncLater();
    }
  }

  resyncLater(delay = 3000) {
    clearTimeout(this.resyncTimer);
    this.resyncTimer = setTimeout(async () => {
      try {
        this.show(await api.state(this.state.id), { force: true });
        this.say(t("reconnected"));
      } catch {
        this.resyncLater(Math.min(60000, delay * 2));
      }
    }, delay);
  }

  errorText(error) {
    const code = error && error.code;
    if (code === "illegal_move") return (error.body && error.body.detail) || error.message;
    if (code === "throttled" || code === "rate_limited") return t("throttled");
    if (code === "network") return t("network");
    if (error && error.body && error.body.detail) return error.body.detail;
    if (error && error.detail) return error.detail;
    return t("error");
  }

  describe(token, info, before, answer) {
    const text = describeMove(token, info.card || null, before.view, answer.view, answer.revealed);
    return statusOf(answer) === "won" ? `${text} ${capitalise(t("announce_won"))}` : text;
  }

  undo() {
    if (this.state && this.state.can_undo) {
      this.board.clearSelection();
      this.play("U", {});
    }
  }

  async finish() {
    if (this.sending) return;
    this.sending = true;
    this.board.busy = true;
    try {
      const state = await api.finish(this.state.id, this.state.seq);
      this.show(state, { force: true });
      this.say(t("finished"));
    } catch (error) {
      await this.refused(error);
    } finally {
      this.sending = false;
      this.board.busy = false;
    }
  }

  askResign() {
    if (typeof this.dialog.showModal === "function") this.dialog.showModal();
    else if (window.confirm(t("resign_question"))) this.resign();
  }

  async resign() {
    try {
      const state = await api.resign(this.state.id);
      this.show(state, { force: true });
      this.say(t("announce_resigned"));
    } catch (error) {
      await this.refused(error);
    }
  }

  // -- the end ---------------------------------------------------------------------------------

  shareText() {
    const s = this.state;
    const status = statusOf(s);
    const key = status === "won" ? "share_won" : status === "resigned" ? "share_resigned" : "share_stuck";
    const line = t(key, { game: this.title, date: s.date || this.date, n: s.moves_played, time: clock(this.elapsed()) });
    const url = `${window.location.origin}${window.location.pathname}`;
    return `${line}\n${url}`;
  }

  showEnd() {
    const s = this.state;
    const status = statusOf(s);
    // Drawn once per result: a refresh of the same state keeps the panel (and "Copied") as is.
    const key = `${s.id}:${s.seq}:${status}:${s.par}:${s.review}:${s.disqualified_reason}`;
    if (!this.endEl.hidden && this.endKey === key) return;
    this.endKey = key;
    const title = status === "won" ? t("end_won") : status === "resigned" ? t("end_resigned") : t("end_stuck");
    // The status line says how it ended, whatever it said before (a move's words, a reconnection).
    this.say(title);
    const facts = el("dl", { className: "end-facts" });
    const fact = (term, value, testid) => facts.append(el("dt", { text: term }), el("dd", { text: value, testid }));
    fact(t("moves"), String(s.moves_played), "end-moves");
    fact(t("time"), clock(this.elapsed()), "end-time");
    fact(t("par"), s.par === null || s.par === undefined ? t("par_unknown") : String(s.par), "end-par");
    fact(t("foundation_cards"), `${s.foundation_cards}/52`, "end-foundations");
    const rank = el("dd", { testid: "end-rank" });
    facts.append(el("dt", { text: t("rank") }), rank);
    rankInto(rank, s, this.game, s.date);
    const text = this.shareText();
    const share = el("textarea", { className: "share-text", readonly: true, rows: "2", testid: "share-text", "aria-label": t("share_label") });
    share.value = text;
    const copy = el("button", { type: "button", className: "btn btn-primary", testid: "share", text: t("share") });
    const copied = el("span", { className: "copied", role: "status", testid: "copied" });
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(text);
        copied.textContent = t("copied");
      } catch {
        share.focus();
        share.select();
        copied.textContent = t("copy_manually");
      }
    });
    const links = el(
      "p",
      { className: "end-links" },
      el("a", { href: "/", text: t("home_link") }),
    );
    const wasHidden = this.endEl.hidden;
    const heading = el("h2", { id: "end-title", text: title, tabindex: "-1" });
    // The solver's line is shown only for a day that is over (the server serves it no sooner).
    const over = Boolean(s.date && this.today && s.date < this.today);
    this.endEl.replaceChildren(
      ...[
        heading,
        reviewNotice(s),
        facts,
        el("div", { className: "share" }, share, el("div", { className: "share-row" }, copy, copied)),
        s.date ? histogram(s, this.game, s.date) : null,
        over ? solutionReplay(this.layout, this.game, s.date) : null,
        links,
      ].filter(Boolean),
    );
    this.endEl.hidden = false;
    if (wasHidden && this.seenPlaying) {
      // The game ended here and now: the result is where the focus goes next.
      heading.focus({ preventScroll: true });
      const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      this.endEl.scrollIntoView({ block: "nearest", behavior: smooth ? "smooth" : "auto" });
    }
  }
}

const root = document.getElementById("play");
if (root && LAYOUTS[root.dataset.game]) {
  const page = new PlayPage(root);
  page.start();
}
