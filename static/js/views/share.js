// The "Partager" page (#/share) and the opening of a share link (#/share/<payload>).
//
// Sharing: the table, a character or a roll of the log becomes a link (the data compressed in
// the URL fragment, share/codec.js) and a QR code (share/qr.js). The engine's store.share
// validates it and, for the players (the default), takes out every system's secrets.
// Opening: the payload is read at once and removed from the address bar; the page shows what
// the link holds, validated as a file import is (store.open / store.check_character), and
// imports it only when the person agrees: a character already here (same id) is updated
// after a field-by-field list of the differences; a whole table replaces this one only after
// a verified backup (app.replaceDocument).
// What the link holds is shown as soon as it is decoded (no Python: milliseconds); the
// engine's validation runs meanwhile (on a fresh page it first waits for the engine to start,
// several seconds) and only the import buttons wait for it. After an import, a link leads to
// what was imported. A "Partager" pressed elsewhere (ui.shareButton) opens this page
// with its thing chosen and the link made at once.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { colon, errorMessage, formatTime, said, t, tn } from "../i18n.js";
import { downloadJson, LOG_LIMIT, newSeed, todayStamp } from "../storage.js";
import { decodeShare, encodeShare, SHARE_ROUTE, ShareError, shareUrl } from "../share/codec.js";
import { mjSwitch, reflect } from "../share/mj-mode.js";
import { qrMatrix, qrSvg } from "../share/qr.js";
import { loadStylesheet, takeShareChoice } from "./ui.js";
import { backupLabel } from "./when.js";

loadStylesheet(new URL("../../css/share.css", import.meta.url).href);
reflect();

/** How many recent rolls the page offers to share. */
const RECENT = 10;
/** How many differences a character update lists (the rest is counted). */
const MAX_DIFFS = 40;

const out = { choice: "table", audience: "player", busy: false, link: null, error: null, copied: false, auto: false };
/** The link being opened: {status: "reading"|"checking"|"ready"|"bad"|"done", kind, data, ...}. */
let incoming = null;

function systemName(app, id) {
  const sys = app.engine.describe?.systems?.find((s) => s.id === id);
  if (sys) return sys.name;
  const key = `nav.${id}`;
  const name = t(key);
  return name === key ? id : name;
}

// ------------------------------------------------------------------ sharing

function choices(app) {
  const items = [{ value: "table", label: t("share.what_table", { name: app.doc.name }) }];
  for (const c of app.doc.characters) {
    items.push({ value: `character:${c.id}`, label: t("share.what_character", { name: c.name, system: systemName(app, c.system) }) });
  }
  const recent = app.doc.log.slice(-RECENT).reverse();
  // An older entry chosen from the journal ("Partager" on it) is offered too.
  const chosen = out.choice.startsWith("entry:") ? app.doc.log.find((e) => `entry:${e.id}` === out.choice) : null;
  if (chosen && !recent.includes(chosen)) recent.push(chosen);
  for (const e of recent) {
    items.push({ value: `entry:${e.id}`, label: t("share.what_entry", { label: e.label || e.kind, who: e.who ?? "", at: formatTime(e.at) }) });
  }
  return items;
}

function selected(app) {
  const [kind, ...rest] = out.choice.split(":");
  const id = rest.join(":");
  if (kind === "character") {
    const c = app.doc.characters.find((x) => x.id === id);
    return c ? { kind, data: c } : null;
  }
  if (kind === "entry") {
    const e = app.doc.log.find((x) => x.id === id);
    return e ? { kind, data: e } : null;
  }
  return { kind: "table", data: app.doc };
}

