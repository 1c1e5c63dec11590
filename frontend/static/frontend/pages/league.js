// A league's page (GET /api/leagues/<id>/, for its members): its members, today's results of
// both games, the standings of this week, this month and all time, the invite with a copy
// button; for the owner rename, removals and a new invite; for everyone leaving. Live: the page
// watches today's dailies (common/watch.js) and reads itself again, a second or two later, when
// a move, a win or a resignation of one of its members comes by; and every 30 s while in sight
// (document.visibilityState), for what no daily says (a member who joined or left). What a
// member does is said in a live region, and the focus goes where the change is.

import { el, jsonBlock, onSubmit } from "../common/dom.js";
import { request } from "../common/http.js";
import { t } from "../common/text.js";
import { watchDaily } from "../common/watch.js";
import { standingsTable, typedName } from "./leagueparts.js";
import { dayWords, inviteLink, namesAMember, notPlayed, orderResults, refusalWords, resultWords } from "./leaguewords.js";

const config = jsonBlock("leagues-config");
const lang = document.documentElement.lang || "en";
const api = `/api/leagues/${config.league}/`;
const $ = (id) => document.getElementById(id);

class LeaguePage {
  constructor() {
    this.page = null;
    this.drawn = {}; // what each part was drawn from, so that a refresh redraws what changed
    this.status = $("league-status");
    this.error = $("league-error");
    this.body = $("league-body");
    this.invite = $("league-invite");
    this.copyMessage = $("league-copy-message");
    $("league-copy").addEventListener("click", () => this.copy());
    $("league-new-invite").addEventListener("click", () => this.newInvite());
    onSubmit($("league-rename"), () => this.rename());
    $("league-leave").addEventListener("click", () => this.leave());
  }

  async load() {
    let page;
    try {
      page = await request("GET", api, undefined, { retries: 1 });
    } catch (error) {
      // Gone (removed, or the league ended) or never yours: said once, the rest hidden.
      if (error.status === 404 || !this.page) {
        this.body.hidden = true;
        this.error.textContent = refusalWords(error, config);
        this.error.hidden = false;
      }
      return;
    }
    this.error.hidden = true;
    this.draw(page);
  }

  draw(page) {
    const first = !this.page;
    this.page = page;
    document.title = `${page.name} · Patience Daily`;
    $("league-title").textContent = page.name;
    $("league-owner").textContent = `${t("lg_owner", { name: page.owner })} · ${t("lg_members", { n: page.members.length })}`;
    this.part("today", page.today, () => this.drawToday(page));
    this.part("standings", page.standings, () => this.drawStandings(page));
    this.part("members", [page.members, page.you_own], () => this.drawMembers(page));
    this.invite.value = inviteLink(window.location.origin, page.invite_code);
    $("league-owner-invite").hidden = !page.you_own;
    $("league-owner-tools").hidden = !page.you_own;
    const note = $("league-leave-note");
    note.hidden = !(page.you_own && page.members.length > 1);
    note.textContent = t("lg_owner_leave_note");
    if (first) $("league-rename-name").value = page.name;
    this.body.hidden = false;
  }

  // Redraws a part only when its data changed: a refresh keeps the reader's place and focus.
  part(name, data, drawing) {
    const key = JSON.stringify(data);
    if (this.drawn[name] === key) return;
    this.drawn[name] = key;
    drawing();
  }

  drawToday(page) {
    const root = $("league-today");
    if (!page.today.length) {
      root.replaceChildren(el("p", { className: "muted", text: t("lg_no_dailies") }));
      return;
    }
    root.replaceChildren(
      ...page.today.map((day) => {
        const game = config.games[day.game] || day.game;
        const box = el("section", { className: "league-day", "aria-labelledby": `today-${day.game}`, testid: `today-${day.game}` }, el("h3", { id: `today-${day.game}`, text: game }));
        if (day.results.length) {
          const rows = orderResults(day.results).map((result) =>
            el("tr", { "data-player": result.player, "data-status": result.status }, el("th", { scope: "row", text: result.player }), el("td", { text: resultWords(result) })),
          );
          const head = el("tr", {}, el("th", { scope: "col", text: t("lg_player") }), el("th", { scope: "col", text: t("lg_result") }));
          box.append(
            el("div", { className: "table-wrap" }, el("table", { className: "today-table" }, el("caption", { className: "visually-hidden", text: t("lg_today_caption", { game }) }), el("thead", {}, head), el("tbody", {}, ...rows))),
          );
        } else {
          box.append(el("p", { className: "muted", text: t("lg_nobody_yet") }));
        }
        const waiting = notPlayed(page.members, day.results);
        if (waiting.length && day.results.length) box.append(el("p", { className: "help", text: t("lg_not_yet", { names: waiting.join(", ") }) }));
        return box;
      }),
    );
  }

