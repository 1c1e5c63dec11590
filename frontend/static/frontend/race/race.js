// A race's page: the lobby (who has joined, who is ready, the link to send; a newcomer may
// choose their name as they join), the countdown, then your table (the play page's,
// game/mount.js) beside your opponents' progress (opponents.js), then the results (a result
// held by the fair-play checks listed "under review", ranking nobody: results.js), the share
// text, the rematch (the others told at once, from the race socket) and each finished racer's
// game as a replay to step through, side by side (the solver's line's replay, game/end.js),
// once the server shows them to you (`you.replays`). The race's view comes from
// GET /api/races/<code>/ and then its socket (socket.js), which holds it: whole views, and each
// racer's progress between them.

import { el } from "../common/dom.js";
import { request } from "../common/http.js";
import { clock, t } from "../common/text.js";
import { analysisLink, replayView } from "../game/end.js";
import { masterpiece } from "../game/masterpiece.js";
import { mountGame } from "../game/mount.js";
import { munger } from "../game/munger.js";
import { opponentsPanel } from "./opponents.js";
import { parOf, placeWords, resultOf, shareText } from "./results.js";
import { RaceSocket } from "./socket.js";

const LAYOUTS = { munger, masterpiece };

// The fair-play words of a held result (the play page's): "Under review", and why.
function reviewNotice(testid) {
  return el(
    "div",
    { className: "end-review review-held", testid, "data-review": "held" },
    el("strong", { className: "review-word", text: t("review_held") }),
    " ",
    el("span", { text: t("review_held_note") }),
  );
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
    this.play = null; // the table and its chrome, once mounted
    this.status = el("p", { className: "race-status", role: "status", "aria-live": "polite", testid: "race-status" });
    this.share = el("p", { className: "race-share" });
    this.rematchNotice = el("div", { className: "race-rematch-notice notice", testid: "race-rematch-notice", hidden: true });
    this.controls = el("div", { className: "race-controls actions" });
    this.joinForm = this.buildJoinForm();
    this.panel = el("div", { className: "race-panel" });
    this.results = el("div", { className: "race-results" });
    this.boardRoot = el("section", { className: "play race-play", "data-game": this.gameName });
    // Your table and the racers' panel: side by side on a wide screen once the table is there.
    this.main = el("div", { className: "race-main" }, this.panel, this.boardRoot);
    this.replays = el("section", { className: "race-replays", testid: "race-replays", hidden: true });
    // The way to the analysis of your own game, once the race is over (askAnalysis).
    this.analysis = el("div", { className: "race-analysis" });
    this.analysisAsked = null;
    this.replayed = new Set(); // the racers whose replay is shown
    this.replayKey = null;
    this.socket = new RaceSocket(this.code, (race) => this.show(race));
    root.append(this.status, this.share, this.rematchNotice, this.controls, this.joinForm, this.main, this.results, this.replays);
    setInterval(() => this.tick(), 250);
  }

  async load() {
    const race = await request("GET", `/api/races/${this.code}/`, undefined, { retries: 2 });
    this.skew = Date.parse(race.now) - Date.now();
    this.you = race.you;
    this.take(race);
    this.socket.connect();
  }

  // A view from REST: merged into the one the socket holds (an older one changes nothing, but
  // what it says of you may be news: the page is drawn again all the same).
  take(view) {
    const race = this.socket.take(view) || this.race;
    if (race) this.show(race);
  }

  // Your entry among the racers, or null.
  me(race = this.race) {
    if (!this.you || !this.you.in_race) return null;
    return race.racers.find((r) => r.name === this.you.name) || null;
  }

  // Your row of the results, or null.
  myResult() {
    const me = this.me();
    return me ? resultOf(this.race, me.id) : null;
  }

  // The race as held now (from REST or the socket): the page follows it.
  show(race) {
    this.race = race;
    const me = this.me(race);
    if (me) Object.assign(this.you, { gone: me.gone, ready: me.ready, host: me.host });
    this.render();
    if (this.play) this.play.chrome.refreshEnd(); // your end panel says the race's news
    this.askAnalysis();
    // When the race, your game or anyone's result changes, the replays may have more to show.
    const finished = race.racers.filter((r) => r.status === "won" || r.status === "resigned").length;
    const key = `${race.status}:${me ? me.status : ""}:${finished}`;
    if (key !== this.replayKey) {
      this.replayKey = key;
      this.updateReplays();
    }
  }

  // Your game's analysis opens once the race is over (the server says when: `analysis` in your
  // game's state, asked again then): "Analyse my game" beside the results.
  async askAnalysis() {
    const state = this.play && this.play.game.state;
    if (!this.race || this.race.status !== "over" || !state || this.analysisAsked === state.id) return;
    this.analysisAsked = state.id;
    try {
      const fresh = await request("GET", `/api/attempts/${state.id}/`, undefined, { retries: 1 });
      const link = analysisLink(fresh, "race-analysis");
      this.analysis.replaceChildren(...(link ? [link] : []));
    } catch {
      this.analysisAsked = null; // the next change of the race asks again
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

  // -- joining, with the name of your choice -------------------------------------------------

  // The lobby's offer to a newcomer: the name the others will see (a generated guest name
  // otherwise), set with the players' rename (PATCH /api/players/me/) before joining; "Skip"
  // joins as you are. Built once, so that what is typed survives the lobby's changes.
  buildJoinForm() {
    this.nameInput = el("input", {
      type: "text",
      id: "race-name",
      name: "display_name",
      testid: "race-name",
      autocomplete: "nickname",
      maxlength: "24",
      "aria-describedby": "race-name-message",
    });
    this.nameLabel = el("label", { for: "race-name", text: t("race_name_label") });
    this.joinAs = el("p", { testid: "race-join-as" });
    this.nameMessage = el("p", { className: "message", id: "race-name-message", role: "status", testid: "race-name-message" });
    this.joinButton = el("button", { type: "submit", className: "button primary", testid: "race-join", text: t("race_join") });
    this.skipButton = el("button", { type: "button", className: "button", testid: "race-join-skip", text: t("race_name_skip") });
    this.nameRow = el("div", { className: "name-row" }, this.nameInput);
    const form = el(
      "form",
      { className: "race-join", testid: "race-name-form", novalidate: true, hidden: true },
      this.joinAs,
      this.nameLabel,
      this.nameRow,
      el("div", { className: "actions" }, this.joinButton, this.skipButton),
      this.nameMessage,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = this.nameRow.hidden ? "" : this.nameInput.value.trim().replace(/\s+/g, " ");
      this.join(name);
    });
    this.skipButton.addEventListener("click", () => this.join(""));
    return form;
  }

  async join(name) {
    if (this.joining) return;
    this.nameMessage.textContent = "";
    this.nameInput.removeAttribute("aria-invalid");
    if (name && (name.length < 2 || name.length > 24)) {
      this.refuseName("race_name_bad");
      return;
    }
    this.joining = true;
    this.joinButton.disabled = this.skipButton.disabled = true;
    try {
      if (name) await request("PATCH", "/api/players/me/", { display_name: name });
      await this.act("join/");
    } catch (error) {
      if (error.code === "display_name_taken" || error.status === 409) this.refuseName("race_name_taken");
      else if (error.status === 400) this.refuseName("race_name_bad");
      else if (error.status === 429) this.nameMessage.textContent = t("race_name_throttled");
      else this.nameMessage.textContent = t("race_error", { detail: error.message });
    } finally {
      this.joining = false;
      this.joinButton.disabled = this.skipButton.disabled = false;
    }
  }

  refuseName(key) {
    this.nameMessage.textContent = t(key);
    this.nameInput.setAttribute("aria-invalid", "true");
    this.nameInput.focus();
  }

  // -- the page ------------------------------------------------------------------------------

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
    const over = race.status === "over";
    const left = this.secondsToStart();
    this.root.dataset.status = race.status;
    // The rematch, once someone made it, is news for every racer at once (its link is in the
    // view each racer's socket receives).
    const rematch = over && you.in_race && race.rematch ? race.rematch : null;
    if (lobby) this.status.textContent = t("race_waiting");
    else if (rematch) this.status.textContent = t("race_rematch_ready");
    else if (over) this.status.textContent = t("race_over");
    else if (left > 0) this.status.textContent = t("race_countdown", { n: Math.ceil(left) });
    else this.status.textContent = t("race_racing");
    const link = `${window.location.origin}/challenge/${race.code}/`;
    const copy = this.button(t("race_copy"), "race-copy", () => {
      navigator.clipboard?.writeText(link).then(() => (copy.textContent = t("race_copied")), () => {});
    });
    this.share.replaceChildren(
      ...(lobby ? [t("race_share"), " ", el("a", { href: link, testid: "race-link", text: link }), " ", copy] : []),
    );
    this.rematchNotice.hidden = !rematch;
    this.rematchNotice.replaceChildren(
      ...(rematch
        ? [
            el("p", { text: t("race_rematch_ready") }),
            el("a", { className: "button primary", href: `/challenge/${rematch}/`, testid: "race-rematch-link", text: t("race_rematch_go") }),
          ]
        : []),
    );
    // A newcomer joins from the lobby: with a name of their choice unless they have one.
    const newcomer = !you.in_race && lobby;
    this.joinForm.hidden = !newcomer;
    if (newcomer) {
      const named = Boolean(you.named);
      this.nameLabel.hidden = this.nameRow.hidden = this.skipButton.hidden = named;
      this.joinAs.hidden = !named;
      this.joinAs.textContent = named ? t("race_join_as", { name: you.name }) : "";
    }
    const buttons = [];
    if (you.in_race && you.gone) buttons.push(this.button(t("race_come_back"), "race-back", () => this.act("join/"), true));
    if (you.in_race && !you.gone && lobby) {
      buttons.push(
        you.ready
          ? this.button(t("race_not_ready"), "race-unready", () => this.act("ready/", { ready: false }))
          : this.button(t("race_ready"), "race-ready", () => this.act("ready/", { ready: true }), true),
      );
      if (you.host) buttons.push(this.button(t("race_start"), "race-start", () => this.act("start/")));
    }
    if (you.in_race && !you.gone && !over) buttons.push(this.button(t("race_leave"), "race-leave", () => this.act("leave/")));
    // A rematch is offered once the race is over (not to someone still racing).
    if (you.in_race && over && !race.rematch) buttons.push(this.button(t("race_rematch"), "race-rematch", () => this.act("rematch/")));
    this.controls.replaceChildren(...buttons);
    this.controls.hidden = !buttons.length;
    this.panel.replaceChildren(el("h2", { text: t("race_players") }), opponentsPanel(race, you.in_race ? you.name : null));
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
        { testid: "race-result", className: r.held ? "race-held" : "", "data-held": r.held ? "true" : null },
        // A held result stays in its place, said "under review" where a rank would be.
        el("td", { testid: "race-result-rank", text: r.held ? t("review_held") : String(r.rank) }),
        el("td", { text: r.name }),
        el("td", { text: r.won ? String(r.moves) : "–" }),
        el("td", { text: clock(r.seconds) }),
        el("td", { text: `${r.foundation_cards}/52` }),
      ),
    );
    const mine = this.myResult();
    const text = shareText(race, mine, this.title, `${window.location.origin}/challenge/${race.code}/`);
    const parts = [
      el("h2", { text: t("race_results") }),
      mine && mine.held ? reviewNotice("race-review") : null,
      el("div", { className: "table-wrap" }, el("table", { className: "race-table" }, el("thead", {}, head), el("tbody", {}, ...rows))),
      text ? el("p", { className: "race-share-text", testid: "race-share-text", text }) : null,
      this.analysis,
    ];
    this.results.replaceChildren(...parts.filter(Boolean));
  }

  // What your end panel says in a race: your place in it, the par once it is over, the race's
  // share text, and "under review" when the fair-play checks held your result.
  endWords() {
    const link = () => `${window.location.origin}/challenge/${this.code}/`;
    return {
      key: () => {
        const mine = this.myResult();
        return [this.race.status, parOf(this.race), mine ? `${mine.rank}:${mine.held}` : "", this.race.results.length].join(":");
      },
      par: () => parOf(this.race),
      parWords: t("race_par_later"),
      rankInto: (dd) => {
        dd.textContent = placeWords(this.race, this.myResult());
      },
      shareText: (state, seconds) => {
        const mine = this.myResult();
        if (mine) return shareText(this.race, mine, this.title, link());
        // Your result is not in the results yet (its check is on its way): what you did.
        const row = { won: state.status === "won", moves: state.moves_played, seconds, foundation_cards: state.foundation_cards, rank: null, held: false };
        return shareText(this.race, row, this.title, link());
      },
      notice: () => {
        const mine = this.myResult();
        return mine && mine.held ? reviewNotice("end-review") : null;
      },
    };
  }

  mount() {
    this.mounted = true;
    this.main.classList.add("with-table");
    const layout = LAYOUTS[this.gameName];
    const page = {
      game: this.gameName,
      date: undefined,
      title: this.title,
      rulesUrl: this.root.dataset.rulesUrl,
      layout,
      startAttempt: () => request("POST", `/api/races/${this.code}/attempt/`, undefined, { retries: 2 }),
      end: this.endWords(),
    };
    this.play = mountGame(this.boardRoot, page, { onState: () => this.askAnalysis() });
  }
}

const root = document.getElementById("race");
if (root && LAYOUTS[root.dataset.game]) new RacePage(root).load();
