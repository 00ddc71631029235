// The MJ's live page (`#/live`, views/live.js): one invitation (an offer, live/rtc.js) that every
// player answers, shown as a QR code of a join link and as the link to copy; the player's answer
// is pasted or scanned with the camera (views/scan.js); the players and their connection (star
// topology: one RTCPeerConnection per player). When the devices cannot reach each other, the
// page says so in plain words and points to the share links (#/share).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { live } from "../../vendor/lit-html/directives/live.js";
import { colon, formatClock, t } from "../i18n.js";
import { mjOnly } from "../share/mj-mode.js";
import { qrMatrix, qrSvg } from "../share/qr.js";
import { announce, createOffer, iceServers, LiveError, MAX_SIGNAL_TEXT, OFFER_LIFETIME_S, readSignal, setStun, stunSetting, webrtcAvailable } from "../live/rtc.js";
import { clearClosed, closeTable, current, ensure, tableClosed } from "../live/connect.js";
import { noteRoute, relayTag, remoteSection } from "./live-remote.js";
import { hasTurn } from "../live/ice-servers.js";
import { Scan } from "./scan.js";
import { copy, joinUrl, keepMeasuring, reason, rttText, unreachableNotice, unsupportedNotice } from "./live-common.js";

/** Invitations kept waiting for an answer (older ones are closed). */
const MAX_PENDING = 8;
/** An invitation on screen is replaced by a fresh one this long before a phone would refuse it
 * as expired (rtc.js OFFER_LIFETIME_S), so the one on screen always works. */
const RENEW_AFTER_MS = (OFFER_LIFETIME_S - 30 * 60) * 1000;

const host = {
  /** Invitations waiting for an answer: id -> offer (rtc.createOffer). */
  pending: new Map(),
  /** The invitation on screen: {id, url, matrix}. */
  current: null,
  making: false,
  makeError: null,
  answer: "",
  answerError: null,
  accepting: false,
  copied: false,
  /** memberId -> {name, state: "connecting"|"connected"|"away"|"unreachable", link}. */
  players: new Map(),
  unreachable: false,
  stun: null,
  stunError: null,
  stunSaved: false,
  /** The camera scan of the answers' QR codes (views/scan.js), made with the page. */
  scan: null,
  /** The renewal of the invitation on screen (a timer). */
  renew: null,
};


async function makeInvitation(app) {
  if (host.making) return;
  ensure("mj"); // the table is published before the first player syncs
  Object.assign(host, { making: true, makeError: null, copied: false });
  app.rerender();
  try {
    const offer = await createOffer({ servers: iceServers() });
    host.pending.set(offer.id, offer);
    while (host.pending.size > MAX_PENDING) {
      const [oldest, old] = host.pending.entries().next().value;
      old.close();
      host.pending.delete(oldest);
    }
    const url = joinUrl(offer.text);
    host.current = { id: offer.id, url, matrix: qrMatrix(url), until: Date.now() + OFFER_LIFETIME_S * 1000 };
    // Renewed before it expires; the previous ones stay pending (a phone that scanned one
    // can still answer it), MAX_PENDING at most.
    clearTimeout(host.renew);
    host.renew = setTimeout(() => makeInvitation(app), RENEW_AFTER_MS);
  } catch (error) {
    host.makeError = reason(error);
  }
  host.making = false;
  app.rerender();
}

function hostLinkOpened(app, link) {
  const { memberId: member, name, key } = link.peer;
  // A phone answering with a known member's id must hold that member's key: checked before
  // anything of the member's (its link, its place) is touched.
  const refused = ensure("mj").refusalFor(member, key, name);
  if (refused === "live.refused.identity") {
    link.close();
    ensure("mj").note(member, name, "live.identity", refused); // (the feed keeps it too)
    app.notify("warning", t("live.identity_refused", { name }));
    app.rerender();
    return;
  }
  if (refused !== null) {
    // A name already at the table: the session (announced the link) tells the phone to choose
    // another, its link closing a moment later; a new device under a known away name waits for
    // the MJ's choice (views/live-recognise.js); the list of players does not change.
    announce(link, "mj", member, name, key);
    app.rerender();
    return;
  }
  listPlayer(app, member, name, link);
  announce(link, "mj", member, name, key);
}

