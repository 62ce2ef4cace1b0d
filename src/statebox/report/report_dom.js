// DOM helpers. Every string reaches the page as a text node or an attribute value, never as markup.
const SVG_NS = "http://www.w3.org/2000/svg";
const PALETTE = ["#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#475569", "#ea580c"];
const SIGNATURE_COLORS = {
  tool_usage: "#f59e0b", no_state_change: "#94a3b8", wrong_state_update: "#ef4444", incomplete_resolution: "#8b5cf6",
};
const EXTRA_COLORS = ["#0ea5e9", "#14b8a6", "#a3a3a3", "#f472b6"];

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(key, value === true ? "" : String(value));
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
  return node;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  return append(node, children);
}

function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  return append(node, children);
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

function pct(value, digits = 1) {
  return value === null || value === undefined ? "–" : (100 * value).toFixed(digits) + "%";
}

function usd(value) {
  if (value === null || value === undefined) return "n/a";
  return "$" + (value >= 0.1 || value === 0 ? value.toFixed(2) : value.toPrecision(3));
}

// A value of a discrepancy or an effect, as shown: strings as they are, anything else as JSON.
function show(value) {
  if (typeof value === "string") return value;
  return value === undefined ? "" : JSON.stringify(value);
}

// A label cut in the middle to at most `max` characters ("provider…name-1"), for a chart's fixed margin.
function shortLabel(label, max) {
  if (label.length <= max) return label;
  const tail = Math.ceil((max - 1) / 2);
  return label.slice(0, max - 1 - tail) + "…" + label.slice(label.length - tail);
}

function colorOf(index) {
  return PALETTE[index % PALETTE.length];
}

function signatureColor(name, index) {
  return SIGNATURE_COLORS[name] || EXTRA_COLORS[index % EXTRA_COLORS.length];
}

function headlineKs(repeats) {
  const ks = [1, 5, 10, 20].filter((k) => k <= repeats);
  if (repeats >= 1 && !ks.includes(repeats)) ks.push(repeats);
  return ks;
}

function card(id, title, note, ...body) {
  return el("section", { class: "card", id }, el("h2", {}, title), note ? el("p", { class: "note" }, note) : null, body);
}

function swatch(color) {
  return el("span", { class: "swatch", style: "background:" + color });
}
