// A small Markdown reader for the rulebooks and the how-to-play: it builds DOM nodes (text as text
// nodes, never HTML). Headings, paragraphs, lists, tables, code, bold, italics, links, rules; rule ids
// (ZETA-R14, OSC-I5, UTA-R2) become buttons that open that rule.
import { h } from "./dom.js";

const RULE_ID = /\b((?:ZETA|OSC|UTA)-(?:[A-Z]+-)?[A-Z]+\d+[a-z]?)\b/;

function inline(text, onRule) {
  const out = [];
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)\s]+\))|((?:ZETA|OSC|UTA)-(?:[A-Z]+-)?[A-Z]+\d+[a-z]?\b|\b[RI]\d{1,3}\b)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const token = m[0];
    if (m[1]) out.push(h("code", null, token.slice(1, -1)));
    else if (m[2]) out.push(h("strong", null, inline(token.slice(2, -2), onRule)));
    else if (m[3]) out.push(h("em", null, inline(token.slice(1, -1), onRule)));
    else if (m[4]) {
      const label = token.slice(1, token.indexOf("]("));
      const href = token.slice(token.indexOf("](") + 2, -1);
      const safe = /^(https?:\/\/|\/|#)/.test(href) ? href : null;
      out.push(safe ? h("a", { href: safe, rel: "noopener noreferrer" }, label) : label);
    } else if (m[5] && onRule && (token.includes("-") || onRule.prefix)) {
      const id = token.includes("-") ? token : onRule.prefix + "-" + token;
      out.push(h("button", { type: "button", class: "rule-link", on: { click: () => onRule(id) } }, token));
    } else out.push(token);
    last = m.index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const WIDE = /[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]/;

/** Lines of a paragraph joined: a space between words, nothing between Japanese lines. */
function joinLines(lines) {
  let out = "";
  for (const line of lines) {
    if (out && !(WIDE.test(out[out.length - 1]) || WIDE.test(line[0]))) out += " ";
    out += line;
  }
  return out;
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

/** Markdown text as a DOM fragment; onRule(id) opens a rule when a rule id is clicked. */
export function markdown(text, onRule) {
  const root = h("div", { class: "md" });
  const lines = String(text || "").replace(/\r\n/g, "\n").split("\n");
  let i = 0;
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) root.append(h("p", null, inline(joinLines(paragraph), onRule)));
    paragraph = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      flush();
      const body = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i])) body.push(lines[i++]);
      i++;
      root.append(h("pre", null, h("code", null, body.join("\n"))));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, heading[1].length + 1);
      root.append(h("h" + level, null, inline(heading[2], onRule)));
      i++;
      continue;
    }
    if (/^\s*(---+|\*\*\*+)\s*$/.test(line)) {
      flush();
      root.append(h("hr"));
      i++;
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|?[\s:-]+\|[\s|:-]*$/.test(lines[i + 1])) {
      flush();
      const head = cells(line);
      i += 2;
      const rows = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(cells(lines[i++]));
      root.append(h("div", { class: "table-wrap" }, h("table", null,
        h("thead", null, h("tr", null, head.map((c) => h("th", null, inline(c, onRule))))),
        h("tbody", null, rows.map((r) => h("tr", null, r.map((c) => h("td", null, inline(c, onRule)))))))));
      continue;
    }
    const item = /^(\s*)([-*]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const [list, next] = readList(lines, i, item[1].length, onRule);
      root.append(list);
      i = next;
      continue;
    }
    if (!line.trim()) {
      flush();
      i++;
      continue;
    }
    paragraph.push(line.trim());
    i++;
  }
  flush();
  return root;
}

function readList(lines, start, indent, onRule) {
  const first = /^(\s*)([-*]|\d+[.)])\s+/.exec(lines[start]);
  const ordered = /\d/.test(first[2]);
  const list = h(ordered ? "ol" : "ul");
  let i = start;
  let current = null;
  let text = [];
  const close = () => {
    if (current && text.length) current.prepend(...inline(joinLines(text), onRule));
    text = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      const nextLine = lines[i + 1] || "";
      const more = /^(\s*)([-*]|\d+[.)])\s+/.exec(nextLine);
      if (more && more[1].length >= indent) { i++; continue; }
      break;
    }
    const m = /^(\s*)([-*]|\d+[.)])\s+(.*)$/.exec(line);
    const lead = line.length - line.trimStart().length;
    if (m && m[1].length === indent) {
      close();
      current = h("li");
      list.append(current);
      text = [m[3]];
      i++;
    } else if (m && m[1].length > indent && current) {
      close();
      const [sub, next] = readList(lines, i, m[1].length, onRule);
      current.append(sub);
      i = next;
    } else if (lead > indent && current) {
      text.push(line.trim());
      i++;
    } else break;
  }
  close();
  return [list, i];
}

export { RULE_ID };
