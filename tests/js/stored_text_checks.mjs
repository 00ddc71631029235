// What storage.js writes to localStorage, and how it counts it (tests/test_stored_text.py): reads
// {table, old} as JSON on stdin and answers one JSON object of findings on stdout. The storage is
// a Map that keeps exactly the strings it is given.
import { backup, pruneBackups, readableText, REV_KEY, save, storageParts, storageUsage, storedBytes, storedJsonText, textHash, toStoredJson } from "../../static/js/storage.js";
import { writeHistory, HISTORY_KEY } from "../../static/js/undo.js";
import { memoryStorage } from "../live/memory_storage.mjs";

const maxCode = (s) => {
  let max = 0;
  for (let i = 0; i < s.length; i += 1) max = Math.max(max, s.charCodeAt(i));
  return max;
};

/** localStorage as WebKit counts it: a write that would take the site past `quota` bytes (keys
 * and values, storedBytes) throws and changes nothing. */
function webkitStorage(quota = 5242308) {
  const storage = memoryStorage();
  const used = () => [...storage.data].reduce((n, [k, v]) => n + storedBytes(k) + storedBytes(v), 0);
  const set = storage.setItem;
  storage.setItem = (k, v) => {
    const before = storage.data.has(k) ? storedBytes(k) + storedBytes(storage.data.get(k)) : 0;
    if (used() - before + storedBytes(k) + storedBytes(String(v)) > quota) throw new DOMException("full", "QuotaExceededError");
    set(k, v);
  };
  return storage;
}

const input = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (c) => (text += c));
  process.stdin.on("end", () => resolve(text));
}));
const out = {};

// The table, saved as the page saves it.
const storage = memoryStorage();
const raw = save(input.table, storage);
out.saved = { max: maxCode(raw), equal: JSON.stringify(JSON.parse(raw)) === JSON.stringify(input.table), same: storage.getItem("tablee.document") === raw,
  length: raw.length, plain: JSON.stringify(input.table).length };
out.readable = readableText(raw) === JSON.stringify(input.table);

// A table saved by a version before (its characters as they are), backed up: the same value, 8-bit.
const old = JSON.stringify(input.old);
const key = backup(old, storage);
const kept = storage.getItem(key);
out.backup = { max: maxCode(kept), equal: JSON.stringify(JSON.parse(kept)) === old, readable: readableText(kept) === old };
// Text that is not JSON is kept character for character.
const broken = `${old.slice(0, 200)}’ —`;
out.brokenKept = storage.getItem(backup(broken, storage)) === broken;

// Bytes as WebKit counts them: a value with one character above U+00FF costs 2 a character.
const counted = memoryStorage();
counted.setItem("a", "x".repeat(1000));
counted.setItem("b", `${"x".repeat(999)}’`);
counted.setItem("tablee.backup.2026-01-01T00:00:00.000Z", `${"é".repeat(500)}`);
out.bytes = { ascii: storedBytes("x".repeat(10)), latin1: storedBytes("é".repeat(10)), wide: storedBytes(`${"x".repeat(9)}一`), emoji: storedBytes("😀") };
out.usage = storageUsage(counted);
out.parts = storageParts(counted);

// The backups' bound counts bytes: two backups of 1.0 M bytes of wide text (2 M) keep only the newest.
const pruned = memoryStorage();
pruned.setItem("tablee.backup.2026-01-01T00:00:00.000Z", "一".repeat(700000));
pruned.setItem("tablee.backup.2026-01-02T00:00:00.000Z", "一".repeat(700000));
out.pruned = pruneBackups("tablee.backup.2026-01-02T00:00:00.000Z", pruned);

// A text mostly in another script stays as it is (its escapes would cost more than 2 bytes a character).
const cjk = JSON.stringify({ name: "一二三四五六七八九十".repeat(100) });
out.cjk = { same: storedJsonText(cjk) === cjk };

// The undo history is written 8-bit too.
const history = memoryStorage();
writeHistory(history, { undo: [{ id: "u1", at: "x", label: { key: "other", params: {} }, changes: [{ p: ["name"], b: "L’aube", a: "Nuit\u202f!" }] }], redo: [] });
out.history = { max: maxCode(history.getItem(HISTORY_KEY)), name: JSON.parse(history.getItem(HISTORY_KEY)).undo[0].changes[0].a };

// A French table of 1.9 M characters, saved, then backed up (an import replaces it): both fit in
// what WebKit gives a site. Saved by a version before (16-bit: 3.8 MB), the backup that does not
// fit beside it writes the saved table 8-bit first (the same value, its revision's hash along).
{
  // (French as a person types it on a phone: "’" for each apostrophe, U+202F before « ; »: 3 %)
  const line = `L’équipée a quitté le port à l’aube, la dette envers la guilde reste à payer\u202f; le capitaine se tait. `;
  const big = { ...input.table, characters: input.table.characters.map((c, i) => ({ ...c, notes: line.repeat(900 + i) })) };
  const plain = JSON.stringify(big);
  const wk = webkitStorage();
  let saved = true;
  try {
    save(big, wk);
  } catch {
    saved = false;
  }
  const backupKey = saved ? backup(wk.getItem("tablee.document"), wk) : null;
  out.webkit = { chars: plain.length, saved, backedUp: backupKey !== null, used: storageUsage(wk).used };
  const old = webkitStorage();
  old.setItem("tablee.document", plain);
  old.setItem(REV_KEY, JSON.stringify({ id: "rev-1", hash: textHash(plain), chain: ["rev-1"] }));
  const oldKey = backup(plain, old);
  const now = old.getItem("tablee.document");
  out.webkitOld = { backedUp: oldKey !== null, same: now !== null && JSON.stringify(JSON.parse(now)) === plain, rev: JSON.parse(old.getItem(REV_KEY)).hash === textHash(now ?? ""),
    eightBit: now !== null && storedBytes(now) === now.length };
}

// Any string (lone surrogates, escapes, backslashes, controls) goes through and back.
let seed = 7;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const alphabet = ["a", "é", "’", "\u202f", "−", "😀", "\ud800", "\udc00", "\\", "\\u2019", '"', "\n", "\u0000", "\u2028", "一"];
let fuzzBad = 0;
for (let n = 0; n < 3000; n += 1) {
  const s = Array.from({ length: rand(40) }, () => alphabet[rand(alphabet.length)]).join("");
  const value = { s, list: [s, { [s]: s }] };
  const stored = toStoredJson(value);
  const back = JSON.parse(stored);
  const readable = readableText(stored);
  if (JSON.stringify(back) !== JSON.stringify(value) || JSON.stringify(JSON.parse(readable)) !== JSON.stringify(value)) fuzzBad += 1;
  if (storedBytes(stored) > 2 * JSON.stringify(value).length) fuzzBad += 1;
}
out.fuzzBad = fuzzBad;

process.stdout.write(JSON.stringify(out));
