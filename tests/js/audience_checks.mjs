// Who sees the MJ's roll at a live table (static/js/views/audience.js), for
// tests/test_audience.py: a choice of one player follows that player to the device the MJ
// recognised as theirs (live/admission.js `replaces`), and a choice that no longer names
// anyone at the table keeps the roll to the MJ alone, never the whole table.
// Prints one JSON object: {case: audienceOf(app) or the name the log gives}.
globalThis.document = { documentElement: { dataset: {} }, createTreeWalker: () => ({}), createComment: () => ({}) };
globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };

const root = new URL("../../static/", import.meta.url);
const audience = await import(new URL("js/views/audience.js", root));

const appWith = (members) => ({ rerender() {}, liveSession: () => ({ role: "mj", members }) });
const lea = ["new-lea", { name: "Léa", replaces: [{ id: "old-lea", key: "k" }] }];
const mo = ["mo", { name: "Mo" }];
const out = {};
const table = appWith(new Map([lea, mo]));
audience.chooseAudience(table, "");
out.whole = audience.audienceOf(table);
audience.chooseAudience(table, "mj");
out.secret = audience.audienceOf(table);
audience.chooseAudience(table, "mo");
out.mo = audience.audienceOf(table);
audience.chooseAudience(table, "old-lea");
out.replaced = audience.audienceOf(table);
audience.chooseAudience(table, "gone");
out.gone = audience.audienceOf(table);
out.gone_after_leaving = audience.audienceOf(appWith(new Map([lea])));
audience.chooseAudience(table, "mo");
out.mo_left = audience.audienceOf(appWith(new Map([lea])));
out.name_of_replaced = audience.memberNow(new Map([lea, mo]), "old-lea");
out.name_of_unknown = audience.memberNow(new Map([lea, mo]), "nobody");
const phone = { rerender() {}, liveSession: () => ({ role: "player", members: new Map() }) };
audience.chooseAudience(phone, "mj");
out.phone = audience.audienceOf(phone);
console.log(JSON.stringify(out));
