// The game in play: the one copy of the attempt's state and of the busy flag. It starts (or
// resumes) the attempt, sends each move over the play socket (REST when the socket cannot
// carry it), takes every state the server sends, oldest-first safe, and hands it to the view.
// Nothing is played locally: what is drawn is always the server's answer.

import { ApiError } from "../common/http.js";
import { api } from "./api.js";
import { describeMove } from "./describe.js";
import { movesOf } from "./moves.js";
import { refusalText } from "./refusal.js";
import { PlaySocket } from "./socket.js";
import { capitalise, t } from "./strings.js";

export class Game {
  // view: {draw(state), update(state), say(text), connection(open), start(), moved?(token,
  // info): after each move played here}. `startAttempt`,
  // when the page gives one, starts (or resumes) the attempt instead of the daily's start (a
  // race's attempt).
  constructor({ game, date, startAttempt }, view) {
    this.game = game;
    this.date = date;
    this.startAttempt = startAttempt || (() => api.start(game, date));
    this.view = view;
    this.state = null;
    this.moves = [];
    this.busy = false;
    this.socket = null;
    this.timerBase = 0; // seconds played when the last state arrived, by the server's clock
    this.timerLeft = 0; // how much longer the server's clock runs without a move
    this.timerAt = 0; // when it arrived (local ms)
  }

  playing() {
    return Boolean(this.state) && this.state.status === "playing";
  }

