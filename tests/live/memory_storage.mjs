// localStorage in memory for the Node harnesses (tests/live/*_harness.mjs, tests/js/*.mjs): a Map
// that keeps exactly the strings it is given, with the Storage methods the app's modules call.
// `data` is the Map itself, for a test that reads what was stored.
export function memoryStorage() {
  const data = new Map();
  return {
    data,
    get length() {
      return data.size;
    },
    key: (i) => [...data.keys()][i] ?? null,
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
    removeItem: (k) => data.delete(k),
  };
}
