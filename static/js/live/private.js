// The reader of what only this player's phone may see, for the system pages: kept in
// static/js/player-role.js (no import, so the shell's own pages may ask whether this device is
// a player at a live table without loading any live module); this name is the live layer's.
export * from "../player-role.js";