  async start() {
    this.view.say(t("loading"));
    try {
      const state = await this.startAttempt();
      this.show(state);
      this.view.say(state.status === "playing" ? t(state.seq ? "resumed" : "started") : "");
    } catch (error) {
      this.view.say(errorText(error));
      return false;
    }
    this.connect();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.refresh();
    });
    window.addEventListener("focus", () => this.refresh());
    window.addEventListener("online", () => this.refresh());
    return true;
  }

  // Takes a state unless an older one arrives after a newer one (`force` included: a state
  // read before the last move's answer, such as a resync's, never draws the table back); the
  // same state again only refreshes the page's chrome, unless forced.
  show(state, { force = false } = {}) {
    if (!state || !state.view) return;
    const old = this.state;
    if (old && old.id === state.id && state.seq < old.seq) return;
    const same = old && old.seq === state.seq && old.status === state.status && old.finished_at === state.finished_at;
    this.state = same && !force ? { ...old, ...state } : state;
    this.syncClock(state);
    if (!same || force) {
      this.moves = movesOf(state);
      this.view.draw(this.state);
    }
    this.view.update(this.state);
  }

  // Counts the server sent outside a state (a hint's answer carries the attempt's count of
  // hints): the same position, its counters shown anew; the clock is left as it runs.
  recount(counts) {
    if (!this.state) return;
    this.state = { ...this.state, ...counts };
    this.view.update(this.state);
  }

  // The play socket of the attempt shown.
  connect() {
    if (this.socket) this.socket.close();
    this.socket = new PlaySocket(this.state.id, {
      onState: (state) => this.fromSocket(state),
      onStatus: (open) => this.view.connection(open),
    });
    this.socket.connect();
  }

  // A ranked game whose day is over (`day_over`) goes on unranked: the server makes (or finds)
  // the practice attempt with the same moves, and the table plays that one from now on.
  async continueAsPractice() {
    if (!this.state || !this.state.day_over || this.busy) return;
    this.setBusy(true);
    try {
      this.show(await api.continueAsPractice(this.state.id), { force: true });
      this.connect();
      this.view.say(t("continued"));
    } catch (error) {
      this.view.say(errorText(error));
    } finally {
      this.setBusy(false);
    }
  }

  // A state the socket brought unasked: newer than the table while this page has no move on
  // its way, it was played in another tab (or while the socket was down), and is said so.
  fromSocket(state) {
    const before = this.state;
    const elsewhere = before && !this.busy && state.id === before.id && state.seq > before.seq;
    this.show(state);
    if (elsewhere) this.view.say(t("other_tab", { what: elsewhereText(before, state) }));
  }

  // The timer shows the server's `elapsed_seconds` and runs on locally between two states,
  // for as long as the server's clock does (`clock_left_seconds`: a pause counts only so long).
  syncClock(state) {
    this.timerBase = Math.max(0, state.elapsed_seconds || 0);
    this.timerLeft = state.status === "playing" ? Math.max(0, state.clock_left_seconds || 0) : 0;
    this.timerAt = Date.now();
  }

  elapsed() {
    const s = this.state;
    if (!s) return 0;
    return this.timerBase + Math.min(this.timerLeft, (Date.now() - this.timerAt) / 1000);
  }

  async refresh() {
    if (!this.state || this.busy) return;
    try {
      this.show(await api.state(this.state.id));
    } catch {
      /* the next event tries again */
    }
  }

  // -- moves ----------------------------------------------------------------------------------

  setBusy(busy) {
    this.busy = busy;
    this.view.busy(busy);
  }

  // Sends one move; resolves true when the server played it (the board springs back on false).
  async move(token, info = {}) {
    if (!this.state || this.busy || !this.playing()) return false;
    this.setBusy(true);
    const before = this.state;
    try {
      const answer = await this.send(before.seq, token);
      this.show(answer, { force: true });
      this.view.say(this.describe(token, info, before, answer));
      if (this.view.moved) this.view.moved(token, info);
      return true;
    } catch (error) {
      await this.refused(error);
      return false;
    } finally {
      this.setBusy(false);
    }
  }

  // A request over the play socket when it is open, else (or when the socket could not carry
  // it) over REST: the same request, which is safe (PlaySocket.ask).
  async ask(overSocket, overRest) {
    if (this.socket && this.socket.open) {
      try {
        return await overSocket(this.socket);
      } catch (error) {
        // The socket's own message budget is not the game's: REST carries the request instead.
        if (error && error.type === "error" && error.code !== "rate_limited") throw new ApiError(0, error);
      }
    }
    return overRest();
  }

  send(seq, token) {
    return this.ask(
      (socket) => socket.move(seq, token),
      () => api.move(this.state.id, seq, token),
    );
  }

  async refused(error) {
    const code = error && error.code;
    if (code === "wrong_seq" || code === "seq_taken" || code === "attempt_finished") {
      this.view.say(t("resynced"));
      await this.resync();
      return;
    }
    this.view.say(errorText(error));
    if (code === "network") this.resyncLater();
  }

  async resync() {
    try {
      this.show(await api.state(this.state.id), { force: true });
    } catch (error) {
      this.view.say(errorText(error));
      this.resyncLater();
    }
  }

  resyncLater(delay = 3000) {
    clearTimeout(this.resyncTimer);
    this.resyncTimer = setTimeout(async () => {
      try {
        this.show(await api.state(this.state.id), { force: true });
        this.view.say(t("reconnected"));
      } catch {
        this.resyncLater(Math.min(60000, delay * 2));
      }
    }, delay);
  }

  describe(token, info, before, answer) {
    const said = describeMove(token, info.card || null, before.view, answer.view, answer.revealed);
    const text = info.auto ? t("announce_auto", { what: said }) : said;
    return answer.status === "won" ? `${text} ${capitalise(t("announce_won"))}` : text;
  }

  undo() {
    if (this.state && this.state.can_undo) this.move("U", {});
  }

  async finish() {
    if (this.busy) return;
    this.setBusy(true);
    try {
      const { id, seq } = this.state;
      const state = await this.ask(
        (socket) => socket.finish(seq),
        () => api.finish(id, seq),
      );
      this.show(state, { force: true });
      this.view.say(t("finished"));
    } catch (error) {
      await this.refused(error);
    } finally {
      this.setBusy(false);
    }
  }

  async resign() {
    try {
      const { id } = this.state;
      const state = await this.ask(
        (socket) => socket.resign(),
        () => api.resign(id),
      );
      this.show(state, { force: true });
      this.view.say(t("announce_resigned"));
    } catch (error) {
      await this.refused(error);
    }
  }
}

// What another tab did between two states: one move in words, else how many moves.
function elsewhereText(before, after) {
  const count = after.moves_played - before.moves_played;
  if (count !== 1) return t("n_moves", { n: count });
  if (after.undos > before.undos) return t("announce_undo");
  const last = after.last_move;
  return last ? describeMove(last.move, last.card, before.view, after.view, null) : t("n_moves", { n: 1 });
}

// What to tell a person of a failed request.
// Why a daily still played for the boards is not started here, nor practised (409: games/errors.py).
const START_REFUSALS = ["daily_played_here", "daily_address_full", "daily_running"];

// "2026-12-08 00:05 UTC" from the refusal's `ranked_until` ("2026-12-08T00:05:00Z").
function untilText(iso) {
  return typeof iso === "string" && iso.length >= 16 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "";
}

export function errorText(error) {
  const code = error && error.code;
  if (code === "illegal_move") return refusalText(error.body);
  if (START_REFUSALS.includes(code)) return t(`start_${code}`, { until: untilText(error.body.ranked_until) });
  if (code === "throttled" || code === "rate_limited") return t("throttled");
  if (code === "network") return t("network");
  if (error && error.body && error.body.detail) return error.body.detail;
  if (error && error.detail) return error.detail;
  return t("error");
}
