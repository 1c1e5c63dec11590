// A race's page: the lobby (who has joined, who is ready, the link to send), the countdown,
// then your table (the play page's, game/mount.js)
// beside your opponents' progress (opponents.js), then the results, the share text, the
// rematch and each finished racer's game as a replay to step through, side by side (the
// solver's line's replay, game/end.js), once the server shows them to you (`you.replays`).
// The race's view comes from GET /api/races/<code>/ and then its socket (socket.js), which
// holds it: whole views, and each racer's progress between them.

import { el } from "../common/dom.js";
import { request } from "../common/http.js";
import { clock, t } from "../common/text.js";
import { replayView } from "../game/end.js";
import { masterpiece } from "../game/masterpiece.js";
import { mountGame } from "../game/mount.js";
import { munger } from "../game/munger.js";
import { opponentsPanel } from "./opponents.js";
import { RaceSocket } from "./socket.js";

const LAYOUTS = { munger, masterpiece };

// The share text of a race's results, from one player's row ("" without a row).
export function shareText(race, name, title) {
  const row = race.results.find((r) => r.name === name);
  if (!row) return "";
  const result = row.won
    ? t("race_share_won", { moves: row.moves, time: clock(row.seconds) })
    : t("race_share_lost", { cards: row.foundation_cards });
  return `${t("race_share_text", { game: title, result: `#${row.rank}/${race.racers.length}, ${result}` })} ${window.location.href}`;
}

class RacePage {
  constructor(root) {
    this.root = root;
    this.code = root.dataset.code;
    this.gameName = root.dataset.game;
    this.title = root.dataset.gameTitle;
    this.race = null;
    this.you = null;
    this.skew = 0; // the server's clock minus ours, in ms
    this.mounted = false;
    this.status = el("p", { className: "race-status", role: "status", "aria-live": "polite", testid: "race-status" });
    this.controls = el("p", { className: "race-controls" });
    this.panel = el("div", { className: "race-panel" });
    this.results = el("div", { className: "race-results" });
    this.share = el("p", { className: "race-share" });
    this.boardRoot = el("section", { className: "play race-play", "data-game": this.gameName });
    this.replays = el("section", { className: "race-replays", testid: "race-replays", hidden: true });
    this.replayed = new Set(); // the racers whose replay is shown
    this.replayKey = null;
    this.socket = new RaceSocket(this.code, (race) => this.show(race));
    root.append(this.status, this.share, this.controls, this.panel, this.boardRoot, this.results, this.replays);
    setInterval(() => this.tick(), 250);
  }

  async load() {
    const race = await request("GET", `/api/races/${this.code}/`, undefined, { retries: 2 });
    this.skew = Date.parse(race.now) - Date.now();
    this.you = race.you;
    this.take(race);
    this.socket.connect();
  }

  // A view from REST: merged into the one the socket holds (an older one changes nothing).
  take(view) {
    const race = this.socket.take(view);
    if (race) this.show(race);
  }

  // The race as held now (from REST or the socket): the page follows it.
  show(race) {
    this.race = race;
    const me = this.you && race.racers.find((r) => r.name === this.you.name);
    if (me && this.you.in_race) Object.assign(this.you, { gone: me.gone, ready: me.ready, host: me.host });
    this.render();
    // When the race, your game or anyone's result changes, the replays may have more to show.
    const finished = race.racers.filter((r) => r.status === "won" || r.status === "resigned").length;
    const key = `${race.status}:${me ? me.status : ""}:${finished}`;
    if (key !== this.replayKey) {
      this.replayKey = key;
      this.updateReplays();
    }
  }

  // Whether the replays are shown to you is the server's answer (`you.replays`), asked again
  // until it is yes; then each finished racer's game, added as they finish.
  async updateReplays() {
    try {
      if (!this.you.replays) this.you = (await request("GET", `/api/races/${this.code}/`)).you;
      if (!this.you.replays) return;
      const replays = await request("GET", `/api/races/${this.code}/replays/`, undefined, { retries: 1 });
      this.showReplays(replays);
    } catch {
      /* the next change of the race asks again */
    }
  }

  showReplays(replays) {
    const layout = LAYOUTS[this.gameName];
    if (!this.replayed.size) {
      this.grid = el("div", { className: "race-replay-grid" });
      this.replays.replaceChildren(el("h2", { text: t("race_replays") }), this.grid);
    }
    for (const replay of replays) {
      if (this.replayed.has(replay.name)) continue;
      this.replayed.add(replay.name);
      const labels = {
        slider: t("race_replay_slider", { name: replay.name }),
        board: t("race_replay_board", { name: replay.name }),
      };
      this.grid.append(
        el(
          "section",
          { className: "race-replay", testid: "race-replay", "data-name": replay.name },
          el("h3", { text: `${replay.name} · ${t(`race_status_${replay.status}`)}` }),
          el("p", { className: "solution-note", text: t("race_replay_intro", { n: replay.steps.length }) }),
          ...replayView(layout, this.gameName, replay, labels, "replay"),
        ),
      );
    }
    this.replays.hidden = !this.replayed.size;
  }

