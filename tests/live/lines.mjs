// The JSON-lines loop of the live table's Node test harnesses (tests/node_harness.py talks to
// it): one command per stdin line ({"id", "op", ...}) handled in order by `handlers[op]`, one
// answer per stdout line ({"id", "ok": true, "result"} or {"id", "ok": false, "error"}); the
// process exits once stdin closes and the last command is answered (open timers, such as
// y-protocols' awareness check, would keep it alive).
import * as readline from "node:readline";

export function serveLines(handlers) {
  const lines = readline.createInterface({ input: process.stdin });
  let queue = Promise.resolve();
  lines.on("line", (line) => {
    queue = queue.then(async () => {
      let id = null;
      try {
        const command = JSON.parse(line);
        id = command.id;
        if (!Object.hasOwn(handlers, command.op)) throw new Error(`unknown op ${command.op}`);
        const result = await handlers[command.op](command);
        process.stdout.write(`${JSON.stringify({ id, ok: true, result: result ?? null })}\n`);
      } catch (error) {
        process.stdout.write(`${JSON.stringify({ id, ok: false, error: String(error?.stack ?? error) })}\n`);
      }
    });
  });
  lines.on("close", () => queue.then(() => process.exit(0)));
}