async function makeLink(app) {
  const what = selected(app);
  Object.assign(out, { link: null, error: null, copied: false });
  if (!what) return;
  out.busy = true;
  app.rerender();
  // A table's link is packed by the engine against the links' dictionary, a table's text
  // (share/codec.js): a small table then fits a QR code. A character or a roll is packed here.
  const table = what.kind === "table";
  const r = await app.call({ op: table ? "store.share_link" : "store.share", kind: what.kind, data: what.data, audience: out.audience });
  out.busy = false;
  if (r.error) {
    out.error = errorMessage(r.error);
  } else {
    const url = shareUrl(table ? r.payload : await encodeShare(r.kind, r.data, r.audience));
    out.link = { url, kind: r.kind, audience: r.audience, data: r.data, matrix: qrMatrix(url), name: r.kind === "table" ? r.data.name : r.data.name ?? r.data.label };
  }
  app.rerender();
  document.getElementById("share-result-title")?.focus({ preventScroll: true });
}

async function copyLink(app) {
  const field = document.getElementById("share-link");
  try {
    await navigator.clipboard.writeText(out.link.url);
  } catch {
    field?.select(); // no clipboard permission: the link is selected for the person to copy
  }
  out.copied = true;
  app.rerender();
}

function downloadShare() {
  const { kind, data, name } = out.link;
  const safe = String(name ?? kind).normalize("NFD").replace(/\p{M}+/gu, "").replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || kind;
  // The link's own envelope: a table's says whose copy it is, so that a player's copy imported
  // from this file (views/table.js) has its hidden piles dealt again, as the link's would.
  const mark = kind === "table" ? { audience: out.link.audience } : {};
  downloadJson(`tablee-${kind}-${safe}-${todayStamp()}.json`, { app: "tablee", kind, v: 1, ...mark, data });
}

function linkSection(app) {
  if (!out.link) return nothing;
  const { url, matrix } = out.link;
  return html`<section class="card share-result" aria-labelledby="share-result-title" data-testid="share-result">
    <h2 id="share-result-title" tabindex="-1">${t("share.link_title")}</h2>
    <label for="share-link">${t("share.link_label")}</label>
    <input id="share-link" class="share-link" readonly .value=${url} data-length=${url.length} @focus=${(e) => e.target.select()}>
    <div class="row">
      <button type="button" id="share-copy" @click=${() => copyLink(app)}>${t("share.copy")}</button>
      <span role="status" class="muted">${out.copied ? t("share.copied") : ""}</span>
    </div>
    ${matrix
      ? html`<figure class="share-qr" data-testid="share-qr">${qrSvg(matrix, t("share.qr_label"))}
          <figcaption class="muted">${t("share.qr_help", { version: matrix.version })}</figcaption></figure>`
      : html`<div class="notice warning" role="status" data-testid="share-too-large">
          <p>${t("share.too_large_for_qr", { n: url.length })}</p>
          <div class="row"><button type="button" id="share-download" @click=${downloadShare}>${t("share.download")}</button></div>
        </div>`}
  </section>`;
}

function shareSection(app) {
  const ready = app.engine.state === "ready";
  return html`<section class="card" aria-labelledby="share-make-title">
    <h2 id="share-make-title">${t("share.make_title")}</h2>
    <p class="muted">${t("share.make_help")}</p>
    <label for="share-what">${t("share.what")}</label>
    <select id="share-what" .value=${out.choice} @change=${(e) => { out.choice = e.target.value; out.link = null; app.rerender(); }}>
      ${choices(app).map((c) => html`<option value=${c.value} ?selected=${c.value === out.choice}>${c.label}</option>`)}
    </select>
    <fieldset class="share-audience">
      <legend>${t("share.audience")}</legend>
      ${["player", "mj"].map((a) => html`<label><input type="radio" name="share-audience" value=${a} id=${`share-audience-${a}`}
        .checked=${out.audience === a} @change=${() => { out.audience = a; out.link = null; app.rerender(); }}> ${t(`share.audience_${a}`)}</label>`)}
    </fieldset>
    <div class="row">
      <button type="button" class="primary" id="share-make" ?disabled=${!ready || out.busy} aria-describedby="share-make-why"
        @click=${() => makeLink(app)}>${t("share.make")}</button>
      <span class="muted" id="share-make-why">${ready ? "" : t("share.needs_engine")}</span>
    </div>
    ${out.error ? html`<p class="field-error" role="alert">${out.error}</p>` : nothing}
  </section>`;
}

