"""The live table's vendored replication in the real page, under its CSP.

- the boot fetches none of the live modules (yjs, y-protocols, lib0, static/js/live/): they load
  lazily, only when a live page imports them;
- imported from the page, `static/js/live/ydoc.js` and `sync.js` resolve `yjs`, `y-protocols/*`
  and `lib0/*` through index.html's import map to the vendored files (no CSP violation, no
  request off the site: the `guarded` fixture fails the test otherwise), and a hub and a member
  over an in-memory link pair sync a character edit both ways, and presence.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

LIVE = re.compile(r"/static/(vendor/(yjs|y-protocols|lib0)|js/live)/")

SYNC_IN_PAGE = """async () => {
  const Y = await import("yjs");
  const { Awareness } = await import("y-protocols/awareness");
  const { readJson, writeJson } = await import("./static/js/live/ydoc.js");
  const { Hub, Member, memoryLinkPair } = await import("./static/js/live/sync.js");
  const until = async (test) => { while (!test()) await new Promise((r) => setTimeout(r, 10)); };
  const hubDoc = new Y.Doc();
  const hubAware = new Awareness(hubDoc);
  hubAware.setLocalState({ name: "MJ", characters: [], role: "mj" });
  const privates = new Map();
  const moves = [];
  // The hub is the referee: a member's move (bound to its link's id) is applied by the hub.
  const hub = new Hub({ publicDoc: hubDoc, awareness: hubAware,
    privateDocFor: (id) => privates.get(id) || privates.set(id, new Y.Doc()).get(id),
    onmove: (id, move) => { moves.push(id); const t = readJson(hubDoc); t.characters[0].hp = move.hp;
      writeJson(hubDoc, t, "hub"); return { ok: true }; } });
  writeJson(hubDoc, { characters: [{ id: "c1", name: "Éloïse", hp: 10 }], log: [] }, "hub");
  const pub = new Y.Doc();
  const aware = new Awareness(pub);
  aware.setLocalState({ name: "Léa", characters: ["c1"], role: "player" });
  const member = new Member({ publicDoc: pub, privateDoc: new Y.Doc(), awareness: aware });
  const [a, b] = memoryLinkPair();
  hub.attach(a, "lea");
  member.attach(b);
  await until(() => (readJson(pub).characters || []).length === 1);
  const table = readJson(pub);
  table.characters[0].hp = 99;
  writeJson(pub, table, "member"); // a member's own write: never taken by the hub
  let answered = null;
  member.onanswer = (id, answer) => { if (id === "m1") answered = answer; };
  member.send("m1", { op: "hp", hp: 7 });
  await until(() => answered !== null && readJson(hubDoc).characters[0].hp === 7);
  writeJson(pub, readJson(hubDoc), "member"); // the member takes the table back (what session.js does)
  const names = () => Array.from(hubAware.getStates().values(), (s) => s.name).sort();
  await until(() => names().length === 2);
  const seen = names();
  const back = readJson(hubDoc);
  back.log.push({ id: "l1", label: "2d6 : 9" });
  writeJson(hubDoc, back, "hub");
  await until(() => readJson(pub).log.length === 1);
  member.detach();
  await until(() => names().length === 1);
  const result = { hub: readJson(hubDoc), member: readJson(pub), seen, after: names(),
                   yjs: typeof Y.encodeStateAsUpdate, moves, answered };
  hub.destroy(); member.destroy(); hubAware.destroy(); aware.destroy();
  return result;
}"""


def test_live_modules_load_lazily_through_the_import_map_and_sync(page, site, guarded):
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(site + "#/")
    expect(page.locator("#main h1")).to_be_visible()
    assert not [u for u in requested if LIVE.search(u)], "the boot fetched a live-table module"
    result = page.evaluate(SYNC_IN_PAGE)
    assert result["yjs"] == "function"
    assert result["hub"]["characters"] == [{"id": "c1", "name": "Éloïse", "hp": 7}]
    assert result["member"] == result["hub"] and result["hub"]["log"] == [{"id": "l1", "label": "2d6 : 9"}]
    assert result["seen"] == ["Léa", "MJ"] and result["after"] == ["MJ"]
    assert result["moves"] == ["lea"] and result["answered"] == {"ok": True}  # bound to the link's member
    vendored = [u for u in requested if LIVE.search(u)]
    assert any(u.endswith("/static/vendor/yjs/dist/yjs.mjs") for u in vendored)
    assert any(u.endswith("/static/vendor/y-protocols/sync.js") for u in vendored)
    assert all(u.startswith(site.split("#")[0].rsplit("/", 1)[0]) for u in vendored)
