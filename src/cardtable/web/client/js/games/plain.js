// The page of a game that brings no page of its own: its view as data, the legal moves as they are
// written, and the log in the server's words. Every game plays here; a game's own module draws it better.
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** The seat's view, as the server sends it. */
function render(ctx) {
  return h("div", { class: "plain-game" },
    h("pre", { class: "plain-view mono", "aria-label": t("The board") }, JSON.stringify(ctx.view, null, 2)));
}

/** No prompt beyond the list of choices. */
function prompt() {
  return null;
}

/** No words of its own: the log shows the server's line. */
function describeEvent() {
  return null;
}

/** A legal action as it is written. */
function describeAction(a) {
  return a;
}

/** The end's reason as the engine gives it. */
function reason(o) {
  return String(o.reason || "");
}

export default { render, prompt, describeEvent, describeAction, reason };
