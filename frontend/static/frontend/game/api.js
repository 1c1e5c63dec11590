// The REST client of the play page. Every answer is JSON; an error answer becomes an ApiError
// carrying the server's `code`, `detail` and extra fields (expected_seq, legal, retry_after).
// Requests that fail on the network, or with 5xx/429, are retried with backoff: a move is safe
// to send again, since the server answers a repeated seq with the same move as the first time.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || (status ? `http_${status}` : "network");
    this.body = body || {};
  }
}

function cookie(name) {
  const found = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : null;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Told of each retry ("network" or "busy"), so the page can say it is trying again.
let retryListener = () => {};
export function onRetry(listener) {
  retryListener = listener;
}

export async function request(method, url, body, { retries = 4 } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  // A logged-in user's unsafe requests need Django's CSRF token; guests need none.
  const csrf = cookie("csrftoken");
  if (csrf && method !== "GET") headers["X-CSRFToken"] = csrf;
  let attempt = 0;
  for (;;) {
    let response;
    try {
      response = await fetch(url, {
        method,
        headers,
        credentials: "same-origin",
        cache: "no-store",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      if (attempt >= retries) throw new ApiError(0, { code: "network", detail: "" });
      retryListener("network");
      await sleep(Math.min(8000, 500 * 2 ** attempt));
      attempt += 1;
      continue;
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (response.ok) return data;
    const retryable = response.status >= 500 || response.status === 429;
    if (retryable && attempt < retries) {
      const wait = data && data.retry_after ? data.retry_after * 1000 : 500 * 2 ** attempt;
      retryListener(response.status === 429 ? "throttled" : "network");
      await sleep(Math.min(15000, wait));
      attempt += 1;
      continue;
    }
    throw new ApiError(response.status, data);
  }
}

export const api = {
  start: (game, date) => request("POST", `/api/dailies/${game}/${date}/attempts/`),
  state: (id) => request("GET", `/api/attempts/${id}/`),
  move: (id, seq, move) => request("POST", `/api/attempts/${id}/moves/`, { seq, move }),
  resign: (id) => request("POST", `/api/attempts/${id}/resign/`),
  finish: (id, seq) => request("POST", `/api/attempts/${id}/finish/`, { seq }),
  // The end panel's reads: your row of the day's board, the day's histogram, and the solver's
  // line of a day that is over (a page of the site, not the API: it is never served sooner).
  board: (game, date) => request("GET", `/api/leaderboards/${game}/${date}/?around=me`, undefined, { retries: 1 }),
  distribution: (game, date) => request("GET", `/api/leaderboards/${game}/${date}/distribution/`, undefined, { retries: 1 }),
  solution: (game, date) => request("GET", `/play/${game}/${date}/solution/`, undefined, { retries: 1 }),
};
