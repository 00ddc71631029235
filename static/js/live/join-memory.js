// What a phone's join page keeps so that a join forgives: the MJ's invitation, for this tab
// (sessionStorage), from the moment the page reads it out of the address bar, so a reload
// before the name is typed still holds it; and the same invitation answers again under another
// name after the MJ's « Refuser » or a name already at the table (one invitation serves every
// phone: views/live.js). An invitation that cannot serve (expired, unreadable) is forgotten.

const KEY = "tablee.live.invitation";
/** Bound on a kept invitation's text (an invitation with several offers stays far below). */
const MAX_CHARS = 16 * 1024;

/** Keep invitation `text` for this tab. */
export function keepInvitation(text, storage = globalThis.sessionStorage) {
  try {
    if (typeof text === "string" && text.length <= MAX_CHARS) storage.setItem(KEY, text);
  } catch {
    // no session storage: a reload asks for the invitation again
  }
}

/** The invitation this tab kept, or null. */
export function keptInvitation(storage = globalThis.sessionStorage) {
  try {
    const text = storage.getItem(KEY);
    return typeof text === "string" && text !== "" && text.length <= MAX_CHARS ? text : null;
  } catch {
    return null;
  }
}

/** Forget the kept invitation (it cannot serve). */
export function forgetInvitation(storage = globalThis.sessionStorage) {
  try {
    storage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
