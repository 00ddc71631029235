// Node script for tests/test_guard_depth.py: runs the page's pre-save guard (static/js/guard.js)
// on the JSON commands read from stdin ({limits, cases: [{op, ...}]}) and prints the answers.
import { readFileSync } from "node:fs";
import { checkCandidate, keptSize, keptTooDeep, setApartTooDeep, tooDeep } from "../../static/js/guard.js";

const input = JSON.parse(readFileSync(0, "utf-8"));
const out = input.cases.map((c) => {
  if (c.op === "check") return checkCandidate(c.next, c.base, input.limits);
  if (c.op === "apart") return setApartTooDeep(c.doc, input.limits);
  if (c.op === "deep") return tooDeep(c.value, c.max, c.at);
  if (c.op === "shared") {
    // A change as a shallow app.update makes it: `next` keeps base's records it does not replace
    // (the same objects). The check, and the size and depth kept per record, must answer what
    // they answer on copies sharing nothing, including after the base was checked once.
    const base = c.base;
    checkCandidate(base, null, input.limits);
    const next = { ...base, ...c.top };
    if (c.characters) next.characters = base.characters.map((x, i) => (Object.hasOwn(c.characters, i) ? c.characters[i] : x));
    if (c.log) next.log = [...base.log.slice(c.log.drop), ...c.log.add];
    if (c.systems) next.systems = { ...base.systems, ...c.systems };
    const shared = checkCandidate(next, base, input.limits);
    const again = checkCandidate(next, base, input.limits);
    const copied = checkCandidate(structuredClone(next), structuredClone(base), input.limits);
    return {
      shared, again, copied,
      size: [keptSize(next), JSON.stringify(next).length],
      deep: [keptTooDeep(next, input.limits.depth), tooDeep(next, input.limits.depth)],
    };
  }
  throw new Error(`unknown op ${c.op}`);
});
process.stdout.write(JSON.stringify(out));
