// The account pages: sign up (a name and a password, or a passkey), sign in (a password or a passkey),
// and the signed-in player's settings (change the password, add or remove passkeys, delete the account).
import { h, render } from "./dom.js";
import { language, t } from "./i18n.js";
import { button, errorBox, field } from "./ui.js";
import {
  addPasskey, changePassword, current, deleteAccount, passkeysSupported, removePasskey, signIn, signInWithPasskey,
  signUp, signUpWithPasskey,
} from "./session.js";

const A = { container: null, mode: "signin", next: "/", error: null, notice: null, busy: false, name: "", password: "",
  confirmText: "", deleting: false };

const NAME_MAX = 32;
const PASSWORD_MIN = 8;

function safeNext(value) {
  // only a page of this site: a path, never another origin
  return value && /^\/(?!\/)[^\s\\]*$/.test(value) ? value : "/";
}

async function start(container, params, query) {
  A.container = container;
  A.mode = params[0];
  A.next = safeNext(query.get("next"));
  if (A.mode === "account" && !current()) {
    location.replace("/signin?next=/account");
    return;
  }
  draw();
}

async function run(work) {
  if (A.busy) return;
  A.busy = true;
  A.error = null;
  A.notice = null;
  draw();
  try {
    await work();
  } catch (e) {
    A.error = e;
  }
  A.busy = false;
  draw();
}

function local(message, code = "local") {
  return { code, message };
}

function nameInput() {
  const input = h("input", { class: "input", id: "account-name", name: "username", maxlength: NAME_MAX, required: true,
    autocomplete: A.mode === "signup" ? "nickname" : "username webauthn", value: A.name, dataset: { key: "account-name" } });
  input.addEventListener("input", () => { A.name = input.value; });
  return input;
}

function passwordInput(id, autocomplete, label) {
  const input = h("input", { class: "input", id, type: "password", autocomplete, maxlength: 256, "aria-label": label,
    dataset: { key: id } });
  return input;
}

/** After a sign-up: back where the player came from, or to their new profile with a welcome. */
function afterSignUp(out) {
  const me = current();
  location.href = A.next !== "/" || !me ? A.next
    : `/players/${encodeURIComponent(me.account.id)}?welcome=${out.claimed || 0}`;
}

function signupPage() {
  const password = passwordInput("account-password", "new-password", t("Password"));
  const again = passwordInput("account-password-again", "new-password", t("Password again"));
  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      const name = A.name.trim();
      if (!name) throw local(t("Enter a display name."), "bad_name");
      if (password.value.length < PASSWORD_MIN) throw local(t("Choose a password of 8 to 256 characters."), "weak_password");
      if (password.value !== again.value) throw local(t("The two passwords differ."), "weak_password");
      afterSignUp(await signUp(name, password.value));
    });
  };
  const withPasskey = () => run(async () => {
    const name = A.name.trim();
    if (!name) throw local(t("Enter a display name."), "bad_name");
    afterSignUp(await signUpWithPasskey(name));
  });
  const form = h("form", { class: "card account-form", id: "signup-form" },
    h("h1", null, t("Make an account")),
    h("p", { class: "muted" }, t("An account keeps your games, your rating in each game and your profile, on every device.")),
    field(t("Display name"), nameInput(), t("What the other players see (up to 32 characters). You can play as a guest without one.")),
    h("fieldset", { class: "account-choice" },
      h("legend", null, t("With a password")),
      field(t("Password"), password, t("At least 8 characters.")),
      field(t("Password again"), again),
      h("button", { type: "submit", class: "btn btn-primary", disabled: A.busy, dataset: { key: "signup" } },
        A.busy ? t("Making the account…") : t("Make the account"))),
    passkeysSupported() ? h("fieldset", { class: "account-choice" },
      h("legend", null, t("Or with a passkey")),
      h("p", { class: "muted small" }, t("No password: this device (or your phone) confirms it is you, with a fingerprint, a face or a PIN.")),
      button(t("Use a passkey"), withPasskey, { disabled: A.busy, dataset: { key: "signup-passkey" } })) : null,
    errorBox(A.error, () => { A.error = null; draw(); }),
    h("p", { class: "small" }, t("Games you played as a guest in this browser become the new account's."), " ",
      h("a", { href: "/signin" + (A.next !== "/" ? `?next=${encodeURIComponent(A.next)}` : "") }, t("I have an account: sign in"))));
  form.addEventListener("submit", submit);
  return form;
}

function signinPage() {
  const password = passwordInput("account-password", "current-password", t("Password"));
  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      if (!A.name.trim() || !password.value) throw local(t("Enter your name and your password."), "bad_credentials");
      await signIn(A.name.trim(), password.value);
      location.href = A.next;
    });
  };
  const withPasskey = () => run(async () => {
    await signInWithPasskey();
    location.href = A.next;
  });
  const form = h("form", { class: "card account-form", id: "signin-form" },
    h("h1", null, t("Sign in")),
    field(t("Display name"), nameInput()),
    field(t("Password"), password),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "btn btn-primary", disabled: A.busy, dataset: { key: "signin" } },
        A.busy ? t("Signing in…") : t("Sign in")),
      passkeysSupported() ? button(t("Sign in with a passkey"), withPasskey, { disabled: A.busy, dataset: { key: "signin-passkey" } }) : null),
    errorBox(A.error, () => { A.error = null; draw(); }),
    h("p", { class: "small" }, t("No account yet?"), " ",
      h("a", { href: "/signup" + (A.next !== "/" ? `?next=${encodeURIComponent(A.next)}` : "") }, t("Make one"))));
  form.addEventListener("submit", submit);
  return form;
}

