// The live table's pages (issue 15): `#/live`, where the MJ opens the table to the players, and
// `#/join/<offer>`, where a player's phone (its camera app opening the QR code's link is enough)
// answers the MJ's invitation.
//
// MJ: one invitation (an offer, live/rtc.js) that every player answers, shown as a QR code of a join link and
// as the link to copy; the player's answer is pasted or scanned with the camera (views/scan.js,
// on every browser; a phone scans the invitation the same way to rejoin); the page lists the players and their connection (star
// topology: one RTCPeerConnection per player). Player: the offer is read at once and removed
// from the address bar, the player gives a name, the page shows the answer as a QR code and as
// a text to copy, then "connecté". When the devices cannot reach each other, the page says so
// in plain words and points to the share links (#/share).
//
// The links go to the live session through rtc.onLink (live/connect.js, live/session.js): the
// table itself is replicated there; this page shows who is at the table, what this device
// plays, its private cards and the values a concurrent change replaced.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { live } from "../../vendor/lit-html/directives/live.js";
import { colon, errorMessage, formatClock, has, t } from "../i18n.js";
import { mjOnly } from "../share/mj-mode.js";
import { arcaneName } from "../systems/theorem/common.js";
import { qrMatrix, qrSvg } from "../share/qr.js";
import {
  announce,
  answerOffer,
  cleanName,
  createOffer,
  iceServers,
  LiveError,
  MAX_NAME,
  MAX_SIGNAL_TEXT,
  memberId,
  OFFER_LIFETIME_S,
  memberKey,
  readOffer,
  readSignal,
  savedName,
  saveName,
  setStun,
  stunSetting,
  webrtcAvailable,
} from "../live/rtc.js";
import { awaitingRecognition, current, ensure, leave, start, takeNameRefusal, watch } from "../live/connect.js";
import { forgetInvitation, keepInvitation as keepForThisTab, keptInvitation } from "../live/join-memory.js";
import { recogniseSection } from "./live-recognise.js";
import { noteRoute, relayFailureText, relayTag, remoteSection } from "./live-remote.js";
import { hasTurn } from "../live/ice-servers.js";
import { Scan } from "./scan.js";
import { labelOf, summaryOf } from "./log-words.js";
import { loadStylesheet } from "./ui.js";

loadStylesheet(new URL("../../css/live.css", import.meta.url).href);

export const JOIN_ROUTE = "join";
/** Invitations kept waiting for an answer (older ones are closed). */
const MAX_PENDING = 8;
/** An invitation on screen is replaced by a fresh one this long before a phone would refuse it
 * as expired (rtc.js OFFER_LIFETIME_S), so the one on screen always works. */
const RENEW_AFTER_MS = (OFFER_LIFETIME_S - 30 * 60) * 1000;
/** How often an open link's round trip is measured again. */
const PING_EVERY_MS = 10_000;

function reason(error) {
  const code = error instanceof LiveError ? error.code : "corrupt";
  return t(`live.bad.${code}`);
}

function joinUrl(text) {
  const url = new URL(location.href);
  url.hash = `#/${JOIN_ROUTE}/${text}`;
  return url.href;
}

async function copy(text, fieldId) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    document.getElementById(fieldId)?.select(); // no clipboard permission: selected for the person to copy
    return false;
  }
}

/** Measure the round trip now and every PING_EVERY_MS while the link is open. */
function keepMeasuring(app, link) {
  // Only these pages show the round trip: another page is not redrawn for it.
  const measure = () => link.ping().then(() => {
    if (app.route === "live" || app.route === JOIN_ROUTE) app.rerender();
  });
  measure();
  const timer = setInterval(measure, PING_EVERY_MS);
  link.addEventListener("close", () => clearInterval(timer), { once: true });
}

function rttText(link) {
  return link?.rtt === null || link?.rtt === undefined ? "" : t("live.rtt", { ms: Math.max(1, Math.round(link.rtt)) });
}