/** Player `member`'s link is up: its line in the list says so, and its round trip. */
export function listPlayer(app, member, name, link, replaced = null) {
  if (replaced !== null) host.players.delete(replaced); // (its former device: no place any more)
  const before = host.players.get(member);
  if (before?.link && before.link !== link) before.link.close(); // the same player, joined again
  host.players.set(member, { name, state: "connected", link });
  link.addEventListener("close", () => {
    const now = host.players.get(member);
    if (now?.link === link) {
      now.state = "away";
      app.rerender();
    }
  }, { once: true });
  for (const event of ["unstable", "steady"]) link.addEventListener(event, () => app.rerender());
  keepMeasuring(app, link);
  noteRoute(link, () => app.rerender());
  app.rerender();
}

async function acceptAnswer(app) {
  if (host.accepting) return;
  const text = host.answer;
  host.answerError = null;
  let answer;
  host.accepting = true;
  try {
    answer = await readSignal(text, "answer");
  } catch (error) {
    host.answerError = reason(error);
  }
  host.accepting = false;
  if (!answer) {
    app.rerender();
    document.getElementById("live-answer")?.focus();
    return;
  }
  const offer = host.pending.get(answer.id);
  if (!offer) {
    host.answerError = t("live.bad.other_offer");
    app.rerender();
    document.getElementById("live-answer")?.focus();
    return;
  }
  // The invitation stays: every phone that opened it may answer it (rtc.js createOffer). The
  // same answer read twice (scanned, then pasted) says so and opens nothing.
  try {
    await offer.check(text);
  } catch (error) {
    host.answerError = reason(error);
    app.rerender();
    document.getElementById("live-answer")?.focus();
    return;
  }
  host.answer = "";
  // The list of players changes only for an answer that passes the key (and name) check: a
  // phone answering with Léa's id and another key never marks Léa "connexion…".
  const admitted = ensure("mj").refusalFor(answer.memberId, answer.key, answer.name) === null;
  const before = host.players.get(answer.memberId);
  if (admitted) host.players.set(answer.memberId, { name: answer.name, state: "connecting", link: before?.link ?? null });
  host.unreachable = false;
  app.rerender();
  try {
    hostLinkOpened(app, await offer.accept(text));
  } catch (error) {
    const entry = admitted ? host.players.get(answer.memberId) : null;
    if (entry && entry.state === "connecting") entry.state = "unreachable";
    if (error instanceof LiveError && error.code === "unreachable") host.unreachable = true;
    else host.answerError = reason(error);
    app.rerender();
  }
}

// Scanning the answer's QR code with the camera, on every browser (views/scan.js).
function answerScan(app) {
  host.scan ??= new Scan({
    ids: { start: "live-scan", video: "live-scan-video", stop: "live-scan-stop" },
    labels: { start: "live.scan", video: "live.scan_video" },
    onText: (text) => {
      host.answer = text;
      acceptAnswer(app);
    },
    rerender: () => app.rerender(),
  });
  return host.scan;
}

/** Once the table is open (a live session of the MJ's, also after a reload), an invitation is
 * always on screen: a phone that reloaded or slept rejoins with one scan. */
function keepInvitation(app) {
  if (host.current || host.making || host.makeError || current()?.role !== "mj" || tableClosed() || !webrtcAvailable()) return;
  queueMicrotask(() => makeInvitation(app));
}

