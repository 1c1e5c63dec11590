// The leagues page: your leagues (GET /api/leagues/), the form that makes one (POST, then the
// list again and the new league's link in focus), and everyone's standings of a week and a
// month (GET /api/seasons/week/ and /month/), with the season before a step back (?date=).

import { el, jsonBlock, onSubmit } from "../common/dom.js";
import { request } from "../common/http.js";
import { t } from "../common/text.js";
import { standingsTable, typedName } from "./leagueparts.js";
import { dayBefore, dayWords, refusalWords } from "./leaguewords.js";

const config = jsonBlock("leagues-config");
const lang = document.documentElement.lang || "en";

const list = document.getElementById("leagues-list");
const status = document.getElementById("leagues-status");

async function loadLeagues(focusId = null) {
  status.textContent = t("lg_loading");
  let leagues;
  try {
    leagues = await request("GET", "/api/leagues/", undefined, { retries: 2 });
  } catch (error) {
    status.textContent = refusalWords(error, config);
    return;
  }
  list.replaceChildren(
    ...leagues.map((league) => {
      const link = el("a", { href: `/leagues/${league.id}/`, testid: "league-link", "data-league": league.id }, league.name);
      const facts = el("span", { className: "muted" }, ` · ${t("lg_owner", { name: league.owner })} · ${t("lg_members", { n: league.members })}`);
      return el("li", {}, link, facts);
    }),
  );
  status.textContent = leagues.length ? "" : t("lg_none");
  if (focusId !== null) {
    const made = list.querySelector(`a[data-league="${focusId}"]`);
    if (made) made.focus();
  }
}

function setupMakeForm() {
  const form = document.getElementById("league-make");
  const input = document.getElementById("league-make-name");
  const message = document.getElementById("league-make-message");
  const button = form.querySelector("button[type=submit]");
  onSubmit(form, async () => {
    const name = typedName(input, message, config);
    if (!name) return;
    button.disabled = true;
    message.textContent = "";
    try {
      const league = await request("POST", "/api/leagues/", { name });
      input.value = "";
      message.textContent = t("lg_made", { name: league.name });
      await loadLeagues(league.id);
    } catch (error) {
      message.textContent = refusalWords(error, config);
      if (error.status === 400) {
        input.setAttribute("aria-invalid", "true");
        input.focus();
      }
    } finally {
      button.disabled = false;
    }
  });
}

// One season's table with its caption, and a step to the season before (or back to today's).
class Season {
  constructor(period, root) {
    this.period = period;
    this.date = config.date || "";
    this.box = el("section", { className: "season", "aria-labelledby": `season-${period}`, testid: `season-${period}` });
    this.title = el("h3", { id: `season-${period}`, tabindex: "-1" });
    this.note = el("p", { className: "help", testid: `season-${period}-note` });
    this.table = el("div");
    this.back = el("button", { type: "button", className: "button", testid: `season-${period}-previous`, text: t(period === "week" ? "lg_previous_week" : "lg_previous_month") });
    this.now = el("button", { type: "button", className: "button", testid: `season-${period}-current`, hidden: true, text: t(period === "week" ? "lg_current_week" : "lg_current_month") });
    this.back.addEventListener("click", () => this.go(this.previous));
    this.now.addEventListener("click", () => this.go(""));
    this.box.append(this.title, this.note, this.table, el("p", { className: "actions" }, this.back, " ", this.now));
    root.append(this.box);
  }

  async go(date) {
    this.date = date;
    await this.load();
    this.title.focus();
  }

  async load() {
    const query = this.date ? `?date=${encodeURIComponent(this.date)}` : "";
    this.note.textContent = t("lg_loading");
    let season;
    try {
      season = await request("GET", `/api/seasons/${this.period}/${query}`, undefined, { retries: 2 });
    } catch (error) {
      this.note.textContent = refusalWords(error, config);
      return;
    }
    const words = { season: season.season, first: dayWords(season.first, lang), last: dayWords(season.last, lang) };
    const caption = t(this.period === "week" ? "lg_season_week" : "lg_season_month", words);
    this.title.textContent = caption;
    this.note.textContent = t(season.closed ? "lg_season_closed" : "lg_season_open");
    this.table.replaceChildren(standingsTable(season.rows, { caption, captionHidden: true, you: config.you, testid: `season-${this.period}-table` }));
    this.previous = dayBefore(season.first);
    this.now.hidden = !season.closed;
  }
}

// The link to the points rule opens it.
for (const link of document.querySelectorAll('a[href="#points-rule"]')) {
  link.addEventListener("click", () => {
    document.getElementById("points-rule").open = true;
  });
}

setupMakeForm();
loadLeagues();
const seasons = document.getElementById("seasons");
for (const period of ["week", "month"]) new Season(period, seasons).load();
