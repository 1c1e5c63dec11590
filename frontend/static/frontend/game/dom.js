// el("p", {className, text, testid, ...attributes}, ...children): one element, built in script
// (no HTML strings, so the page works under a strict Content-Security-Policy).
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "className") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "testid") node.dataset.testid = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children);
  return node;
}