function invitationSection(app) {
  keepInvitation(app);
  const current = host.current;
  let body;
  if (!current) {
    body = html`<p class="muted">${t("live.open_help")}</p>
      <div class="row"><button type="button" class="primary" id="live-open" ?disabled=${host.making}
        @click=${() => makeInvitation(app)}>${t("live.open")}</button></div>`;
  } else {
    body = html`<p class="muted">${t("live.invite_help")}</p>
      ${current.matrix
        ? html`<figure class="share-qr" data-testid="live-offer-qr">${qrSvg(current.matrix, t("live.offer_qr_label"))}
            <figcaption class="muted">${t("live.qr_version", { version: current.matrix.version })}</figcaption></figure>`
        : nothing}
      <label for="live-offer">${t("live.offer_label")}</label>
      <input id="live-offer" class="share-link" readonly .value=${current.url} data-length=${current.url.length}
        @focus=${(e) => e.target.select()}>
      <div class="row">
        <button type="button" id="live-offer-copy" @click=${async () => { await copy(current.url, "live-offer"); host.copied = true; app.rerender(); }}>${t("live.copy")}</button>
        <button type="button" id="live-new" ?disabled=${host.making} @click=${() => makeInvitation(app)}>${t("live.new_offer")}</button>
      </div>
      <p class="muted small" data-testid="live-offer-until">${t("live.invite_until", { time: formatClock(current.until) })}</p>`;
  }
  const why = host.making ? t("live.making") : host.copied ? t("live.copied") : "";
  return html`<section class="card" aria-labelledby="live-invite-title">
    <h2 id="live-invite-title">${t("live.invite_title")}</h2>
    ${body}
    <p role="status" class="muted" data-testid="live-invite-status">${why}</p>
    ${host.makeError ? html`<p class="field-error" role="alert">${host.makeError}</p>` : nothing}
  </section>`;
}

function answerSection(app) {
  const error = host.answerError;
  return html`<section class="card" aria-labelledby="live-answer-title">
    <h2 id="live-answer-title">${t("live.answer_title")}</h2>
    <label for="live-answer">${t("live.answer_label")}</label>
    <textarea id="live-answer" rows="3" spellcheck="false" autocomplete="off" maxlength=${MAX_SIGNAL_TEXT}
      aria-invalid=${error ? "true" : "false"} aria-describedby=${error ? "live-answer-error" : "live-answer-help"}
      .value=${live(host.answer)} @input=${(e) => { host.answer = e.target.value; }}></textarea>
    <p class="muted small" id="live-answer-help">${t("live.answer_help")}</p>
    ${error ? html`<p class="field-error" id="live-answer-error" role="alert" data-testid="live-answer-error">${error}</p>` : nothing}
    <div class="row">
      <button type="button" class="primary" id="live-accept" ?disabled=${host.accepting} @click=${() => acceptAnswer(app)}>${t("live.accept")}</button>
    </div>
    ${answerScan(app).view()}
  </section>`;
}

function playersSection(app) {
  // The players this table knows whose link is not on this page (it reloaded): their link is lost
  // until they scan the invitation again.
  const known = current()?.role === "mj" ? [...current().members] : [];
  const players = [...host.players.entries(), ...known.filter(([id]) => !host.players.has(id)).map(([id, m]) => [id, { name: m.name, state: "away", link: null }])];
  return html`<section class="card" aria-labelledby="live-players-title">
    <h2 id="live-players-title">${t("live.players_title")}</h2>
    <div aria-live="polite">
      ${players.length === 0
        ? html`<p class="muted" data-testid="live-no-player">${t("live.no_player")}</p>`
        : html`<ul class="live-players" data-testid="live-players">
            ${players.map(([id, p]) => html`<li data-member=${id} data-state=${p.state === "connected" && p.link?.unstable ? "retrying" : p.state}>
              <strong>${p.name}</strong>${colon()}<span class="live-state">${t(`live.state.${p.state === "connected" && p.link?.unstable ? "retrying" : p.state}`)}</span>
              ${p.state === "connected" ? html`<span class="muted small live-rtt">${rttText(p.link)}</span>${relayTag(p.link)}` : nothing}
              ${p.state === "connecting" && hasTurn(iceServers()) ? html`<span class="muted small">${t("live.relay_connecting")}</span>` : nothing}</li>`)}
          </ul>`}
    </div>
    ${host.unreachable ? unreachableNotice(app) : nothing}
  </section>`;
}

