// Small helpers shared by the pages' modules: JSON requests to our API and the page strings.

/** The value of a cookie, or "" (the CSRF token is sent back as a header). */
export function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

/**
 * A JSON request to the API. Resolves to {status, data}; data is the parsed body (an error's
 * {code, detail}) or null. Network failures resolve to {status: 0, data: null}.
 */
export async function api(method, url, body) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method !== "GET") {
    const token = cookie("csrftoken");
    if (token) headers["X-CSRFToken"] = token;
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    return { status: 0, data: null };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { status: response.status, data };
}

/** The translated sentences the server put in <script type="application/json" id="...">. */
export function jsonBlock(id) {
  const element = document.getElementById(id);
  if (!element) return {};
  try {
    return JSON.parse(element.textContent);
  } catch {
    return {};
  }
}

/** Fill "{name}" placeholders of a translated sentence. */
export function format(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (whole, key) =>
    Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole,
  );
}

/** A new element with a class and text. */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
