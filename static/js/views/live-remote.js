// The live pages' pieces for players who are not in the room (live/ice-servers.js): the MJ's
// « Joueurs à distance » setting (TURN URLs, username, credential, and the relay-only check),
// the words of a link that comes through a relay, and the messages of a relay that failed.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";
import { MAX_SECRET, MAX_TURN_URLS, relayOnly, remoteSetting, setRelayOnly, setRemote } from "../live/ice-servers.js";

/** The form as typed (null: the saved setting), its error and whether it was just saved. */
const form = { urls: null, username: null, credential: null, error: null, saved: null, open: null };

function errorText(checked) {
  return t(`live.remote.bad.${checked.error}`, { url: checked.url ?? "", max: checked.error === "too_many" ? MAX_TURN_URLS : MAX_SECRET });
}

/**
 * The MJ's « Joueurs à distance » setting. `onSaved()` is called once a change is saved (the
 * page makes a new invitation: the one on screen carries the servers it was made with).
 */
export function remoteSection(app, onSaved) {
  const saved = remoteSetting();
  const urls = form.urls ?? (saved ? saved.urls.join(" ") : "");
  const username = form.username ?? saved?.username ?? "";
  const credential = form.credential ?? saved?.credential ?? "";
  const invalid = (field) => (form.error?.field === field ? "true" : "false");
  const save = () => {
    const typed = { urls: form.urls ?? urls, username: form.username ?? username, credential: form.credential ?? credential };
    const refused = setRemote(typed);
    if (refused) {
      const field = refused.error === "url" || refused.error === "too_many" ? "urls" : refused.error;
      form.error = { field, text: errorText(refused) };
      form.saved = null;
    } else {
      Object.assign(form, { urls: null, username: null, credential: null, error: null });
      form.saved = remoteSetting() ? "live.remote_saved" : "live.remote_cleared";
      onSaved?.();
    }
    app.rerender();
    if (refused) document.getElementById(`live-turn-${form.error.field}`)?.focus();
  };
  const described = form.error ? "live-turn-error" : "live-remote-help";
  // Open when a relay is set (first drawn), then as the MJ leaves it: a redraw (a round trip
  // measured, an invitation made) never folds it while the MJ types.
  form.open ??= Boolean(saved);
  if (form.error) form.open = true;
  return html`<details class="card live-remote" data-testid="live-remote" .open=${form.open}
    @toggle=${(e) => { form.open = e.target.open; }}>
    <summary>${t("live.remote_title")}</summary>
    <p class="muted small" id="live-remote-help">${t("live.remote_help")}</p>
    <label for="live-turn-urls">${t("live.remote_urls")}</label>
    <input id="live-turn-urls" type="text" inputmode="url" spellcheck="false" autocomplete="off" maxlength="900"
      placeholder="turn:turn.example.org:3478" .value=${urls} aria-invalid=${invalid("urls")} aria-describedby=${described}
      @input=${(e) => { form.urls = e.target.value; }}>
    <label for="live-turn-username">${t("live.remote_username")}</label>
    <input id="live-turn-username" type="text" spellcheck="false" autocomplete="off" maxlength=${MAX_SECRET}
      .value=${username} aria-invalid=${invalid("username")} @input=${(e) => { form.username = e.target.value; }}>
    <label for="live-turn-credential">${t("live.remote_credential")}</label>
    <input id="live-turn-credential" type="password" spellcheck="false" autocomplete="off" maxlength=${MAX_SECRET}
      .value=${credential} aria-invalid=${invalid("credential")} @input=${(e) => { form.credential = e.target.value; }}>
    <p class="muted small">${t("live.remote_leaves")}</p>
    <label class="check"><input type="checkbox" id="live-relay-only" .checked=${relayOnly()}
      @change=${(e) => { setRelayOnly(e.target.checked); onSaved?.(); app.rerender(); }}> ${t("live.remote_relay_only")}</label>
    ${form.error ? html`<p class="field-error" role="alert" id="live-turn-error" data-testid="live-turn-error">${form.error.text}</p>` : nothing}
    <div class="row"><button type="button" id="live-turn-save" @click=${save}>${t("live.remote_save")}</button>
      <span role="status" class="muted" data-testid="live-remote-status">${form.saved ? t(form.saved) : ""}</span></div>
  </details>`;
}

// ------------------------------------------------------------------ a link through a relay

/** Links known to come through a relay (RtcLink.throughRelay), read once open. */
const relayed = new WeakSet();

/** Find out whether `link` comes through a relay (now and once more a moment later, when ICE
 * may have switched pairs); `rerender` shows it. */
export function noteRoute(link, rerender) {
  if (typeof link?.throughRelay !== "function") return;
  const check = async () => {
    const through = await link.throughRelay();
    if (through === relayed.has(link)) return;
    if (through) relayed.add(link);
    else relayed.delete(link);
    rerender();
  };
  check();
  const timer = setTimeout(check, 3000);
  link.addEventListener("close", () => clearTimeout(timer), { once: true });
}

/** The words beside a connected player (or the phone's own state) whose link is relayed. */
export function relayTag(link) {
  return link && relayed.has(link)
    ? html` <span class="badge live-relay" data-testid="live-relay">${t("live.via_relay")}</span>`
    : nothing;
}

/** The notice of a link that did not come up, when a relay was set (a code of rtc.js:
 * turn_refused, turn_unreachable, relay_failed), or null for another code. */
export function relayFailureText(code) {
  return ["turn_refused", "turn_unreachable", "relay_failed"].includes(code) ? t("live.remote_failed", { reason: t(`live.bad.${code}`) }) : null;
}