function stunSection(app) {
  const value = host.stun ?? stunSetting();
  return html`<details class="more-options card">
    <summary>${t("live.settings")}</summary>
    <label for="live-stun">${t("live.stun_label")}</label>
    <input id="live-stun" type="text" inputmode="url" spellcheck="false" autocomplete="off" .value=${value} maxlength="210"
      placeholder="stun:stun.example.org:3478" aria-describedby=${host.stunError ? "live-stun-error" : "live-stun-help"}
      aria-invalid=${host.stunError ? "true" : "false"} @input=${(e) => { host.stun = e.target.value; }}>
    <p class="muted small" id="live-stun-help">${t("live.stun_help")}</p>
    ${host.stunError ? html`<p class="field-error" role="alert" id="live-stun-error">${host.stunError}</p>` : nothing}
    <div class="row"><button type="button" id="live-stun-save" @click=${() => {
      const ok = setStun(host.stun ?? value);
      host.stunError = ok ? null : t("live.stun_bad");
      host.stunSaved = ok;
      if (ok) host.stun = null;
      app.rerender();
    }}>${t("live.stun_save")}</button><span role="status" class="muted">${host.stunSaved ? t("live.stun_saved") : ""}</span></div>
  </details>`;
}

/**
 * The MJ closes the table for everyone (« Quitter la table en direct », confirmed): no invitation
 * is served any more, the list of players goes, each phone is told before its link closes
 * (connect.js closeTable), and this page says the table is closed, with « Rouvrir la table ».
 */
export async function closeForEveryone(app) {
  for (const offer of host.pending.values()) offer.close();
  host.pending.clear();
  clearTimeout(host.renew);
  host.scan?.stop();
  host.players.clear();
  Object.assign(host, { current: null, answer: "", answerError: null, unreachable: false, copied: false, makeError: null });
  host.closing = true;
  const closing = closeTable();
  app.rerender();
  queueMicrotask(() => document.getElementById("live-closed-title")?.focus({ preventScroll: true }));
  await closing;
  host.closing = false;
  app.rerender();
}

/** A fresh invitation after the table was closed: each phone scans it to come back. */
async function reopen(app) {
  clearClosed();
  await makeInvitation(app);
  document.getElementById("live-offer")?.focus({ preventScroll: true });
}

/** The table this device closed: said in words, with the way to open it again (and no
 * invitation, no list of players as if they could still come back through it). */
function closedSection(app) {
  return html`<section class="card" aria-labelledby="live-closed-title" data-testid="live-closed">
    <h2 id="live-closed-title" tabindex="-1">${t("live.closed_title")}</h2>
    <p role="status">${t("live.closed_mj")}</p>
    <div class="row"><button type="button" class="primary" id="live-reopen" ?disabled=${host.making || host.closing} @click=${() => reopen(app)}>${t("live.reopen")}</button></div>
    <p class="muted small">${t("live.reopen_help")}</p>
  </section>`;
}

export const renderHost = mjOnly((app) => html`<h1 tabindex="-1">${t("live.title")}</h1>
  <p class="muted">${t("live.intro")}</p>
  ${webrtcAvailable() && tableClosed() && current()?.role !== "player"
    ? html`${closedSection(app)}${stunSection(app)}`
    : webrtcAvailable()
    ? html`<div class="split">${invitationSection(app)}${answerSection(app)}</div>${playersSection(app)}${stunSection(app)}${remoteSection(app, () => {
      host.makeError = null;
      if (host.current) makeInvitation(app);
    })}`
    : unsupportedNotice()}`);

