/**
 * The id of the table's last saved revision, where every tab reads the same value at once.
 *
 * localStorage is read from a copy each tab keeps, which the browser updates some time after
 * another tab writes: a tab given the shared write lock may still read the table as it was
 * before the last write of another tab, and writing on that would overwrite a change reported
 * as saved. IndexedDB has no such copy (each transaction is answered by the browser itself), so
 * the writer records the revision it wrote here before it lets go of the lock, and the next
 * writer waits until its own copy of localStorage has reached that revision before it reads.
 *
 * Where IndexedDB cannot be opened (a private window of some browsers, a storage error), every
 * function answers null and the app falls back to the revision chain alone (app.js).
 */

const DB_NAME = "tablee-saved-head";
const STORE = "head";
const KEY = "rev";

let opening = null;

/** The database (opened once per tab), or null when it cannot be opened. */
function open() {
  if (opening) return opening;
  opening = new Promise((resolve) => {
    let request;
    try {
      request = indexedDB.open(DB_NAME, 1);
    } catch {
      resolve(null);
      return;
    }
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => {
      const db = request.result;
      // Site data being cleared (or a newer version of this store) must not wait for this tab.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      db.onclose = () => {
        opening = null;
      };
      resolve(db);
    };
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
  return opening;
}

/** Run `work(store)` in one transaction; resolves with its request's result once the
 * transaction is complete, or null when anything fails. */
async function transact(mode, work) {
  const db = await open();
  if (!db) return null;
  return new Promise((resolve) => {
    let result = null;
    try {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      request.onsuccess = () => {
        result = request.result ?? null;
      };
      tx.oncomplete = () => resolve(result);
      tx.onerror = () => resolve(null);
      tx.onabort = () => resolve(null);
    } catch {
      opening = null; // a closed connection: open again next time
      resolve(null);
    }
  });
}

/** The last revision id recorded, or null (none yet, or no IndexedDB). */
export async function readHead() {
  const value = await transact("readonly", (store) => store.get(KEY));
  return typeof value === "string" ? value : null;
}

/** Record `id` as the last revision written; resolves once it is committed. */
export async function writeHead(id) {
  await transact("readwrite", (store) => store.put(id, KEY));
}

/**
 * Wait until `reached()` is true (this tab's copy of localStorage holds the head revision or
 * one made after it), checking every `step` ms, at most `patience` ms. Resolves true when it
 * was reached, false when the patience ran out (the head was left by storage since cleared, or
 * by another version of the app: the caller writes on what it sees, as before).
 */
export async function waitUntil(reached, { patience = 5000, step = 10 } = {}) {
  const start = Date.now();
  while (!reached()) {
    if (Date.now() - start >= patience) return false;
    await new Promise((resolve) => setTimeout(resolve, step));
  }
  return true;
}
