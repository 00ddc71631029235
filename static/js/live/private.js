// What only this player's phone may see at a live table, for the system pages, without loading
// the live table's modules (Yjs) into them: the player's session registers its private doc's
// reader here (session.js); a page asks for one owner-only pile by its path in the table
// document. Null when this device is not a player at a live table: the page then reads its
// own whole table as on one device.

let reader = null;

/** session.js: `fn()` returns the private content ({hands: [{path, cards}]}), or null to stop. */
export function setPrivateReader(fn) {
  reader = fn;
}

/** The cards of the owner-only pile at `path` ("systems.theorem.arcana.<id>.piles.hand") this
 * player holds, [] when it holds none there, or null when this device is not a live player. */
export function ownPile(path) {
  if (!reader) return null;
  const found = (reader()?.hands ?? []).find((h) => h.path === path);
  return found ? [...found.cards] : [];
}

/** The characters the MJ assigned to this player at a live table, or null when this device is
 * not a live player (a page then shows what it shows on one device). */
export function liveCharacters() {
  if (!reader) return null;
  const characters = reader()?.characters;
  return Array.isArray(characters) ? [...characters] : [];
}

/** Whether this device is a player at a live table: the MJ's device then referees its moves,
 * and a page leaves out what only the MJ does (an MJ-only control would act on nothing here). */
export const livePlayer = () => reader !== null;
