// What only this player's phone may see at a live table, and whether this device is one, for
// the system pages and the shell, without loading the live table's modules (Yjs) into them:
// the player's session registers its private doc's reader here (session.js, through
// live/private.js, which re-exports this module); a page asks for one owner-only pile by its
// path in the table document. Null when this device is not a player at a live table: the page
// then reads its own whole table as on one device. It imports nothing: the boot graph (the
// shell's mj-mode.js and views/player-gate.js) holds it and no live module.

let reader = null;

/** session.js: `fn()` returns the private content ({hands: [{path, cards}]}), or null to stop. */
export function setPrivateReader(fn) {
  reader = fn;
  // <html data-live-player="yes">: the stylesheet hides the links to the MJ's screens on a
  // player's phone (app.css), whatever this device's « Je suis MJ » said before it joined.
  const root = globalThis.document?.documentElement;
  if (root?.dataset) root.dataset.livePlayer = fn ? "yes" : "no";
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

/** Whether this device may change character `id` at the table: anywhere but a live player's
 * phone, and there one of the characters the MJ assigned to it, or one made on this phone that
 * the table has not received yet (its first save is the move that adds it). Another player's
 * character, or an NPC of the MJ's, is the referee's to refuse: a page shows it without the
 * controls that would change it (views/player-gate.js). */
export function ownsCharacter(id) {
  if (!reader) return true;
  const content = reader() ?? {};
  if (Array.isArray(content.characters) && content.characters.includes(id)) return true;
  return Array.isArray(content.table) && !content.table.includes(id);
}
