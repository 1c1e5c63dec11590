// Account page: register, log in and log out through the accounts API, then go to My stats.
import { api, jsonBlock } from "./api.js";

const strings = jsonBlock("page-strings");

for (const form of document.querySelectorAll("form.account-form")) {
  const message = form.querySelector(".message");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    message.textContent = "";
    const fields = {};
    for (const input of form.querySelectorAll("input[name]")) fields[input.name] = input.value;
    const hasFields = Object.keys(fields).length > 0;
    const answer = await api("POST", form.dataset.endpoint, hasFields ? fields : undefined);
    if (answer.status >= 200 && answer.status < 300) {
      window.location.assign(hasFields ? "/me/" : "/");
      return;
    }
    const code = answer.data && answer.data.code;
    if (code === "username_taken") message.textContent = strings.taken;
    else if (code === "bad_credentials") message.textContent = strings.bad_credentials;
    else if (answer.status === 400) message.textContent = (answer.data && answer.data.detail) || strings.invalid;
    else if (answer.status === 429) message.textContent = strings.throttled;
    else message.textContent = strings.failed;
    button.disabled = false;
  });
}