  async act(path, body) {
    try {
      const race = await request("POST", `/api/races/${this.code}/${path}`, body);
      if (race.you) this.you = race.you;
      if (race.code !== this.code) {
        window.location.assign(`/challenge/${race.code}/`);
        return;
      }
      this.take(race);
    } catch (error) {
      const known = { race_full: "race_full", race_started: "race_started", race_expired: "race_expired" };
      this.status.textContent = known[error.code] ? t(known[error.code]) : t("race_error", { detail: error.message });
    }
  }

  secondsToStart() {
    if (!this.race.starts_at) return null;
    return (Date.parse(this.race.starts_at) - (Date.now() + this.skew)) / 1000;
  }

  tick() {
    if (!this.race || this.race.status !== "racing") return;
    const left = this.secondsToStart();
    if (left > 0) this.status.textContent = t("race_countdown", { n: Math.ceil(left) });
    else if (!this.mounted) this.render();
  }

  button(text, testid, onClick, primary = false) {
    const b = el("button", { type: "button", className: primary ? "button primary" : "button", testid, text });
    b.addEventListener("click", onClick);
    return b;
  }

  render() {
    const { race, you } = this;
    const lobby = race.status === "lobby";
    const left = this.secondsToStart();
    if (lobby) this.status.textContent = t("race_waiting");
    else if (race.status === "over") this.status.textContent = t("race_over");
    else if (left > 0) this.status.textContent = t("race_countdown", { n: Math.ceil(left) });
    else this.status.textContent = t("race_racing");
    const link = `${window.location.origin}/challenge/${race.code}/`;
    const copy = this.button(t("race_copy"), "race-copy", () => {
      navigator.clipboard?.writeText(link).then(() => (copy.textContent = t("race_copied")), () => {});
    });
    this.share.replaceChildren(
      ...(lobby ? [t("race_share"), " ", el("a", { href: link, testid: "race-link", text: link }), " ", copy] : []),
    );
    const buttons = [];
    if (!you.in_race && lobby) buttons.push(this.button(t("race_join"), "race-join", () => this.act("join/"), true));
    if (you.in_race && you.gone) buttons.push(this.button(t("race_come_back"), "race-back", () => this.act("join/"), true));
    if (you.in_race && !you.gone && lobby) {
      buttons.push(
        you.ready
          ? this.button(t("race_not_ready"), "race-unready", () => this.act("ready/", { ready: false }))
          : this.button(t("race_ready"), "race-ready", () => this.act("ready/", { ready: true }), true),
      );
      if (you.host) buttons.push(this.button(t("race_start"), "race-start", () => this.act("start/")));
    }
    if (you.in_race && !you.gone && race.status !== "over") buttons.push(this.button(t("race_leave"), "race-leave", () => this.act("leave/")));
    if (you.in_race && !lobby) {
      buttons.push(
        race.rematch
          ? el("a", { className: "button", href: `/challenge/${race.rematch}/`, testid: "race-rematch-link", text: t("race_rematch") })
          : this.button(t("race_rematch"), "race-rematch", () => this.act("rematch/")),
      );
    }
    this.controls.replaceChildren(...buttons);
    this.panel.replaceChildren(el("h2", { text: t("race_players") }), opponentsPanel(race, you.name));
    this.renderResults();
    if (!lobby && you.in_race && !you.gone && left !== null && left <= 0 && !this.mounted) this.mount();
  }

  renderResults() {
    const { race } = this;
    if (!race.results.length) {
      this.results.replaceChildren();
      return;
    }
    const head = el("tr", {}, ...["race_rank", "race_name", "race_moves", "race_time", "race_cards"].map((k) => el("th", { text: t(k) })));
    const rows = race.results.map((r) =>
      el(
        "tr",
        { testid: "race-result" },
        el("td", { text: String(r.rank) }),
        el("td", { text: r.name }),
        el("td", { text: r.won ? String(r.moves) : "–" }),
        el("td", { text: clock(r.seconds) }),
        el("td", { text: `${r.foundation_cards}/52` }),
      ),
    );
    const text = shareText(race, this.you.name, this.title);
    this.results.replaceChildren(
      el("h2", { text: t("race_results") }),
      el("table", { className: "race-table" }, el("thead", {}, head), el("tbody", {}, ...rows)),
      text ? el("p", { className: "race-share-text", testid: "race-share-text", text }) : null,
    );
  }

  mount() {
    this.mounted = true;
    const layout = LAYOUTS[this.gameName];
    const page = {
      game: this.gameName,
      date: undefined,
      title: this.title,
      rulesUrl: this.root.dataset.rulesUrl,
      layout,
      startAttempt: () => request("POST", `/api/races/${this.code}/attempt/`, undefined, { retries: 2 }),
    };
    mountGame(this.boardRoot, page);
  }
}

const root = document.getElementById("race");
if (root && LAYOUTS[root.dataset.game]) new RacePage(root).load();