function when(iso) {
  return iso ? new Date(iso).toLocaleDateString(language()) : "—";
}

function settingsPage() {
  const me = current();
  if (!me) return h("p", null, h("a", { href: "/signin?next=/account" }, t("Sign in")));
  const cur = passwordInput("password-current", "current-password", t("Current password"));
  const next = passwordInput("password-new", "new-password", t("New password"));
  const passwordForm = h("form", { class: "card", id: "password-form" },
    h("h2", null, me.has_password ? t("Change the password") : t("Add a password")),
    me.has_password ? field(t("Current password"), cur) : null,
    field(t("New password"), next, t("At least 8 characters. Your other devices are signed out.")),
    h("button", { type: "submit", class: "btn", disabled: A.busy, dataset: { key: "change-password" } }, t("Save the password")));
  passwordForm.addEventListener("submit", (e) => {
    e.preventDefault();
    run(async () => {
      if (next.value.length < PASSWORD_MIN) throw local(t("Choose a password of 8 to 256 characters."), "weak_password");
      await changePassword(cur.value, next.value);
      A.notice = t("The password is changed.");
    });
  });
  const keys = me.passkeys || [];
  const passkeys = h("section", { class: "card", id: "passkeys" },
    h("h2", null, t("Passkeys")),
    keys.length ? h("ul", { class: "passkey-list" }, keys.map((k) => h("li", { class: "passkey-row" },
      h("span", { class: "passkey-label" }, k.label || t("Passkey")),
      h("span", { class: "muted small" }, t("added {date}", { date: when(k.created_at) }), " · ",
        k.last_used ? t("last used {date}", { date: when(k.last_used) }) : t("never used")),
      button(t("Remove"), () => {
        if (!me.has_password && keys.length === 1) {
          A.error = local(t("This is the account's only way to sign in: add a password or another passkey first."));
          draw();
          return;
        }
        if (window.confirm(t("Remove this passkey? It can no longer sign in to this account."))) run(() => removePasskey(k.id));
      }, { kind: "ghost", class: "small", dataset: { key: "remove-passkey-" + k.id } }))))
      : h("p", { class: "muted" }, t("No passkey yet.")),
    passkeysSupported() ? button(t("Add a passkey"), () => run(async () => {
      await addPasskey();
      A.notice = t("The passkey is added.");
    }), { dataset: { key: "add-passkey" }, disabled: A.busy }) : null);
  const proof = me.has_password
    ? passwordInput("delete-password", "current-password", t("Your password"))
    : h("input", { class: "input", id: "delete-name", "aria-label": t("Your display name"), dataset: { key: "delete-name" } });
  const del = h("section", { class: "card danger", id: "delete-account" },
    h("h2", null, t("Delete the account")),
    h("p", null, t("Your name, password and passkeys are removed and you are signed out everywhere. Your games stay in their rooms' records, under “deleted player”. This cannot be undone.")),
    A.deleting ? h("form", { class: "row", id: "delete-form", on: { submit: (e) => {
      e.preventDefault();
      run(async () => {
        if (!me.has_password && proof.value.trim() !== me.account.name) {
          throw local(t("Type the account's display name exactly to confirm."), "bad_name");
        }
        await deleteAccount(me.has_password ? { password: proof.value } : { confirm: proof.value.trim() });
        location.href = "/";
      });
    } } },
    field(me.has_password ? t("Your password, to confirm") : t("Type your display name, {name}, to confirm", { name: me.account.name }), proof),
    h("button", { type: "submit", class: "btn btn-danger", dataset: { key: "delete-confirm" } }, t("Delete my account for good")),
    button(t("Cancel"), () => { A.deleting = false; draw(); }, { kind: "ghost" }))
      : button(t("Delete my account…"), () => { A.deleting = true; draw(); }, { kind: "danger", dataset: { key: "delete" } }));
  return h("div", { class: "account-settings" },
    h("h1", null, t("Account settings")),
    h("p", { class: "muted" }, t("Signed in as {name}.", { name: me.account.name }), " ",
      h("a", { href: `/players/${encodeURIComponent(me.account.id)}` }, t("My profile"))),
    A.notice ? h("div", { class: "notice ok", role: "status" }, A.notice) : null,
    errorBox(A.error, () => { A.error = null; draw(); }),
    passwordForm, passkeys, del);
}

/** On the sign-up and sign-in pages of a signed-in player: who they are, and where to go. */
function alreadyIn() {
  const me = current();
  if (!me || A.mode === "account") return null;
  return h("div", { class: "notice ok", id: "already-signed-in" }, t("Signed in as {name}.", { name: me.account.name }), " ",
    h("a", { href: `/players/${encodeURIComponent(me.account.id)}` }, t("My profile")));
}

function draw() {
  if (!A.container) return;
  document.title = ({ signup: t("Make an account"), signin: t("Sign in"), account: t("Account settings") }[A.mode]) + " · cardtable";
  const body = A.mode === "signup" ? signupPage() : A.mode === "signin" ? signinPage() : settingsPage();
  render(A.container, h("section", { class: "page narrow account-page" }, alreadyIn(), body));
}

export default { start, draw };
