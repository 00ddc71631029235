// The page's verify digest (static/js/views/verify.js verifyRecord) of each {answer, keys} read
// as one JSON array on stdin, printed as one JSON array: tests/test_referee_log.py compares the
// referee's digests (py/tablee/referee_log.py) with these. lit-html needs a document to load.
globalThis.document ??= { createTreeWalker: () => ({}), createComment: () => ({}), createElement: () => ({}) };
const { verifyRecord } = await import("../../static/js/views/verify.js");
let text = "";
for await (const chunk of process.stdin) text += chunk;
const cases = JSON.parse(text);
process.stdout.write(JSON.stringify(cases.map(({ answer, keys }) => verifyRecord(answer, keys))));
