// Parts of the leagues' pages: a standings table (rank, player, points, days, wins, with a
// caption; your row marked in words as well as by its colour), and a league's name as typed.

import { el } from "../common/dom.js";
import { t } from "../common/text.js";
import { tidyLeagueName } from "./leaguewords.js";

// The league's name typed in `input`, tidied; null when its length is not allowed, which is
// said in `message`, with the input marked and in focus.
export function typedName(input, message, limits) {
  input.removeAttribute("aria-invalid");
  const name = tidyLeagueName(input.value, limits.name_min, limits.name_max);
  if (name) return name;
  message.textContent = t("lg_error_name", { min: limits.name_min, max: limits.name_max });
  input.setAttribute("aria-invalid", "true");
  input.focus();
  return null;
}

export function standingsTable(rows, { caption, you = null, testid = "", captionHidden = false } = {}) {
  const head = el(
    "tr",
    {},
    el("th", { scope: "col", className: "num", text: t("lg_rank") }),
    el("th", { scope: "col", text: t("lg_player") }),
    el("th", { scope: "col", className: "num", text: t("lg_points") }),
    el("th", { scope: "col", className: "num", text: t("lg_days") }),
    el("th", { scope: "col", className: "num", text: t("lg_wins") }),
  );
  const body = el("tbody");
  for (const row of rows) {
    const mine = you !== null && row.player_id === you;
    const name = el("th", { scope: "row", className: "player" }, row.player);
    if (mine) name.append(" ", el("span", { className: "you-badge", text: t("lg_you") }));
    body.append(
      el(
        "tr",
        { className: mine ? "you" : "", "data-player": row.player },
        el("td", { className: "num", text: row.rank }),
        name,
        el("td", { className: "num", text: row.points }),
        el("td", { className: "num", text: row.days }),
        el("td", { className: "num", text: row.wins }),
      ),
    );
  }
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: "5", className: "muted", text: t("lg_no_points") })));
  const table = el("table", { className: "ranks standings-table", testid }, el("caption", { text: caption, className: captionHidden ? "visually-hidden" : "" }), el("thead", {}, head), body);
  return el("div", { className: "table-wrap" }, table);
}
