// Utahime's option-card builder (a tab of the deck builder page, named by Utahime's page module): each
// player's loadout within the budget of 28 (UTA-R2) and a hero, from a shipped set or one's own set
// (TOML), saved, loaded and played.
import { download, h, readFile } from "../dom.js";
import { t } from "../i18n.js";
import { api, draft, keepDraft, keepOptionSetups, savedOptionSetups } from "../api.js";
import { button, field, openRules } from "../ui.js";

const D = {
  sets: [], budget: 28, maxCopies: 2, setName: "designer_example", customToml: "", customSet: null,
  loadouts: [[], []], heroes: [null, null], optCheck: null, setupName: "my setup", optImport: "", optImportResult: null, timer: null,
};
let P = { container: null, notice: null, draw() {}, saveDraft() {} };

/** Work on the builder page `page` (its container, draw, draft and notice line). */
function attach(page) {
  P = page;
}
let restored = false;

/** Take this builder's part of the page's draft. */
function restore(saved) {
  for (const key of ["setName", "customToml", "loadouts", "heroes", "setupName"]) {
    if (saved[key] !== undefined) {
      D[key] = saved[key];
      restored = true;
    }
  }
}

/** This builder's part of the page's draft. */
function keep() {
  return { setName: D.setName, customToml: D.customToml, loadouts: D.loadouts, heroes: D.heroes, setupName: D.setupName };
}

/** Load the shipped sets; a fresh page starts from the first one's loadouts (`page`: as for `attach`). */
async function start(page) {
  attach(page);
  const options = await api("GET", "/web/options/utahime");
  D.sets = options.sets;
  D.budget = options.budget;
  D.maxCopies = options.max_copies;
  if (!restored && D.sets.length) {
    D.loadouts = D.sets[0].loadouts.map((x) => [...x]);
    D.heroes = [...D.sets[0].heroes_chosen];
  }
}

/** Check what is being built (once the page has loaded the builders' data). */
async function refresh() {
  await checkOptions();
}

function currentSet() {
  if (D.setName === "custom") return D.customSet;
  return D.sets.find((s) => s.name === D.setName) || null;
}

function optionSetup() {
  const setup = { option_set: D.setName, p1_options: D.loadouts[0], p2_options: D.loadouts[1], p1_hero: D.heroes[0], p2_hero: D.heroes[1] };
  if (D.setName === "custom") setup.option_toml = D.customToml;
  return setup;
}

/** One loadout problem in the page language, cards named by their titles (UTA-R2). */
function issueText(issue, set) {
  const seat = "P" + (issue.seat + 1);
  const kinds = set ? [...(set.options || []), ...(set.heroes || [])] : [];
  const found = kinds.find((x) => x.name === issue.card);
  const card = found ? t(found.title) : issue.card;
  switch (issue.code) {
    case "over_budget": return t("{seat}'s option cards cost {cost} in total; the budget is {budget}.", { seat, cost: issue.count, budget: issue.limit });
    case "too_many_copies": return t("{seat} has {n} copies of {card}; at most {limit} of one name.", { seat, n: issue.count, card, limit: issue.limit });
    case "too_many_cards": return t("{seat} has {n} option cards; at most {limit}.", { seat, n: issue.count, limit: issue.limit });
    case "unknown_option": return t("{seat}: this set has no option card “{card}”.", { seat, card });
    case "unknown_hero": return t("{seat}: this set has no hero “{card}”.", { seat, card });
    default: return issue.code;
  }
}

async function checkOptions() {
  try {
    D.optCheck = await api("POST", "/web/options/utahime/check", { setup: optionSetup() });
    if (D.setName === "custom" && D.optCheck.set) D.customSet = D.optCheck.set;
  } catch (e) {
    D.optCheck = { ok: false, problems: [e.message], costs: [0, 0] };
  }
}

function optionsChanged() {
  P.saveDraft();
  clearTimeout(D.timer);
  D.timer = setTimeout(async () => { await checkOptions(); P.draw(); }, 120);
  P.draw();
}

