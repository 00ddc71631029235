// « Vérifier / rejouer » on log entries (static/js/views/verify.js checkOf, replayStatus), the
// engine's answers given: one JSON array of {entry, answers: {op: answer}} on stdin, the status
// of each printed as one JSON array (tests/test_referee_outcome.py). lit-html needs a document.
globalThis.document ??= { createTreeWalker: () => ({}), createComment: () => ({}), createElement: () => ({}) };
const { checkOf, replayStatus } = await import("../../static/js/views/verify.js");
let text = "";
for await (const chunk of process.stdin) text += chunk;
const out = [];
for (const { entry, answers } of JSON.parse(text)) {
  const asked = [];
  const call = async (request) => {
    asked.push(request);
    return answers[request.op] ?? { error: { code: "unknown" } };
  };
  const check = checkOf(entry);
  out.push(check ? await replayStatus(call, check) : null);
}
process.stdout.write(JSON.stringify(out));
