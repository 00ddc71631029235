// Node script for tests/test_guard_depth.py: runs the page's pre-save guard (static/js/guard.js)
// on the JSON commands read from stdin ({limits, cases: [{op, ...}]}) and prints the answers.
import { readFileSync } from "node:fs";
import { checkCandidate, setApartTooDeep, tooDeep } from "../../static/js/guard.js";

const input = JSON.parse(readFileSync(0, "utf-8"));
const out = input.cases.map((c) => {
  if (c.op === "check") return checkCandidate(c.next, c.base, input.limits);
  if (c.op === "apart") return setApartTooDeep(c.doc, input.limits);
  if (c.op === "deep") return tooDeep(c.value, c.max, c.at);
  throw new Error(`unknown op ${c.op}`);
});
process.stdout.write(JSON.stringify(out));