function seatLoadout(set, seat) {
  const chosen = D.loadouts[seat];
  const cost = chosen.reduce((sum, n) => sum + ((set.options.find((o) => o.name === n) || {}).cost || 0), 0);
  const hero = h("select", { class: "input", dataset: { key: "hero-" + seat }, "aria-label": t("Hero of P{n}", { n: seat + 1 }) },
    h("option", { value: "", selected: !D.heroes[seat] }, t("No hero")),
    set.heroes.map((x) => h("option", { value: x.name, selected: D.heroes[seat] === x.name }, t(x.title))));
  hero.addEventListener("change", () => { D.heroes[seat] = hero.value || null; optionsChanged(); });
  return h("section", { class: "card", dataset: { seat } },
    h("div", { class: "card-head" }, h("h2", null, t("P{n}'s option cards", { n: seat + 1 })),
      h("span", { class: ["badge", cost > D.budget ? "badge-watch" : ""], id: "cost-" + seat }, t("cost {n} / {budget}", { n: cost, budget: D.budget }))),
    h("div", { class: ["progress", cost > D.budget ? "over" : ""] }, h("span", { style: { width: Math.min(100, (100 * cost) / Math.max(1, D.budget)) + "%" } })),
    h("ul", { class: "saved-list" }, set.options.map((o) => {
      const copies = chosen.filter((n) => n === o.name).length;
      return h("li", null, h("span", null, h("strong", null, t(o.title)), " ", h("span", { class: "badge" }, t("cost {n}", { n: o.cost })), " ",
        h("span", { class: "small muted" }, o.timing === "any_time" ? t("any time") : t("own turn")), h("div", { class: "small" }, t(o.text))),
      h("span", { class: "stepper" },
        h("button", { type: "button", disabled: copies === 0, "aria-label": t("Remove {card}", { card: t(o.title) }), dataset: { key: `rm-${seat}-${o.name}` },
          on: { click: () => { const k = chosen.indexOf(o.name); chosen.splice(k, 1); optionsChanged(); } } }, "−"),
        h("output", null, String(copies)),
        h("button", { type: "button", "aria-label": t("Add {card}", { card: t(o.title) }), dataset: { key: `add-${seat}-${o.name}` },
          on: { click: () => { chosen.push(o.name); optionsChanged(); } } }, "+")));
    })),
    field(t("Hero"), hero));
}

