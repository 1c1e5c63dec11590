// Building elements in script (no HTML strings, so the pages work under a strict
// Content-Security-Policy), and reading the JSON blocks the server puts in a page.

// el("p", {className, text, testid, ...attributes}, ...children): one element.
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "className") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "testid") node.dataset.testid = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

// svg("line", {x1, y1, ...}, text): one SVG element (a chart's), its attributes as given.
export function svg(tag, attributes = {}, text = undefined) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

// The JSON the server put in <script type="application/json" id="...">, or {}.
export function jsonBlock(id) {
  const element = document.getElementById(id);
  if (!element) return {};
  try {
    return JSON.parse(element.textContent) || {};
  } catch {
    return {};
  }
}

// A form the page's script submits. Its HTML says method="post" and its submit buttons are
// disabled, so a click before the script runs neither reloads the page nor puts the fields (a
// password) in a URL; attaching the handler here enables them.
export function onSubmit(form, handler) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    handler(event);
  });
  for (const button of form.querySelectorAll("button[type=submit]")) button.disabled = false;
}
