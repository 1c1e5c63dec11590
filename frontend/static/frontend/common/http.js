// The one request helper of the site's scripts: JSON to and from our API. An error answer
// becomes an ApiError carrying the server's `code`, `detail` and extra fields (expected_seq,
// legal, retry_after, fields). With `retries`, a request that fails on the network or with
// 5xx/429 is sent again with backoff: the play page's moves are safe to repeat (the server
// answers a repeated seq with the same move as the first time).

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || (status ? `http_${status}` : "network");
    this.body = body || {};
  }
}

// The value of a cookie, or "" (Django's CSRF token is sent back as a header).
export function cookie(name, source = typeof document === "undefined" ? "" : document.cookie) {
  for (const part of source.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Told of each retry ("network" or "throttled"), so a page can say it is trying again.
let retryListener = () => {};
export function onRetry(listener) {
  retryListener = listener;
}

// request("POST", url, body, {retries}) -> the answer's JSON; throws ApiError (status 0 and
// code "network" when the server could not be reached).
export async function request(method, url, body, { retries = 0 } = {}) {
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
