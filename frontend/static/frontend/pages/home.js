// Home page: the countdown to the next UTC midnight, and the first visit's name prompt.
import { onSubmit } from "../common/dom.js";
import { request } from "../common/http.js";
import { countdown, t } from "../common/text.js";

function startCountdown() {
  const time = document.getElementById("countdown");
  if (!time) return;
  // The server said how many seconds were left; count from this page's own monotonic clock so
  // a wrong clock on the device does not matter.
  const end = performance.now() + Number(time.dataset.seconds || 0) * 1000;
  let timer = 0;
  const tick = () => {
    const left = Math.ceil((end - performance.now()) / 1000);
    time.textContent = countdown(left);
    if (left <= 0) {
      window.clearInterval(timer);
      const message = document.getElementById("countdown-message");
      if (message) message.textContent = t("new_day");
    }
  };
  timer = window.setInterval(tick, 1000);
  tick();
}

function setupNameForm() {
  const form = document.getElementById("name-form");
  if (!form) return;
  const input = form.querySelector("#display-name");
  const message = form.querySelector("#name-message");
  const skip = form.querySelector("#name-skip");
  const buttons = form.querySelectorAll("button");
  let busy = false;

  // One request creates the guest: POST /api/players/ (with the name, or none for a
  // generated one).
  const submit = async (name) => {
    if (busy) return;
    busy = true;
    buttons.forEach((button) => (button.disabled = true));
    message.textContent = "";
    input.removeAttribute("aria-invalid");
    try {
      const player = await request("POST", "/api/players/", name ? { display_name: name } : {});
      message.textContent = t("welcome", { name: (player && player.display_name) || name });
      window.location.reload();
      return;
    } catch (error) {
      if (error.status === 409 || error.code === "display_name_taken") message.textContent = t("name_taken");
      else if (error.status === 400) message.textContent = t("name_bad");
      else if (error.status === 429) message.textContent = t("throttled");
      else message.textContent = t("failed");
      if (error.status === 400 || error.status === 409) {
        input.setAttribute("aria-invalid", "true");
        input.focus();
      }
    }
    buttons.forEach((button) => (button.disabled = false));
    busy = false;
  };

  onSubmit(form, () => {
    const name = input.value.trim().replace(/\s+/g, " ");
    if (name.length < 2 || name.length > 24) {
      message.textContent = t("name_bad");
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    submit(name);
  });
  skip.addEventListener("click", () => submit(""));
}

startCountdown();
setupNameForm();
