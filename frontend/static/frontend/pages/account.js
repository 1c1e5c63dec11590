// Account page: register, log in and log out through the accounts API, then go to My stats.
import { onSubmit } from "../common/dom.js";
import { request } from "../common/http.js";
import { t } from "../common/text.js";

for (const form of document.querySelectorAll("form.account-form")) {
  const message = form.querySelector(".message");
  onSubmit(form, async () => {
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    message.textContent = "";
    const fields = {};
    for (const input of form.querySelectorAll("input[name]")) fields[input.name] = input.value;
    const hasFields = Object.keys(fields).length > 0;
    try {
      await request("POST", form.dataset.endpoint, hasFields ? fields : undefined);
      window.location.assign(hasFields ? "/me/" : "/");
      return;
    } catch (error) {
      if (error.code === "username_taken") message.textContent = t("taken");
      else if (error.code === "bad_credentials") message.textContent = t("bad_credentials");
      else if (error.status === 400) message.textContent = error.body.detail || t("invalid");
      else if (error.status === 429) message.textContent = t("throttled");
      else message.textContent = t("failed");
    }
    button.disabled = false;
  });
}
