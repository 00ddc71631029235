// Dates and times the way the person reads them: local time, in the UI language
// (backups and exports named by local date and time, never by the UTC instant).

import { language } from "../i18n.js";
import { BACKUP_PREFIX, backupDate } from "../storage.js";

const locale = () => (language() === "fr" ? "fr-FR" : "en-GB");
const pad2 = (n) => String(n).padStart(2, "0");

/** "samedi 22 nov. 2026, 21:47" (fr) / "Saturday 22 Nov 2026, 21:47" (en). */
export function formatDateTime(date) {
  const day = new Intl.DateTimeFormat(locale(), { weekday: "long", day: "numeric", month: "short", year: "numeric" }).format(date);
  const time = new Intl.DateTimeFormat(locale(), { hour: "2-digit", minute: "2-digit", hour12: false }).format(date);
  return `${day}, ${time}`;
}

/**
 * A date and a time as a spreadsheet of the UI language reads them as values: French
 * "22/11/2026" and "21:47:05", English the unambiguous "2026-11-22" and "21:47:05". Local time.
 */
export function spreadsheetDateTime(date) {
  const d = pad2(date.getDate());
  const m = pad2(date.getMonth() + 1);
  const y = String(date.getFullYear()).padStart(4, "0");
  const time = `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
  return { date: language() === "fr" ? `${d}/${m}/${y}` : `${y}-${m}-${d}`, time };
}

/** A backup named as a person reads it, "samedi 22 nov. 2026, 21:47", never by its storage key. */
export function backupLabel(key) {
  const date = backupDate(key);
  return date ? formatDateTime(date) : String(key).slice(BACKUP_PREFIX.length);
}

/** A moment readable a week later, short enough for a list: « mar. 24 nov., 21:05 » (fr),
 * "Tue 24 Nov, 21:05" (en); the year only when it is not this year's. Local time. */
export function shortDateTime(date, now = new Date()) {
  const year = date.getFullYear() === now.getFullYear() ? {} : { year: "numeric" };
  const day = new Intl.DateTimeFormat(locale(), { weekday: "short", day: "numeric", month: "short", ...year }).format(date);
  const time = new Intl.DateTimeFormat(locale(), { hour: "2-digit", minute: "2-digit", hour12: false }).format(date);
  return `${day}, ${time}`;
}
