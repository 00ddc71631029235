// The live table's pages: `#/live`, where the MJ opens the table to the players, and
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

// The pages' parts: live-host.js (the MJ's invitation, answers and players), live-join.js (a
// phone's join), live-table.js (who is at the table), live-feed.js (the MJ's feed of moves),
// live-common.js (what they share).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { current, start, watch } from "../live/connect.js";
import { recogniseSection } from "./live-recognise.js";
import { loadStylesheet } from "./ui.js";
import { JOIN_ROUTE } from "./live-common.js";
import { listPlayer, renderHost } from "./live-host.js";
import { renderJoin } from "./live-join.js";
import { feedSection } from "./live-feed.js";
import { sessionSection } from "./live-table.js";

export { JOIN_ROUTE };

loadStylesheet(new URL("../../css/live.css", import.meta.url).href);

let watching = false;

// ------------------------------------------------------------------ the page

export function render(app) {
  start(app);
  if (!watching) {
    watching = true;
    watch(() => app.rerender());
  }
  const session = current();
  // A phone that follows a table gets its own page on either route (reloaded on « Table en
  // direct »): its table, its hand and the way back, never the MJ's screen to claim first.
  if (app.route === JOIN_ROUTE || session?.role === "player") return html`${renderJoin(app)}${sessionSection(app)}`;
  // The MJ's feed first: what the phones did (and what was refused) is what the MJ looks for.
  const feed = session?.role === "mj" ? feedSection(session, app) : nothing;
  // A new device under a known player's name comes before all: the MJ's choice is awaited.
  const recognise = session?.role === "mj" ? recogniseSection(app, session, (id, name, link, was) => listPlayer(app, id, name, link, was)) : nothing;
  return html`${recognise}${feed}${renderHost(app)}${sessionSection(app)}`;
}