// ------------------------------------------------------------------ the MJ's page

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
  /** How many feed lines were new when the MJ last opened the feed (marked "nouveau"). */
  fresh: 0,
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
function listPlayer(app, member, name, link, replaced = null) {
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
  if (host.current || host.making || host.makeError || current()?.role !== "mj" || !webrtcAvailable()) return;
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

function unreachableNotice(app, code = null) {
  return html`<div class="notice error" role="alert" data-testid="live-unreachable">
    <p>${relayFailureText(code) ?? t("live.unreachable")} <a href="#/share">${t("live.fallback")}</a></p></div>`;
}

function playersSection(app) {
  const players = [...host.players.entries()];
  return html`<section class="card" aria-labelledby="live-players-title">
    <h2 id="live-players-title">${t("live.players_title")}</h2>
    <div aria-live="polite">
      ${players.length === 0
        ? html`<p class="muted" data-testid="live-no-player">${t("live.no_player")}</p>`
        : html`<ul class="live-players" data-testid="live-players">
            ${players.map(([id, p]) => html`<li data-member=${id} data-state=${p.state}>
              <strong>${p.name}</strong> — <span class="live-state">${t(`live.state.${p.state}`)}</span>
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

const renderHost = mjOnly((app) => html`<h1 tabindex="-1">${t("live.title")}</h1>
  <p class="muted">${t("live.intro")}</p>
  ${webrtcAvailable()
    ? html`<div class="split">${invitationSection(app)}${answerSection(app)}</div>${playersSection(app)}${stunSection(app)}${remoteSection(app, () => {
      host.makeError = null;
      if (host.current) makeInvitation(app);
    })}`
    : unsupportedNotice()}`);

/** A browser with no WebRTC (Debian's WebKitGTK) says so in plain words instead of failing. */
function unsupportedNotice() {
  return html`<div class="notice error" role="alert" data-live-unsupported><p>${t("live.unsupported")} <a href="#/share">${t("live.fallback")}</a></p></div>`;
}

// ------------------------------------------------------------------ the player's page

/**
 * The join in progress: {status: "none"|"reading"|"bad"|"name"|"answering"|"answer"|"connected"|"away"|"unreachable",
 * offer, error, text, matrix, link, name, nameError}.
 */
let join = { status: "none" };
let joinPaste = "";
/** This phone's open link to the MJ (a rejoin replaces it). */
let playerLink = null;

async function readInvitation(app, text) {
  join = { status: "reading" };
  app.rerender();
  try {
    const offer = await readOffer(text);
    join = { status: "name", offer, name: savedName() };
  } catch (error) {
    forgetInvitation(); // (it cannot serve: a reload does not show it again)
    join = { status: "bad", error: reason(error) };
  }
  app.rerender();
  document.getElementById("live-join-title")?.focus({ preventScroll: true });
}

async function makeAnswer(app) {
  const name = cleanName(join.name ?? "");
  if (name === null) {
    join = { ...join, nameError: t("live.name_bad", { max: MAX_NAME }) };
    app.rerender();
    document.getElementById("live-name")?.focus();
    return;
  }
  saveName(name);
  takeNameRefusal(); // (a refusal heard before this answer is not this answer's)
  const { offer } = join;
  join = { status: "answering", offer, name };
  app.rerender();
  let answer;
  try {
    answer = await answerOffer(offer, { member: memberId(), name, servers: iceServers() });
  } catch (error) {
    join = { status: "bad", error: reason(error) };
    app.rerender();
    return;
  }
  join = { status: "answer", name, text: answer.text, matrix: qrMatrix(answer.text), copied: false, relay: hasTurn(offer.ice) };
  app.rerender();
  document.getElementById("live-join-title")?.focus({ preventScroll: true });
  const current = join;
  try {
    const link = await answer.link;
    if (join !== current) {
      link.close(); // the player went on to another invitation meanwhile
      return;
    }
    if (playerLink && playerLink !== link) playerLink.close(); // joined again: one link to the MJ
    playerLink = link;
    join = { status: "connected", name, link };
    link.addEventListener("close", () => {
      if (join.link !== link) return;
      // A name refused (taken, or the MJ's « Refuser »): the same invitation answers again
      // under another name (join-memory.js); any other close is a link away.
      const taken = takeNameRefusal();
      join = taken ? { status: "name", offer, name, nameError: t("live.name_again", { name }) } : { status: "away", name };
      app.rerender();
      if (taken) document.getElementById("live-name")?.focus();
    }, { once: true });
    announce(link, "player", memberId(), name, memberKey());
    keepMeasuring(app, link);
    noteRoute(link, () => app.rerender());
  } catch (error) {
    // The Wi-Fi is blamed only when the MJ's device reached this phone and the connection
    // still failed; no word from it is an invitation it no longer serves (rtc.js answerOffer).
    const status = error instanceof LiveError && error.code === "unanswered" ? "unanswered" : "unreachable";
    if (join === current) join = { status, name, code: error?.code ?? null };
  }
  app.rerender();
}

/** The camera scan of the MJ's invitation on this phone (views/scan.js): a rejoin without
 * leaving the page. */
let inviteScan = null;

function invitationScan(app) {
  inviteScan ??= new Scan({
    ids: { start: "live-join-scan", video: "live-join-scan-video", stop: "live-join-scan-stop" },
    labels: { start: "live.scan_invitation", video: "live.scan_video_invitation" },
    onText: (text) => readInvitation(app, text),
    rerender: () => app.rerender(),
  });
  return inviteScan;
}

function pasteForm(app) {
  return html`${invitationScan(app).view()}<form class="live-paste" @submit=${(e) => { e.preventDefault(); readInvitation(app, joinPaste); }}>
    <label for="live-invitation">${t("live.paste_invitation")}</label>
    <textarea id="live-invitation" rows="2" spellcheck="false" autocomplete="off" maxlength=${MAX_SIGNAL_TEXT}
      .value=${live(joinPaste)} @input=${(e) => { joinPaste = e.target.value; }}></textarea>
    <div class="row"><button type="submit" id="live-invitation-read">${t("live.read_invitation")}</button></div>
  </form>`;
}

function joinBody(app) {
  switch (join.status) {
    case "reading":
      return html`<p role="status">${t("live.reading")}</p>`;
    case "bad":
      return html`<div class="notice error" role="alert" data-testid="live-join-bad"><p>${t("live.bad_invitation", { reason: join.error })}</p></div>
        ${pasteForm(app)}`;
    case "name":
      return html`<form @submit=${(e) => { e.preventDefault(); makeAnswer(app); }}>
        <p>${t("live.join_help")}</p>
        <label for="live-name">${t("live.name_label")}</label>
        <input id="live-name" type="text" autocomplete="nickname" maxlength=${MAX_NAME * 2} .value=${join.name ?? ""}
          aria-invalid=${join.nameError ? "true" : "false"} aria-describedby=${join.nameError ? "live-name-error" : nothing}
          @input=${(e) => { join.name = e.target.value; }}>
        ${join.nameError ? html`<p class="field-error" role="alert" id="live-name-error">${join.nameError}</p>` : nothing}
        <div class="row"><button type="submit" class="primary" id="live-join">${t("live.join")}</button></div>
      </form>`;
    case "answering":
      return html`<p role="status">${t("live.answering")}</p>`;
    case "answer":
      return html`<p>${t("live.answer_give")}</p>
        ${join.matrix
          ? html`<figure class="share-qr" data-testid="live-answer-qr">${qrSvg(join.matrix, t("live.answer_qr_label"))}
              <figcaption class="muted">${t("live.qr_version", { version: join.matrix.version })}</figcaption></figure>`
          : nothing}
        <label for="live-answer-text">${t("live.answer_text_label")}</label>
        <textarea id="live-answer-text" class="share-link" readonly rows="4" .value=${join.text} data-length=${join.text.length}
          @focus=${(e) => e.target.select()}></textarea>
        <div class="row"><button type="button" id="live-answer-copy" @click=${async () => { await copy(join.text, "live-answer-text"); join.copied = true; app.rerender(); }}>${t("live.copy_answer")}</button></div>
        <p role="status" data-testid="live-join-state" data-state="waiting">${join.copied ? t("live.copied") : ""} ${t(join.relay ? "live.relay_connecting" : "live.waiting_mj")}</p>`;
    case "connected":
      if (awaitingRecognition()) {
        return html`<p role="status" data-testid="live-join-state" data-state="recognition">${t("live.recognise_wait", { name: join.name })}</p>`;
      }
      return html`<p role="status" class="live-connected" data-testid="live-join-state" data-state="connected">${t("live.connected", { name: join.name })}
        <span class="muted small live-rtt">${rttText(join.link)}</span>${relayTag(join.link)}</p>`;
    case "away":
      return html`<p role="status" data-testid="live-join-state" data-state="away">${t("live.away")}</p>${pasteForm(app)}`;
    case "unreachable":
      return html`<div role="status" data-testid="live-join-state" data-state="unreachable">${unreachableNotice(app, join.code)}</div>${pasteForm(app)}`;
    case "unanswered":
      return html`<div class="notice warning" role="alert" data-testid="live-join-state" data-state="unanswered"><p>${t("live.unanswered")}</p></div>${pasteForm(app)}`;
    default:
      return html`<p>${t("live.join_none")}</p>${pasteForm(app)}`;
  }
}

function renderJoin(app) {
  const [payload] = app.params;
  if (payload) {
    // Consumed at once: the invitation leaves the address bar (and the history entry).
    app.params = [];
    history.replaceState(history.state, "", `${location.pathname}${location.search}#/${JOIN_ROUTE}`);
    keepForThisTab(payload); // (a reload before the name is typed keeps it)
    join = { status: "reading" };
    queueMicrotask(() => readInvitation(app, payload));
  } else if (join.status === "none" && keptInvitation()) {
    const kept = keptInvitation();
    join = { status: "reading" };
    queueMicrotask(() => readInvitation(app, kept));
  }
  if (!webrtcAvailable()) return html`<h1 tabindex="-1">${t("live.join_title")}</h1>${unsupportedNotice()}`;
  return html`<h1 tabindex="-1">${t("live.join_title")}</h1>
    <section class="card" aria-labelledby="live-join-title">
      <h2 id="live-join-title" tabindex="-1">${t("live.join_subtitle")}</h2>
      <div aria-live="polite">${joinBody(app)}</div>
    </section>`;
}

// ------------------------------------------------------------------ the session (both sides)

let watching = false;

function characterName(app, id) {
  return app.doc.characters.find((c) => c.id === id)?.name ?? id;
}

function peopleList(app, session) {
  const people = session.presence();
  return html`<ul class="live-people" data-testid="live-people">
    ${people.map((p) => html`<li data-member=${p.id} data-here=${p.here ? "yes" : "no"}>
      <strong>${p.name}</strong>${p.me ? html` <span class="muted">(${t("live.you")})</span>` : nothing}
      — ${p.role === "mj" ? t("live.role_mj") : t("live.role_player")}, ${p.here ? t("live.here") : t("live.away_short")}
      ${p.characters.length ? html`<span class="muted"> · ${t("live.plays", { names: p.characters.map((id) => characterName(app, id)).join(", ") })}</span>` : nothing}
    </li>`)}
  </ul>`;
}

function claimForm(app, session) {
  const chars = app.doc.characters;
  if (!chars.length) return html`<p class="muted">${t("live.claim_none")}</p>`;
  const mine = new Set(session.assigned());
  const asked = session.asked();
  // The whole set this player wants: asking sends it, the MJ confirms it on their device.
  const wanted = new Set(asked.length ? asked : mine);
  const toggle = (id, on) => session.ask(on ? [...wanted, id] : [...wanted].filter((x) => x !== id));
  return html`<fieldset class="live-claim"><legend>${t("live.claim_title")}</legend>
    <p class="muted small">${t("live.claim_help")}</p>
    ${chars.map((c) => html`<label class="check"><input type="checkbox" data-character=${c.id} data-assigned=${mine.has(c.id) ? "yes" : "no"}
      .checked=${wanted.has(c.id)} @change=${(e) => toggle(c.id, e.target.checked)}>
      ${c.name}</label>`)}
    ${asked.length ? html`<p class="muted small" data-testid="live-asked">${t("live.asked", { names: asked.map((id) => characterName(app, id)).join(", ") })}</p>` : nothing}
  </fieldset>`;
}

/** The MJ confirms what players asked for (a character is played by one player at a time). A
 * character another player plays already is said plainly and has its own button, which says
 * that it takes the character from that player: never handed over by the « Confirmer » of the
 * rest (a phone under a known name could otherwise take a player's character and hand). */
function assignSection(app, session) {
  const asking = session.presence().filter((p) => p.role === "player" && p.asked.length);
  if (!asking.length) return nothing;
  const holder = new Map();
  for (const p of session.presence()) for (const c of p.characters) holder.set(c, p);
  return html`<div data-testid="live-assign"><h3>${t("live.assign_title")}</h3><ul>
    ${asking.map((p) => {
      const free = p.asked.filter((id) => !holder.get(id) || holder.get(id).id === p.id);
      const taken = p.asked.filter((id) => !free.includes(id));
      return html`<li data-member=${p.id}><strong>${p.name}</strong>${colon()}${free.map((id) => html`${characterName(app, id)}; `)}
      ${free.length ? html`<button type="button" data-confirm=${p.id} @click=${() => session.assign(p.id, free)}>${t("live.assign_confirm")}</button>` : nothing}
      ${taken.map((id) => html`<p class="live-contested" data-contested=${id}>${t("live.assigned_elsewhere_plain", { character: characterName(app, id), other: holder.get(id).name })}
        <button type="button" data-take=${id} @click=${() => session.assign(p.id, [...new Set([...p.characters, id])])}>${t("live.assign_take", { character: characterName(app, id), other: holder.get(id).name, name: p.name })}</button></p>`)}</li>`;
    })}
  </ul></div>`;
}

/** A phone's moves waiting for the table (no link): each can be cancelled. */
function pendingSection(session) {
  if (!session.queue.length) return nothing;
  return html`<div data-testid="live-pending" role="status"><h3>${t("live.pending_title", { n: session.queue.length })}</h3>
    <p class="muted small">${t("live.pending_help")}</p>
    <ul>${session.queue.map((q) => html`<li data-move=${q.id}>${q.label ?? opLabel(q.move.op)}
      <button type="button" @click=${() => session.cancel(q.id)}>${t("live.pending_cancel")}</button></li>`)}</ul>
  </div>`;
}

/** A hidden card as its player reads it: an arcane by its name ("Le Bateleur"), never its id. */
function cardWords(id) {
  return typeof id === "string" && /^arcane-\d\d$/.test(id) ? arcaneName(Number(id.slice(-2))) : id;
}

/** What a move does, in words ("Théorem : pioche sa main d'arcanes"); an op no page sends (a
 * hostile phone's) is quoted as it came, as text. */
function opLabel(op) {
  return has(`live.op.${op}`) ? t(`live.op.${op}`) : t("live.op.unknown", { op });
}

/** Why the referee refused a move, said to the MJ ("ce personnage n'est pas l'un des siens");
 * a rule's refusal by the engine is its own message. */
function refusalReason(code) {
  return has(`live.why.${code}`) ? t(`live.why.${code}`) : errorMessage({ code });
}

/** What a feed line says happened: done, refused and why, or for a member's grouped refusals
 * how many and the commonest reason ("57 refus, dont 31 : message illisible"). */
function feedOutcome(f) {
  if (!f.code) return t("live.feed_done");
  const count = Number.isInteger(f.count) ? f.count : 1;
  if (count < 2) return t("live.feed_refused", { reason: refusalReason(f.code) });
  const [top, k] = Object.entries(f.kinds ?? { [f.code]: count }).sort((a, b) => b[1] - a[1])[0];
  return k === count ? t("live.feed_refusals_one", { n: count, reason: refusalReason(top) })
    : t("live.feed_refusals", { n: count, k, reason: refusalReason(top) });
}

/** What a feed line's move did, in the words of the log entry the referee wrote for it (its
 * label and its result line, as the phone's page worded them: "Mécanique 7d6 · Réussite
 * (marge +3)"), or the move's name when it logged nothing. */
function feedWhat(app, f) {
  const entry = f.logged && !f.code ? app.doc.log.findLast((e) => e?.id === f.logged) : null;
  if (!entry) return html`<span data-op=${f.op}>${opLabel(f.op)}</span> · ${feedOutcome(f)}`;
  const summary = summaryOf(entry, app); // in the MJ's language (log-words.js)
  const total = entry.result?.total !== undefined && entry.result?.total !== null ? ` (${entry.result.total})` : "";
  return html`<span data-op=${f.op} data-testid="live-feed-words">${labelOf(entry, app) || opLabel(f.op)}${summary || total ? `${colon()}${summary}${total}` : ""}</span>`;
}

/** What the MJ still has to decide for the moves that arrived, with its one tap: Point Zéro's
 * gauge counts the players' points from their first move (py/tablee/referee.py _first_state),
 * and its Tension critique waits for the scenario's secret threshold, the MJ's alone
 * (rules/README.md, Point Zéro, "Jauge de Tension"). */
function feedToDecide(session, app) {
  const pz = app.doc.systems?.pointzero;
  if (!pz || pz.threshold !== null || !session.feed.some((f) => !f.code && String(f.op).startsWith("pointzero."))) return nothing;
  return html`<p class="notice" data-testid="live-feed-decide">${t("live.feed_pz_threshold")}
    <a class="button" href="#/pointzero/mj">${t("live.feed_pz_threshold_go")}</a></p>`;
}

/** The MJ's feed of the moves that arrived (newest first), with how many are unseen: the last
 * `unseen` lines, each marked "nouveau" (every one of them is shown). */
function feedSection(session, app) {
  if (session.unseen > 0) {
    // The MJ opened the feed: what arrived is seen (the count beside the link goes), and the
    // lines that were new say so until the next ones come.
    host.fresh = session.unseen;
    queueMicrotask(() => session.seen());
  }
  // One line per move: a page's words for its move's entry (live.log.label) are that line's
  // words (feedWhat), never a line (a feed kept from before said them apart). The lines marked
  // "nouveau" are the last `fresh` of the feed, and the heading counts those marks.
  const fresh = host.fresh ?? 0;
  const shown = session.feed.map((f, at) => ({ f, fresh: at >= session.feed.length - fresh }))
    .filter(({ f }) => !(f.op === "live.log.label" && !f.code));
  const items = shown.slice(-Math.max(30, fresh)).reverse();
  const marked = items.filter((line) => line.fresh).length;
  return html`<section class="card" aria-labelledby="live-feed-title" data-testid="live-feed" data-unseen=${marked}><h2 id="live-feed-title">${marked ? t("live.feed_title", { n: marked }) : t("live.feed_title_none")}</h2>
    ${feedToDecide(session, app)}
    ${items.length ? html`<ul>${items.map(({ f, fresh: isNew }) => html`<li data-code=${f.code ?? ""} data-count=${f.count ?? 1} data-new=${isNew ? "yes" : "no"}>${isNew ? html`<span class="live-new">${t("live.feed_new")}</span> ` : nothing}<strong>${f.name}</strong> · ${feedWhat(app, f)}
      <span class="muted small">(${formatClock(f.at, { seconds: true })})</span></li>`)}</ul>` : html`<p class="muted">${t("live.feed_empty")}</p>`}
    ${session.unseen ? html`<button type="button" @click=${() => session.seen()}>${t("live.feed_seen")}</button>` : nothing}
  </section>`;
}

function handsSection(app, session) {
  const { hands } = session.privateContent();
  return html`<div data-testid="live-hands"><h3>${t("live.hand_title")}</h3>
    ${hands.length === 0
      ? html`<p class="muted">${t("live.no_hand")}</p>`
      : html`<ul>${hands.map((h) => html`<li data-owner=${h.owner}>${characterName(app, h.owner)} (${t(`nav.${h.system}`)})${colon()}${h.cards.length ? h.cards.map(cardWords).join(", ") : t("live.hand_empty")}</li>`)}</ul>`}
  </div>`;
}

function sessionSection(app) {
  const session = current();
  if (!session) return nothing;
  if (session.role === "player" && !session.joined) {
    return html`<section class="card" data-testid="live-session" data-joined="no"><p role="status">${t("live.syncing")}</p></section>`;
  }
  return html`<section class="card" aria-labelledby="live-session-title" data-testid="live-session" data-joined="yes">
    <h2 id="live-session-title">${t("live.session_title")}</h2>
    <div aria-live="polite">${peopleList(app, session)}</div>
    ${session.role === "player" ? html`${pendingSection(session)}${claimForm(app, session)}${handsSection(app, session)}`
      : assignSection(app, session)}
    <div class="row"><button type="button" id="live-leave" @click=${() => { leave(); app.rerender(); }}>${t("live.leave")}</button></div>
    <p class="muted small">${t("live.leave_help")}</p>
  </section>`;
}

// ------------------------------------------------------------------ the page

export function render(app) {
  start(app);
  if (!watching) {
    watching = true;
    watch(() => app.rerender());
  }
  if (app.route === JOIN_ROUTE) return html`${renderJoin(app)}${sessionSection(app)}`;
  // The MJ's feed first: what the phones did (and what was refused) is what the MJ looks for.
  const session = current();
  const feed = session?.role === "mj" ? feedSection(session, app) : nothing;
  // A new device under a known player's name comes before all: the MJ's choice is awaited.
  const recognise = session?.role === "mj" ? recogniseSection(app, session, (id, name, link, was) => listPlayer(app, id, name, link, was)) : nothing;
  return html`${recognise}${feed}${renderHost(app)}${sessionSection(app)}`;
}
