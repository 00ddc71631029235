// The Versality table state's gatekeeper. The whole state (document.systems.versality)
// holds the MJ's secrets (catastrophe, tokens, power uses): only this module and the MJ
// screen (mj.js, behind its "Je suis MJ" switch) read it. Player pages get the player
// projection (versality.view.player) through `playerView`, and call the player ops through
// `playerCall`, which adds the table state to the request, merges the op's public answer
// into it (versality.state.merge), saves it and hands the page the rest of the answer (its
// `view`, never a state).

import { engineChange, putSystem, requestCache } from "../../views/ui.js";
import { findSystemCharacter } from "../../views/characters.js";

const EMPTY_STATE = Object.freeze({ catastrophe: 0, tokens: 0, session: 0, awarded_session: null, power_uses: [], decks: {}, pending: {} });

/** The whole table state (MJ data included). For this module and the MJ screen only. */
export function fullState(doc) {
  return doc.systems?.versality ?? structuredClone(EMPTY_STATE);
}

const characterOf = (doc, id) => (id === null ? null : findSystemCharacter(doc, "versality", id) ?? null);

/** A character leaves the table: its deck and pending test go with it. */
export function forgetCharacter(doc, id) {
  const st = doc.systems?.versality;
  if (st && Object.hasOwn(st.decks, id)) delete st.decks[id];
  if (st && Object.hasOwn(st.pending, id)) delete st.pending[id];
}

const viewCache = requestCache({ keepStale: true });
const primed = { key: null, view: null };

/** The player projection of the table state (versality.view.player), or null until the
 * engine has answered once. Re-asked whenever the saved state changes. */
export function playerView(app) {
  const state = fullState(app.doc);
  const key = JSON.stringify(state);
  if (primed.key === key) return primed.view;
  const r = viewCache(app, { op: "versality.view.player", state }, key);
  return r && !r.error ? r.view : null;
}

/** The name of the character a player op is about: the request's character, or the one its
 * `character_id` names in the table (a resolution sends only the id). */
function nameFor(doc, req) {
  return req.character?.name ?? characterOf(doc, req.character_id ?? null)?.name ?? "";
}

/** Whether the table holds a deck for this character (who has a deck is no secret: the player
 * view lists the same decks). Read from the saved table, never from the projection's cache,
 * which is empty until the engine has answered once: a sheet opened directly must know it at
 * once (a card bought there must reach the deck). */
export function hasTableDeck(doc, id) {
  return Object.hasOwn(fullState(doc).decks, id);
}

/** The player ops that change the table state (their answer carries `public`); any other
 * (odds) only reads it. */
const WRITING_OPS = new Set(["versality.deck.build", "versality.deck.sync", "versality.test.draw", "versality.test.resolve"]);
/** What each of them is called in the undo bar and the Table page's list ("Table Versality
 * modifiée" said nothing of which draw or whose deck). */
const CHANGE_LABELS = {
  "versality.deck.build": "versality.change.deck", "versality.deck.sync": "versality.change.deck",
  "versality.test.draw": "versality.change.draw", "versality.test.resolve": "versality.change.resolve",
};

/**
 * A player op (deck build/sync, test odds/draw/resolve): the table state is added here.
 * The engine answers a player op without the MJ's data: `view`, `public` (the new state
 * minus catastrophe, tokens, power uses) and `penalties`; the store's op
 * versality.state.merge rebuilds the whole state from the previous one, which is saved
 * here. The page receives the answer without `public`/`penalties` (the `view` the engine
 * projected for the players, the test, the result).
 *
 * A changing op runs on the latest table (views/ui.js engineChange): the state, and the
 * request's `character` read again by its id, are those saved when its turn comes, and the
 * merged state is written only if the state it was computed from is still the saved one (else
 * it is asked again): a draw and a resolve made in a burst, or a deck sync after a purchase,
 * never write a state computed from a copy the page held before the previous change.
 */
export async function playerCall(app, request) {
  if (!WRITING_OPS.has(request.op)) return app.call({ ...request, state: fullState(app.doc) });
  const box = { error: null, busy: false };
  const characterId = request.character?.id ?? null;
  const answer = await engineChange(app, box, {
    request: (doc) => {
      const req = { ...request, state: fullState(doc) };
      if (characterId !== null) {
        req.character = characterOf(doc, characterId);
        if (!req.character) return null;
      }
      return req;
    },
    call: async (req) => {
      const r = await app.call(req);
      if (r.error || !("public" in r)) return r;
      const { public: pub, penalties, ...rest } = r;
      const merged = await app.call({ op: "versality.state.merge", state: req.state, public: pub, penalties });
      return merged.error ? merged : { ...rest, state: merged.state };
    },
    basis: (doc) => [doc.systems?.versality ?? null, characterOf(doc, characterId)],
    apply: (doc, r) => {
      putSystem(doc, "versality", r.state);
    },
    shallow: true,
    writes: (r) => "state" in r,
    // A resolution sends only the character's id (character_id): the label names it from the table.
    label: (r, req, doc) => ({ key: CHANGE_LABELS[request.op], params: { name: nameFor(doc, req) } }),
  });
  if (!answer) return { error: box.error ?? { code: "change.stale", message_key: "error.change.stale", params: {} } };
  const { state, ...rest } = answer;
  primed.key = JSON.stringify(state);
  primed.view = rest.view;
  return rest;
}

/** `app` whose `call` goes through `playerCall` (for the shared busy/report helpers). */
export function playerApp(app) {
  return new Proxy(app, {
    get(target, prop) {
      if (prop === "call") return (request) => playerCall(target, request);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** How many cards a deck of the player view holds (every pile counted, hidden ones too). */
export function deckSize(deck) {
  return Object.values(deck.piles).reduce((n, pile) => n + pile.count, 0);
}
