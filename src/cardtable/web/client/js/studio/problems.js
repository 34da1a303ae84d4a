// The card-set checks' messages in the page language. The server checks a set with the command line's own
// checks, so its messages are the command line's, in English; each template below is one of them with its
// varying parts as {fields}. A message that matches a template is shown in the page language, the card's
// name in that language; one that matches none is shown as it came.
import { language, t } from "../i18n.js";

// Each template is written once, as t("...") (its parameter shadows t): called with the identity it gives
// the English to match, called with t the page language's words.
const TEMPLATES = [
  (t) => t("{subject}: {value} is not a whole number"),
  (t) => t("{subject}: {value}: this number is fixed at {fixed} in this version (the engine does not read it from a card set yet)"),
  (t) => t("{subject}: {value} is below the least allowed value {least}"),
  (t) => t("{subject}: {value} is above the largest allowed value {most}"),
  (t) => t("{subject}: {limit} is above the {noise} noise cards of the decks: the noise end could never come"),
  (t) => t("{subject}: budget {budget}, copies {copies}: the loadout the option set {set} deals does not fit: {why} ({costs}); raise the budget or lower a cost"),
  (t) => t("no number {key} in {game}; {item} has: {keys}"),
  (t) => t("no number {key} in {game}; items: {items}"),
  (t) => t("[rules] {flag}: this is the number {key}; set it there, not in [rules]"),
  (t) => t("[rules] {flag}: written by the set itself from its numbers; remove it"),
  (t) => t("rule flags: {why}"),
  (t) => t("the copy limits allow {total} cards in all, fewer than a deck's {size} ({rule}): raise some limits"),
  (t) => t("the {deck} deck holds {held} cards ({moved}), not the rulebook's {size} ({rule}, card conservation): move copies between its types"),
  (t) => t("the pulse deck's Low or Hi and noise cards ({always}) and the fewer of its edges ({edges}) add up to less than {least}: the setup could not always build six trains of five ({rules})"),
  (t) => t("energy.start + energy.second_player_bonus ({start} + {bonus}) is above energy.cap {cap} ({rule})"),
];

const english = (text) => text;
let compiled = null;

function compile() {
  if (compiled) return compiled;
  compiled = TEMPLATES.map((template) => {
    const source = template(english);
    const names = [];
    const pattern = source.split(/(\{\w+\})/).map((part) => {
      const found = /^\{(\w+)\}$/.exec(part);
      if (found) {
        names.push(found[1]);
        return "(.+?)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }).join("");
    return { template, names, regex: new RegExp("^" + pattern + "$") };
  });
  return compiled;
}

// "ice_mage.cost (Ice Mage, ZETA-R14)": a number, its item's English name and its rule.
const SUBJECT = /^([a-z0-9_]+)\.([a-z0-9_]+) \(([^()]*?)(?:, ([A-Z]+-[A-Z0-9-]+))?\)$/;

/**
 * A card-set problem in the page language. ``itemName(id)`` is an item's name in the page language (null if
 * unknown).
 */
export function problemWords(text, itemName) {
  if (language() === "en") return text;
  for (const { template, names, regex } of compile()) {
    const found = regex.exec(text);
    if (!found) continue;
    const params = {};
    names.forEach((name, i) => { params[name] = found[i + 1]; });
    if (params.subject) params.subject = subjectWords(params.subject, itemName);
    return template(t).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? params[name] : whole));
  }
  return text;
}

function subjectWords(subject, itemName) {
  const found = SUBJECT.exec(subject);
  if (!found) return subject;
  const [, item, fieldName, english, rule] = found;
  const name = itemName(item) || english;
  return t("{item} · {field} ({key}, {rule})", { item: name, field: fieldName, key: `${item}.${fieldName}`,
    rule: rule || "—" });
}
