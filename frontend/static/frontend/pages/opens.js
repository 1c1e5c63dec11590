// When a result's analysis opens, in the reader's local time: the server wrote it in UTC
// (frontend/_analysis.html, an element with data-opens-at, an ISO time); the sentence is the
// page's `analysis_opens`.

import { localTime, t } from "../common/text.js";

for (const node of document.querySelectorAll("[data-opens-at]")) {
  node.textContent = t("analysis_opens", { time: localTime(node.dataset.opensAt) });
}
