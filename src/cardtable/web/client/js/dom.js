// DOM building without HTML strings: every text goes in as a text node (textContent), never as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "on") {
      for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    } else if (key === "class") {
      node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : String(value));
    } else if (key === "text") {
      node.textContent = String(value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) node.dataset[k] = String(v);
    } else if (key === "style") {
      for (const [k, v] of Object.entries(value)) node.style.setProperty(k, String(v));
    } else if (key === "value" && "value" in node) {
      node.value = String(value);
    } else if (key === "checked" || key === "selected" || key === "disabled" || key === "hidden" || key === "open") {
      node[key] = Boolean(value);
      if (value === true) node.setAttribute(key, "");
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.append(child);
    else node.append(document.createTextNode(String(child)));
  }
}

/** An HTML element: h("button", {class: "btn", on: {click}}, "text", child, [more]). */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  apply(node, attrs);
  append(node, children);
  return node;
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "on") for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

/** Replace a container's children, keeping the focus on the element with the same data-key. */
export function render(container, ...children) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : undefined;
  const scrolls = [...container.querySelectorAll("[data-scroll]")].map((el) => [el.dataset.scroll, el.scrollTop,
    el.scrollHeight - el.clientHeight - el.scrollTop < 8]);
  container.replaceChildren();
  append(container, children);
  for (const [name, top, atEnd] of scrolls) {
    const el = container.querySelector(`[data-scroll="${CSS.escape(name)}"]`);
    if (el) el.scrollTop = atEnd ? el.scrollHeight : top;
  }
  if (key !== undefined) {
    const again = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && typeof again.focus === "function") again.focus({ preventScroll: true });
  }
}

/** Scroll every log to its end (after the first render). */
export function scrollToEnd(container) {
  for (const el of container.querySelectorAll("[data-scroll]")) el.scrollTop = el.scrollHeight;
}

/** Copy text to the clipboard (true if it worked). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "offscreen", readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
    return ok;
  }
}

/** Offer a text as a file download. */
export function download(name, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name, class: "offscreen" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

/** Read a picked file as text. */
export function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

/** Arrow-key movement through a grid of buttons (data-row / data-col). */
export function gridKeys(event) {
  const cell = event.target.closest("[data-row]");
  if (!cell) return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const move = moves[event.key];
  if (!move) return;
  const grid = cell.closest("[data-grid]");
  const row = Number(cell.dataset.row) + move[0];
  const col = Number(cell.dataset.col) + move[1];
  const next = grid.querySelector(`[data-row="${row}"][data-col="${col}"]`);
  if (next) {
    event.preventDefault();
    next.focus();
  }
}
