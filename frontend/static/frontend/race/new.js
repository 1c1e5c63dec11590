// "Challenge a friend": makes the race from the form (POST /api/races/) and goes to its page.

import { onSubmit } from "../common/dom.js";
import { request } from "../common/http.js";
import { t } from "../common/text.js";

const form = document.getElementById("race-new");
if (form) {
  const message = document.getElementById("race-message");
  onSubmit(form, async () => {
    const data = new FormData(form);
    const body = { game: data.get("game"), capacity: Number(data.get("capacity")) };
    if (data.get("date")) body.date = data.get("date");
    try {
      const race = await request("POST", "/api/races/", body);
      window.location.assign(`/challenge/${race.code}/`);
    } catch (error) {
      message.textContent = t("race_error", { detail: error.message });
    }
  });
}
