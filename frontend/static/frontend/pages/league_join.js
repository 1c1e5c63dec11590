// An invite to a league: what it leads to (GET /api/leagues/join/<code>/), then joining it
// (POST) and going to the league's page. A visitor without a player picks the name the
// members see on the way in (POST /api/players/, as the home page's first visit does); a
// retired invite says so.

import { jsonBlock, onSubmit } from "../common/dom.js";
import { request } from "../common/http.js";
import { t } from "../common/text.js";
import { refusalWords } from "./leaguewords.js";

const config = jsonBlock("leagues-config");
const url = `/api/leagues/join/${encodeURIComponent(config.code)}/`;
const status = document.getElementById("join-status");
const invite = document.getElementById("join-invite");
const retired = document.getElementById("join-retired");

function showRetired() {
  invite.hidden = true;
  status.textContent = "";
  retired.textContent = t("lg_retired");
  retired.hidden = false;
  document.getElementById("join-title").focus();
}

async function load() {
  status.textContent = t("lg_loading");
  let league;
  try {
    league = await request("GET", url, undefined, { retries: 2 });
  } catch (error) {
    if (error.status === 404) showRetired();
    else status.textContent = refusalWords(error, config);
    return;
  }
  status.textContent = "";
  document.getElementById("join-what").textContent = t("lg_invite_to", { owner: league.owner, name: league.name });
  document.getElementById("join-members").textContent = t("lg_members", { n: league.members });
  invite.hidden = false;
}

function setupForm() {
  const form = document.getElementById("join-form");
  const input = document.getElementById("join-name");
  const message = document.getElementById("join-message");
  const button = form.querySelector("button[type=submit]");
  let busy = false;
  let named = !input; // a player already, or named on an earlier try
  const refuseName = (key) => {
    message.textContent = t(key);
    input.setAttribute("aria-invalid", "true");
    input.focus();
  };
  onSubmit(form, async () => {
    if (busy) return;
    message.textContent = "";
    let name = "";
    if (!named) {
      input.removeAttribute("aria-invalid");
      name = input.value.trim().replace(/\s+/g, " ");
      if (name && (name.length < 2 || name.length > 24)) {
        refuseName("lg_name_bad");
        return;
      }
    }
    busy = true;
    button.disabled = true;
    message.textContent = t("lg_joining");
    try {
      // A newcomer becomes a player with the name of their choice first (a generated one
      // when left empty): the join would otherwise make a guest named by the server.
      if (!named) await request("POST", "/api/players/", name ? { display_name: name } : {});
      named = true;
    } catch (error) {
      busy = false;
      button.disabled = false;
      if (error.status === 409 || error.code === "display_name_taken") refuseName("lg_name_taken");
      else if (error.status === 400) refuseName("lg_name_bad");
      else message.textContent = refusalWords(error, config);
      return;
    }
    try {
      const league = await request("POST", url);
      window.location.assign(`/leagues/${league.id}/`);
    } catch (error) {
      busy = false;
      button.disabled = false;
      // The player exists now: their name is no longer asked.
      if (input) for (const part of [input.closest(".name-row"), form.querySelector("label[for=join-name]"), document.getElementById("join-name-help")]) part.hidden = true;
      if (error.status === 404) showRetired();
      else message.textContent = refusalWords(error, config);
    }
  });
}

setupForm();
load();
