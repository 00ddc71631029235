// The player's live page (`#/join/<offer>`, views/live.js): the offer is read at once and
// removed from the address bar (kept for the tab until the phone joins: a reload before the name
// is typed still holds it, live/join-memory.js), the player gives a name, the page shows the
// answer as a QR code and as a text to copy, then "connecté"; a name refused (taken, or the
// MJ's « Refuser ») asks for another and answers the same invitation again; a phone scans or
// pastes an invitation the same way to rejoin.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { live } from "../../vendor/lit-html/directives/live.js";
import { t } from "../i18n.js";
import { qrMatrix, qrSvg } from "../share/qr.js";
import { announce, answerOffer, cleanName, iceServers, LiveError, MAX_NAME, MAX_SIGNAL_TEXT, memberId, memberKey, readOffer, savedName, saveName, webrtcAvailable } from "../live/rtc.js";
import { awaitingRecognition, current, tableClosed, takeNameRefusal } from "../live/connect.js";
import { forgetInvitation, keepInvitation, keptInvitation } from "../live/join-memory.js";
import { noteRoute, relayTag } from "./live-remote.js";
import { hasTurn } from "../live/ice-servers.js";
import { Scan } from "./scan.js";
import { JOIN_ROUTE, copy, keepMeasuring, reason, rttText, unreachableNotice, unsupportedNotice } from "./live-common.js";


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
    forgetInvitation(); // (joined: a reload is a rejoin, which the page offers)
    link.addEventListener("close", () => {
      if (join.link !== link) return;
      // A name refused (taken, or the MJ's « Refuser »): the same invitation answers again
      // under another name; any other close is a link away.
      const taken = takeNameRefusal();
      join = taken ? { status: "name", offer, name, nameError: t("live.name_again", { name }) } : { status: "away", name };
      app.rerender();
      if (taken) document.getElementById("live-name")?.focus();
    }, { once: true });
    announce(link, "player", memberId(), name, memberKey());
    for (const event of ["unstable", "steady"]) link.addEventListener(event, () => app.rerender());
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
      if (join.link?.unstable) {
        return html`<p role="status" data-testid="live-join-state" data-state="retrying">${t("live.retrying")}</p>`;
      }
      return html`<p role="status" class="live-connected" data-testid="live-join-state" data-state="connected">${t("live.connected", { name: join.name })}
        <span class="muted small live-rtt">${rttText(join.link)}</span>${relayTag(join.link)}</p>`;
    case "away":
      return tableClosed() ? closedNotice(app)
        : html`<div class="notice warning" role="status" data-testid="live-join-state" data-state="away"><p><strong>${t("live.lost")}</strong> ${t("live.away")}</p></div>${pasteForm(app)}`;
    case "unreachable":
      return html`<div role="status" data-testid="live-join-state" data-state="unreachable">${unreachableNotice(app, join.code)}</div>${pasteForm(app)}`;
    case "unanswered":
      return html`<div class="notice warning" role="alert" data-testid="live-join-state" data-state="unanswered"><p>${t("live.unanswered")}</p></div>${pasteForm(app)}`;
    default:
      // A phone that follows a table and has no link (its page reloaded, or opened again): its
      // table and hand are below, and the way back is here (the MJ's invitation).
      if (current()?.role === "player") {
        return tableClosed() ? closedNotice(app)
          : html`<p role="status" data-testid="live-join-state" data-state="offline">${t("live.offline")}</p>${pasteForm(app)}`;
      }
      return html`<p>${t("live.join_none")}</p>${pasteForm(app)}`;
  }
}

/** The MJ closed the table (a message received, never a cut link): what this phone keeps, and
 * the way back if the MJ opens it again. */
function closedNotice(app) {
  return html`<div class="notice" role="status" data-testid="live-join-state" data-state="closed">
    <p><strong>${t("live.closed_by_mj")}</strong> ${t("live.closed_keeps")}</p></div>${pasteForm(app)}`;
}

export function renderJoin(app) {
  const [payload] = app.params;
  if (payload) {
    // Consumed at once: the invitation leaves the address bar (and the history entry).
    app.params = [];
    history.replaceState(history.state, "", `${location.pathname}${location.search}#/${JOIN_ROUTE}`);
    keepInvitation(payload); // (a reload before the name is typed keeps it)
    join = { status: "reading" };
    queueMicrotask(() => readInvitation(app, payload));
  } else if (join.status === "none" && current()?.role !== "player" && keptInvitation()) {
    // (this tab's page reloaded before it joined: the invitation it had read)
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
