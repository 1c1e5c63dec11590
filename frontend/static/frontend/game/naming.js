// The name the boards show, offered at the end of a ranked game to a player who never chose
// one (a guest made by the game's start, or who skipped the name: "Guest 123456"). It sits
// just above the end panel, so it is seen before the result is looked for on a board; the
// same request as the home page's and My stats' renaming (PATCH /api/players/me/) sets it,
// and "Keep …" leaves the generated name. The page says whether to offer it
// (data-offer-name: the server knows which names are generated).

import { el } from "../common/dom.js";
import { request } from "../common/http.js";
import { t } from "./strings.js";

export const NAME_MIN = 2;
export const NAME_MAX = 24;

// The name as typed, its spaces tidied; "" when its length is not allowed (the server checks
// the rest and says why it refuses).
export function tidyName(text) {
  const name = String(text || "").trim().replace(/\s+/g, " ");
  return name.length >= NAME_MIN && name.length <= NAME_MAX ? name : "";
}

// What a refused rename is said as.
export function refusalKey(error) {
  if (error && (error.status === 409 || error.code === "display_name_taken")) return "name_offer_taken";
  if (error && error.status === 400) return "name_offer_bad";
  if (error && (error.status === 429 || error.code === "throttled")) return "name_offer_throttled";
  return "name_offer_failed";
}

export class NameOffer {
  // before: the element the offer goes in front of (the end panel); offered: whether this
  // visitor has no name of their own.
  constructor(before, { offered }) {
    this.offered = offered;
    this.kept = false; // "Keep …": not offered again on this page
    this.asked = false;
    // Drawn as the end panel is (its box), just above it.
    this.box = el("section", { className: "play-end name-offer", hidden: true, testid: "name-offer", "aria-labelledby": "name-offer-title" });
    before.before(this.box);
  }

  // Each state the page shows: offered once a ranked game is over.
  update(state) {
    const show = this.offered && !this.kept && Boolean(state) && state.ranked && state.status !== "playing";
    if (!show) {
      this.box.hidden = true;
      return;
    }
    if (this.asked) {
      this.box.hidden = false;
      return;
    }
    this.asked = true;
    request("GET", "/api/players/me/", undefined, { retries: 1 })
      .then((me) => this.draw(me.display_name))
      .catch(() => {
        this.asked = false; // asked again at the next state
      });
  }

  draw(current) {
    const input = el("input", {
      id: "name-offer-input",
      type: "text",
      autocomplete: "nickname",
      minlength: String(NAME_MIN),
      maxlength: String(NAME_MAX),
      required: true,
      "aria-describedby": "name-offer-message",
      testid: "name-offer-input",
    });
    const save = el("button", { type: "submit", className: "btn btn-primary", text: t("name_offer_save"), testid: "name-offer-save" });
    const keep = el("button", { type: "button", className: "btn", text: t("name_offer_skip", { name: current }), testid: "name-offer-skip" });
    const message = el("p", { id: "name-offer-message", className: "name-offer-message", role: "status", "aria-live": "polite", testid: "name-offer-message" });
    const form = el(
      "form",
      { className: "name-offer-form", novalidate: true },
      el("label", { for: "name-offer-input", text: t("name_offer_label") }),
      " ",
      input,
      " ",
      save,
      " ",
      keep,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = tidyName(input.value);
      input.removeAttribute("aria-invalid");
      if (!name) {
        message.textContent = t("name_offer_bad");
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      save.disabled = true;
      keep.disabled = true;
      try {
        const me = await request("PATCH", "/api/players/me/", { display_name: name });
        form.remove();
        message.textContent = t("name_offer_saved", { name: (me && me.display_name) || name });
      } catch (error) {
        message.textContent = t(refusalKey(error));
        if (error && (error.status === 400 || error.status === 409)) {
          input.setAttribute("aria-invalid", "true");
          input.focus();
        }
      } finally {
        save.disabled = false;
        keep.disabled = false;
      }
    });
    keep.addEventListener("click", () => {
      this.kept = true;
      this.box.hidden = true;
    });
    this.box.replaceChildren(
      el("h2", { id: "name-offer-title", text: t("name_offer_title") }),
      el("p", { text: t("name_offer_text", { name: current }) }),
      form,
      message,
    );
    this.box.hidden = this.kept;
  }
}