  drawStandings(page) {
    const s = page.standings;
    const span = (season) => ({ first: dayWords(season.first, lang), last: dayWords(season.last, lang) });
    $("league-standings").replaceChildren(
      standingsTable(s.week.rows, { caption: t("lg_week_caption", span(s.week)), you: config.you, testid: "standings-week" }),
      standingsTable(s.month.rows, { caption: t("lg_month_caption", span(s.month)), you: config.you, testid: "standings-month" }),
      standingsTable(s.all_time.rows, { caption: t("lg_all_time_caption"), you: config.you, testid: "standings-all-time" }),
    );
  }

  drawMembers(page) {
    const list = $("league-members");
    const focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.player : null;
    list.replaceChildren(
      ...page.members.map((member) => {
        const item = el("li", { "data-player": member.player }, member.player);
        if (member.player_id === page.owner_id) item.append(" ", el("span", { className: "tag", text: t("lg_owner_tag") }));
        if (member.player_id === config.you) item.append(" ", el("span", { className: "you-badge", text: t("lg_you") }));
        if (page.you_own && member.player_id !== page.owner_id) {
          const remove = el("button", { type: "button", className: "button small", "data-player": member.player, testid: "league-remove", text: t("lg_remove", { name: member.player }) });
          remove.addEventListener("click", () => this.remove(member));
          item.append(" ", remove);
        }
        return item;
      }),
    );
    if (focused) {
      const again = list.querySelector(`button[data-player="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }

  // -- what a member does ----------------------------------------------------------------------

  async copy() {
    const link = this.invite.value;
    try {
      await navigator.clipboard.writeText(link);
      this.copyMessage.textContent = t("lg_copied");
    } catch {
      // No clipboard here (an old browser, a page not in a secure context): the link is
      // selected for the reader to copy.
      this.invite.focus();
      this.invite.select();
      this.copyMessage.textContent = t("lg_copy_by_hand");
    }
  }

  async newInvite() {
    if (!window.confirm(t("lg_new_invite_confirm"))) return;
    try {
      const league = await request("POST", `${api}invite/`);
      this.invite.value = inviteLink(window.location.origin, league.invite_code);
      this.copyMessage.textContent = t("lg_new_invite_done");
      this.invite.focus();
      this.invite.select();
    } catch (error) {
      this.copyMessage.textContent = refusalWords(error, config);
    }
  }

  async rename() {
    const input = $("league-rename-name");
    const message = $("league-rename-message");
    const name = typedName(input, message, config);
    if (!name) return;
    try {
      const league = await request("PATCH", api, { name });
      input.value = league.name;
      message.textContent = t("lg_renamed", { name: league.name });
      await this.load();
    } catch (error) {
      message.textContent = refusalWords(error, config);
      if (error.status === 400) input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  }

  async remove(member) {
    if (!window.confirm(t("lg_remove_confirm", { name: member.player }))) return;
    try {
      await request("DELETE", `${api}members/${member.player_id}/`);
      this.status.textContent = t("lg_removed", { name: member.player });
    } catch (error) {
      this.status.textContent = refusalWords(error, config);
    }
    await this.load();
    $("members-title").setAttribute("tabindex", "-1");
    $("members-title").focus();
  }

  async leave() {
    if (!window.confirm(t("lg_leave_confirm", { name: this.page ? this.page.name : "" }))) return;
    try {
      await request("POST", `${api}leave/`);
      window.location.assign("/leagues/");
    } catch (error) {
      this.status.textContent = refusalWords(error, config);
      $("league-leave").focus();
    }
  }
}

const LIVE_DELAY_MS = 1500;
const league = new LeaguePage();
let soon = 0;
const watched = new Map();
// Today's dailies watched once the page is known (and again should the day change).
function watchToday() {
  if (!league.page) return;
  const names = () => new Set(league.page.members.map((m) => m.player));
  const paths = new Set(league.page.today.map((day) => `/ws/daily/${day.game}/${day.date}/`));
  for (const [path, stop] of watched) {
    if (!paths.has(path)) {
      stop();
      watched.delete(path);
    }
  }
  for (const path of paths) {
    if (watched.has(path)) continue;
    watched.set(
      path,
      watchDaily(path, (event) => {
        if (event.type === "snapshot" || !namesAMember(event, names())) return;
        window.clearTimeout(soon);
        soon = window.setTimeout(() => league.load().then(watchToday), LIVE_DELAY_MS);
      }),
    );
  }
}
league.load().then(() => {
  if (!league.error.hidden) $("league-title").focus();
  watchToday();
});
// Read again every 30 s while in sight, and at once when the page comes back into sight.
window.setInterval(() => {
  if (document.visibilityState === "visible") league.load();
}, config.refresh_ms || 30000);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") league.load();
});
