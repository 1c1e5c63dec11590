// Home page: the countdown to the next UTC midnight, and the first visit's name prompt.
import { api, format, jsonBlock } from "./api.js";

const strings = jsonBlock("page-strings");

function pad(number) {
  return String(number).padStart(2, "0");
}

export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

function startCountdown() {
  const time = document.getElementById("countdown");
  if (!time) return;
  // The server said how many seconds were left; count from this page's own monotonic clock so
  // a wrong clock on the device does not matter.
  const end = performance.now() + Number(time.dataset.seconds || 0) * 1000;
  let timer = 0;
  const tick = () => {
    const left = Math.ceil((end - performance.now()) / 1000);
    time.textContent = clockText(left);
    if (left <= 0) {
      window.clearInterval(timer);
      const message = document.getElementById("countdown-message");
      if (message) message.textContent = strings.new_day || "";
    }
  };
  timer = window.setInterval(tick, 1000);
  tick();
}

/**
 * Create the guest with ONE request. POST /api/players/ names the new player; where the server
 * does not offer that endpoint yet (404/405), the same single request goes to /api/players/me/
 * (PATCH with the name, or GET for a generated name), which also creates the guest.
 */
async function createGuest(name) {
  const body = name ? { display_name: name } : {};
  let answer = await api("POST", "/api/players/", body);
  if (answer.status === 404 || answer.status === 405) {
    answer = name
      ? await api("PATCH", "/api/players/me/", body)
      : await api("GET", "/api/players/me/");
  }
  return answer;
}

function setupNameForm() {
  const form = document.getElementById("name-form");
  if (!form) return;
  const input = form.querySelector("#display-name");
  const message = form.querySelector("#name-message");
  const skip = form.querySelector("#name-skip");
  const buttons = form.querySelectorAll("button");
  let busy = false;

  const submit = async (name) => {
    if (busy) return;
    busy = true;
    buttons.forEach((button) => (button.disabled = true));
    message.textContent = "";
    input.removeAttribute("aria-invalid");
    const answer = await createGuest(name);
    if (answer.status === 200 || answer.status === 201) {
      const shown = (answer.data && answer.data.display_name) || name;
      message.textContent = format(strings.welcome || "{name}", { name: shown });
      window.location.reload();
      return;
    }
    const code = answer.data && answer.data.code;
    if (answer.status === 409 || code === "display_name_taken") {
      message.textContent = strings.name_taken;
    } else if (answer.status === 400) {
      message.textContent = strings.name_bad;
    } else if (answer.status === 429) {
      message.textContent = strings.throttled;
    } else {
      message.textContent = strings.failed;
    }
    if (answer.status === 400 || answer.status === 409) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
    buttons.forEach((button) => (button.disabled = false));
    busy = false;
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = input.value.trim().replace(/\s+/g, " ");
    if (name.length < 2 || name.length > 24) {
      message.textContent = strings.name_bad;
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