function utahimeTab() {
  const set = currentSet();
  const select = h("select", { class: "input", dataset: { key: "set" }, "aria-label": t("Option set") },
    D.sets.map((s) => h("option", { value: s.name, selected: D.setName === s.name }, t(s.title))),
    h("option", { value: "custom", selected: D.setName === "custom" }, t("My own set (TOML)…")));
  select.addEventListener("change", () => {
    D.setName = select.value;
    const s = currentSet();
    D.loadouts = s ? s.loadouts.map((x) => [...x]) : [[], []];
    D.heroes = s ? [...s.heroes_chosen] : [null, null];
    optionsChanged();
  });
  let custom = null;
  if (D.setName === "custom") {
    const area = h("textarea", { class: "input mono", rows: 10, dataset: { key: "custom-toml" }, "aria-label": t("Option set (TOML)"),
      placeholder: 'format = 1\nname = "my_set"\n[[option]]\nname = "quick_study"\ncost = 4\neffects = [{ do = "draw", count = 1 }]' });
    area.value = D.customToml;
    area.addEventListener("input", () => { D.customToml = area.value; });
    const upload = h("input", { type: "file", accept: ".toml,text/plain", class: "file", "aria-label": t("Upload an option set") });
    upload.addEventListener("change", async () => { if (upload.files[0]) { D.customToml = await readFile(upload.files[0]); D.loadouts = [[], []]; D.heroes = [null, null]; optionsChanged(); } });
    custom = h("div", null, area, h("div", { class: "row" }, upload, button(t("Read the set"), () => { D.loadouts = [[], []]; D.heroes = [null, null]; optionsChanged(); })));
  }
  const check = D.optCheck;
  const name = h("input", { class: "input", maxlength: 64, value: D.setupName, dataset: { key: "setup-name" } });
  name.addEventListener("input", () => { D.setupName = name.value; P.saveDraft(); });
  const area = h("textarea", { class: "input mono", rows: 4, dataset: { key: "opt-import" }, "aria-label": t("Option setup file (TOML)"),
    placeholder: 'option_set = "designer_example"\np1_options = ["scout"]' });
  area.value = D.optImport;
  area.addEventListener("input", () => { D.optImport = area.value; });
  const upload = h("input", { type: "file", accept: ".toml,text/plain", class: "file", "aria-label": t("Upload a setup file") });
  const importSetup = async () => {
    try {
      const out = await api("POST", "/web/options/utahime/check", { toml: D.optImport });
      D.optImportResult = out;
      if (out.ok) {
        D.setName = out.setup.option_set;
        if (out.setup.option_toml) { D.customToml = out.setup.option_toml; D.customSet = out.set; }
        D.loadouts = [out.setup.p1_options || [], out.setup.p2_options || []];
        D.heroes = [out.setup.p1_hero || null, out.setup.p2_hero || null];
        optionsChanged();
      }
    } catch (e) {
      D.optImportResult = { ok: false, problems: [e.message] };
    }
    P.draw();
  };
  upload.addEventListener("change", async () => { if (upload.files[0]) { D.optImport = await readFile(upload.files[0]); await importSetup(); } });
  const saved = savedOptionSetups();
  const save = () => {
    const list = savedOptionSetups().filter((x) => x.name !== D.setupName);
    list.push({ name: D.setupName, setup: check.setup });
    keepOptionSetups(list);
    P.notice = t("Saved in this browser as “{name}”.", { name: D.setupName });
    P.draw();
    return list.length - 1;
  };
  return h("div", { class: "deck-grid" },
    h("div", null,
      h("section", { class: "card" }, h("h2", null, t("Option set")),
        h("p", { class: "muted small" }, t("Each player may bring option cards up to a total cost of {budget}, at most {copies} of one name, and one hero.",
          { budget: D.budget, copies: D.maxCopies }), " ", h("button", { type: "button", class: "rule-link", on: { click: () => openRules("utahime", "UTA-R2") } }, "UTA-R2")),
        select, custom),
      set ? [seatLoadout(set, 0), seatLoadout(set, 1)] : h("section", { class: "card" }, h("p", { class: "muted" }, t("Read a set to choose its cards.")))),
    h("div", { class: "sticky" },
      h("section", { class: "card", "aria-live": "polite" },
        field(t("Name of this setup"), name),
        check ? (check.ok ? h("p", { class: "checks ok", id: "options-problems" }, t("Within the budget: ready to play."))
          : h("ul", { class: "checks bad", id: "options-problems" }, (check.issues && check.issues.length
            ? check.issues.map((i) => h("li", { dataset: { code: i.code } }, issueText(i, check.set || set)))
            : check.problems.map((p) => h("li", null, p))))) : null,
        P.notice ? h("p", { class: "small", role: "status" }, P.notice) : null,
        h("div", { class: "actions" },
          button(t("Save in this browser"), save, { kind: "primary", disabled: !(check && check.ok), dataset: { key: "save-options" } }),
          button(t("Download the setup file"), () => download(`${(D.setupName || "setup").replace(/[^\w.-]+/g, "_")}.toml`, check.toml, "application/toml"),
            { disabled: !(check && check.ok) }),
          button(t("Play it in a new room"), () => {
            const k = save();
            const lobby = draft("lobby") || {};
            keepDraft("lobby", { ...lobby, game: "utahime", options: "saved:" + k, players: 2, seats: lobby.seats || ["me", "bot:normal"] });
            location.href = "/";
          }, { disabled: !(check && check.ok) }))),
      h("section", { class: "card" }, h("h2", null, t("Load a setup file")), area,
        h("div", { class: "row" }, upload, button(t("Load"), importSetup)),
        D.optImportResult && !D.optImportResult.ok ? h("ul", { class: "checks bad" }, D.optImportResult.problems.map((p) => h("li", null, p))) : null),
      h("section", { class: "card" }, h("h2", null, t("My option setups")),
        saved.length ? h("ul", { class: "saved-list" }, saved.map((x, k) => h("li", null, h("span", null, x.name),
          h("span", { class: "row" },
            button(t("Open"), () => {
              D.setName = x.setup.option_set;
              if (x.setup.option_toml) D.customToml = x.setup.option_toml;
              D.loadouts = [x.setup.p1_options || [], x.setup.p2_options || []];
              D.heroes = [x.setup.p1_hero || null, x.setup.p2_hero || null];
              D.setupName = x.name;
              optionsChanged();
            }, { class: "small" }),
            button(t("Delete"), () => { keepOptionSetups(savedOptionSetups().filter((_, j) => j !== k)); P.draw(); }, { class: "small", kind: "ghost" })))))
          : h("p", { class: "muted small" }, t("Saved setups appear here and in the lobby.")))));
}

export default { attach, title: () => t("Utahime option cards"), restore, keep, start, refresh, view: utahimeTab };