// ------------------------------------------------------------------ opening a link

/** Leaf paths of a JSON value ("skills.traquer" -> 3), for the list of differences. */
function leaves(value, prefix = "", acc = new Map()) {
  if (value !== null && typeof value === "object") {
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
    if (keys.length === 0) acc.set(prefix, JSON.stringify(value));
    for (const k of keys) leaves(value[k], prefix ? `${prefix}.${k}` : k, acc);
  } else {
    acc.set(prefix, JSON.stringify(value));
  }
  return acc;
}

export function differences(before, after) {
  const a = leaves(before);
  const b = leaves(after);
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  return paths.filter((p) => a.get(p) !== b.get(p)).map((p) => ({ path: p, before: a.get(p), after: b.get(p) }));
}

function short(text) {
  if (text === undefined) return t("share.diff_none");
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

async function readIncoming(app, payload) {
  let share;
  try {
    share = await decodeShare(payload);
  } catch (error) {
    incoming = { status: "bad", reason: t(`share.bad.${error instanceof ShareError ? error.code : "corrupt"}`) };
    app.rerender();
    return;
  }
  const { kind, data, audience } = share;
  // What the link holds, at once (rendered as text); the import waits for the engine's check.
  incoming = { status: "checking", kind, data, audience, quarantined: 0 };
  performance.mark("tablee-share-read");
  app.rerender();
  document.getElementById("share-open-title")?.focus({ preventScroll: true });
  if (kind === "table") {
    // A player's copy holds its hidden piles in a canonical order (their order is the MJ's
    // secret): store.open_share deals them again from a fresh seed, so the copy never deals
    // 1, 2, 3… de bâton. The MJ's own copy keeps its order.
    const r = await app.call({ op: "store.open_share", document: data, audience, seed: newSeed() });
    if (r.error) incoming = { status: "bad", reason: errorMessage(r.error) };
    else incoming = { status: "ready", kind, data: r.document, audience, quarantined: r.quarantined, dealt: r.shuffled };
  } else if (kind === "character") {
    const r = await app.call({ op: "store.check_character", character: data });
    if (r.error || !r.ok) incoming = { status: "bad", reason: r.error ? errorMessage(r.error) : errorMessage(r.problems[0]) };
    else incoming = { status: "ready", kind, data };
  } else {
    const r = await app.call({ op: "store.share", kind, data, audience: "mj" });
    if (r.error) incoming = { status: "bad", reason: errorMessage(r.error) };
    else incoming = { status: "ready", kind, data: r.data };
  }
  performance.mark("tablee-share-checked");
  app.rerender();
  if (incoming.status === "bad") document.getElementById("share-open-title")?.focus({ preventScroll: true });
}

/** Where what was imported is: the character's sheet, the journal, the table. */
function importedAt(kind, data) {
  if (kind === "character") return { href: `#/${data.system}/character/${encodeURIComponent(data.id)}`, text: () => t("share.open_character", { name: data.name }) };
  if (kind === "entry") return { href: "#/log", text: () => t("share.open_log") };
  if (kind === "table") return { href: "#/table", text: () => t("share.open_table") };
  return null;
}

function finish(app, message, kind = "status", link = null) {
  incoming = { status: "done", message, kind, link };
  app.rerender();
  document.getElementById("share-open-title")?.focus({ preventScroll: true });
}

function importCharacter(app) {
  const { data } = incoming;
  const exists = app.doc.characters.some((c) => c.id === data.id);
  const kept = app.update((doc) => {
    const at = doc.characters.findIndex((c) => c.id === data.id);
    if (at >= 0) doc.characters[at] = data;
    else doc.characters.push(data);
  });
  if (kept) finish(app, () => t(exists ? "share.updated" : "share.imported", { name: data.name }), "status", importedAt("character", data));
  else finish(app, app.refusal?.text ?? t("share.refused"), "error");
}

function importEntry(app) {
  const { data } = incoming;
  if (app.doc.log.some((e) => e.id === data.id)) {
    finish(app, () => t("share.entry_already"));
    return;
  }
  const kept = app.update((doc) => {
    doc.log.push(data);
    if (doc.log.length > LOG_LIMIT) doc.log.splice(0, doc.log.length - LOG_LIMIT);
  });
  if (kept) finish(app, () => t("share.entry_added"), "status", importedAt("entry", data));
  else finish(app, app.refusal?.text ?? t("share.refused"), "error");
}

function importTable(app) {
  const key = app.replaceDocument(incoming.data);
  const table = incoming.data;
  const dealt = incoming.dealt > 0;
  const message = () => `${t("share.table_replaced", { name: table.name, key: backupLabel(key) })}${dealt ? ` ${t("share.players_copy_dealt")}` : ""}`;
  if (key) finish(app, message, "status", importedAt("table", table));
  else {
    incoming = { ...incoming, backupFailed: true };
    app.rerender();
  }
}

function summary(app) {
  const { kind, data } = incoming;
  if (kind === "character") {
    return html`<p data-testid="share-summary">${t("share.holds_character", { name: data.name, system: systemName(app, data.system) })}</p>`;
  }
  if (kind === "entry") {
    const summaryText = typeof data.result?.summary === "string" ? data.result.summary : "";
    return html`<p data-testid="share-summary">${t("share.holds_entry", { label: data.label || data.kind, who: data.who ?? "", at: formatTime(data.at) })}</p>
      ${summaryText ? html`<p class="share-entry-result">${summaryText}</p>` : nothing}`;
  }
  if (!Array.isArray(data?.characters) || !Array.isArray(data?.log)) return nothing; // not checked yet
  const names = data.characters.map((c) => c?.name).join(", ");
  return html`<p data-testid="share-summary">${t("share.holds_table", { name: data.name })}</p>
    <ul>
      <li>${tn("share.table_characters", data.characters.length)}${names ? `${colon()}${names}` : ""}</li>
      <li>${tn("share.table_log", data.log.length)}</li>
      ${incoming.quarantined > 0 ? html`<li>${tn("quarantine.found", incoming.quarantined)}</li>` : nothing}
    </ul>`;
}

/** A player's copy of a table is not the MJ's: its hidden piles' order stayed with the MJ and is
 * dealt again here (store.open_share). Said before the import. */
function playersCopy() {
  if (incoming.audience === "mj") return nothing;
  return html`<p class="notice status" data-testid="share-players-copy">${t("share.players_copy")}</p>`;
}

function consent(app) {
  const { kind, data } = incoming;
  // Until the engine has checked the link, its import buttons wait (and say so).
  const checking = incoming.status === "checking";
  const cancel = html`<button type="button" id="share-cancel" @click=${() => finish(app, () => t("share.cancelled"))}>${t("share.cancel")}</button>`;
  if (kind === "character") {
    const current = app.doc.characters.find((c) => c.id === data.id);
    if (!current) {
      return html`<div class="row"><button type="button" class="primary" id="share-import" ?disabled=${checking} aria-describedby="share-checking" @click=${() => importCharacter(app)}>${t("share.import_character")}</button>${cancel}</div>`;
    }
    const diffs = differences(current, data);
    if (diffs.length === 0) return html`<p role="status" data-testid="share-same">${t("share.same_character")}</p><div class="row">${cancel}</div>`;
    return html`<p>${t("share.character_exists", { name: current.name })}</p>
      <ul class="share-diff" data-testid="share-diff" aria-label=${t("share.diff_label")}>
        ${diffs.slice(0, MAX_DIFFS).map((d) => html`<li><code>${d.path}</code>${colon()}<del>${short(d.before)}</del> → <ins>${short(d.after)}</ins></li>`)}
        ${diffs.length > MAX_DIFFS ? html`<li>${tn("share.diff_more", diffs.length - MAX_DIFFS)}</li>` : nothing}
      </ul>
      <div class="row"><button type="button" class="primary" id="share-update" ?disabled=${checking} aria-describedby="share-checking" @click=${() => importCharacter(app)}>${t("share.update_character")}</button>${cancel}</div>`;
  }
  if (kind === "entry") {
    return html`<div class="row"><button type="button" class="primary" id="share-import" ?disabled=${checking} aria-describedby="share-checking" @click=${() => importEntry(app)}>${t("share.import_entry")}</button>${cancel}</div>`;
  }
  // (a table with nothing in it yet, a new player's: nothing to lose, nothing to warn about)
  const empty = !app.doc.characters.length && !app.doc.log.length && !Object.keys(app.doc.systems).length;
  return html`${playersCopy()}<p data-testid="share-table-warning">${t(empty ? "share.table_warning_empty" : "share.table_warning", { name: app.doc.name })}</p>
    ${incoming.backupFailed
      ? html`<div class="notice error" role="alert"><p>${t("share.backup_failed")}</p>
          <div class="row"><button type="button" @click=${() => app.exportNow()}>${t("save.export")}</button></div></div>`
      : nothing}
    <div class="row"><button type="button" class="primary" id="share-import" ?disabled=${checking} aria-describedby="share-checking" @click=${() => importTable(app)}>${t("share.import_table")}</button>${cancel}</div>`;
}

function checkingLine() {
  return html`<p class="muted small" id="share-checking" role="status" data-testid="share-checking">${incoming.status === "checking" ? t("share.checking") : ""}</p>`;
}

function openSection(app) {
  let body;
  if (incoming.status === "reading") body = html`<p role="status">${t("share.reading")}</p>`;
  else if (incoming.status === "bad") {
    body = html`<div class="notice error" role="alert" data-testid="share-bad"><p>${t("share.bad_link", { reason: incoming.reason })}</p></div>`;
  } else if (incoming.status === "done") {
    body = html`<p role="status" class=${incoming.kind === "error" ? "field-error" : ""} data-testid="share-done">${said(incoming.message)}</p>
      ${incoming.link ? html`<p><a href=${incoming.link.href} data-testid="share-imported-link">${said(incoming.link.text)}</a></p>` : nothing}`;
  } else body = html`${summary(app)}${consent(app)}${checkingLine()}`;
  return html`<section class="card share-open" aria-labelledby="share-open-title" data-testid="share-open">
    <h2 id="share-open-title" tabindex="-1">${t("share.open_title")}</h2>${body}</section>`;
}

// ------------------------------------------------------------------ the page

/** A "Partager" pressed on a sheet, a roll or a log entry: that thing chosen, its link made
 * as soon as the engine can check it (at once when it is up). */
function chosenElsewhere(app) {
  const choice = takeShareChoice();
  if (choice) Object.assign(out, { choice, link: null, error: null, copied: false, auto: true });
  if (out.auto && app.engine.state === "ready" && !out.busy) {
    out.auto = false;
    queueMicrotask(() => makeLink(app));
  }
}

export function render(app) {
  chosenElsewhere(app);
  const [payload] = app.params;
  if (payload) {
    // Consumed at once: the data leaves the address bar (and the history entry) before anything else.
    app.params = [];
    history.replaceState(history.state, "", `${location.pathname}${location.search}#/${SHARE_ROUTE}`);
    incoming = { status: "reading" };
    queueMicrotask(() => readIncoming(app, payload));
  }
  return html`<h1 tabindex="-1">${t("share.title")}</h1>
    ${incoming ? openSection(app) : nothing}
    <div class="split">
      ${shareSection(app)}
      <section class="card" aria-labelledby="share-mj-title">
        <h2 id="share-mj-title">${t("mj.title")}</h2>
        ${mjSwitch(app)}
      </section>
    </div>
    ${linkSection(app)}`;
}
