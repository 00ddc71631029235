"""The live table's referee, its kernel part: who signs a move, the log it writes, and the three
moves every system shares (a sheet saved, a note, a label). :mod:`tablee.referee` is the door
(which op is a move, whose character it names, the system's move run on the MJ's table); this
module writes what a move leaves in the table's log and sheets.

Who did it comes from the link, never from the message. The MJ's device binds each link to a
member (its id and the name it joined with, unique at the table: static/js/live/session.js)
and passes that member to ``live.move``. Every log entry the referee writes for a member
carries it (``member``: ``{"id", "name"}``, store schema) besides its ``who`` (the acting
character's name, as the same action made on the MJ's device signs it): a phone that renames
its character "MJ" or to another player's character's name changes what ``who`` reads, never
``member``, and ``live.log.label`` is allowed only on an entry whose ``member.id`` is the
member's; the words a move carries (its entry's label) are text and name nothing, and the
result line is the referee's (:mod:`tablee.referee_words`). A Tension point (Point Zéro)
has only a ``who``: it is the :func:`signature`, the
character's name with the member's ("Aube (Léa)").

The log keeps at most ``store_shape.MAX_LOG`` entries. At the cap a member's entry pushes out the
oldest entry, as the MJ's own device does, while the members' entries fill at most half the log;
past that, the oldest member entry (:func:`append`). A flood from phones never takes more than
half of the MJ's history out (an entry without ``member``: written on the MJ's device, or
imported), and in a long campaign whose log is full of the MJ's entries one player's roll never
pushes out another's.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from . import share, store_records, store_shape
from .errors import RulesError
from .referee_words import outcome
from .registry import SYSTEM_IDS
from .store_records import WORDS_KEYS, words_problem
from .system import Move, Recipe
from .systems import load as load_system
from .tree import clone

__all__ = [
    "KERNEL_MOVES",
    "Run",
    "add_entry",
    "append",
    "is_members",
    "label_entry",
    "log_run",
    "move_words",
    "overlay",
    "own",
    "refuse",
    "save_character",
    "signature",
    "stamp",
    "worded",
]

class Member(TypedDict):
    """A live table's member as the MJ's device knows the link's: its id, the name it joined with
    and the characters the MJ assigned to it (never what a message claims)."""

    id: str
    name: NotRequired[str]
    characters: list[str]


#: The moves every system shares (run here, not by an op).
KERNEL_MOVES = ("live.character.save", "live.log.add", "live.log.label")
#: The longest result line an entry keeps.
_MAX_SUMMARY = 500
#: Answer keys read as the total a log entry shows, in this order.
_TOTALS = ("total", "roll", "raw", "score")


def refuse(code: str, **params: Any) -> RulesError:
    """A refusal of a move (a stable ``live.refused.*`` code; the table stays unchanged)."""
    return RulesError(code, **params)


#: A move's own words (:func:`move_words`): the text's key, its longest text, the key of its words.
_TEXTS = (("label", 200, "label_words"),)
#: What a phone may send of a result line, never kept: the referee words the outcome itself.
_IGNORED = ("summary", "summary_words")


def move_words(move: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(the move without its words, its words)``: the ``label`` a phone's move carries (the
    words it waits and is logged under: « lance des dés », an expression, the page's own label).
    It travels with the move, so its entry is never logged under its bare op, and no second
    move (``live.log.label``) is needed to name it. Text only, cut to 200 characters, control
    characters made spaces; anything else than text is refused (``live.refused.invalid``
    naming the field). Only the entry's title: never who did it (the link says that), never an
    input of the op, never how it came out: a ``summary`` and ``summary_words`` the phone sends
    are dropped unread (the result line is the referee's, :mod:`tablee.referee_words`).

    With it, how the phone worded it (static/js/views/log-words.js ``withWords``), so every
    device reads the entry in its own language: ``label_words`` and ``words_lang``, checked as
    a table's log entry's words are (:func:`tablee.store_records.words_problem`: the same
    bounds and shape, catalogue keys and text, nothing else); words out of them are refused
    (``live.refused.invalid`` naming the key). They are optional (a phone of an older build
    sends none), kept only with the text they word and the language they were said in (words
    without it are never read: log-words.js ``stillSays``). They say the label in catalogue
    texts, never who did it: the entry's ``who`` and ``member`` are the link's whatever they
    say."""
    # A phone's result line is never taken (:mod:`tablee.referee_words` makes it from the
    # answer): its ``summary`` and their words are dropped unread, whatever they hold.
    move = {k: v for k, v in move.items() if k not in _IGNORED}
    words: dict[str, Any] = {}
    for key, cap, _ in _TEXTS:
        if key not in move:
            continue
        value = move[key]
        if not isinstance(value, str):
            raise refuse("live.refused.invalid", field=key)
        text = "".join(" " if ord(c) < 32 or 127 <= ord(c) < 160 else c for c in value[:cap])
        if text.strip():
            words[key] = text
    problem = words_problem(move)
    if problem is not None:
        raise refuse("live.refused.invalid", field=problem[0], problems=[problem[1]])
    if move.get("words_lang") is not None:
        for key, _, said in _TEXTS:
            if said in move and key in words:
                words[said] = clone(move[said])
        if any(said in words for _, _, said in _TEXTS):
            words["words_lang"] = move["words_lang"]
    carried = {key for key, _, _ in _TEXTS} | set(WORDS_KEYS)
    return {k: v for k, v in move.items() if k not in carried}, words


def worded(entry: dict[str, Any], words: dict[str, Any]) -> dict[str, Any]:
    """``entry`` (a copy) with the words (:func:`move_words`) of the label a move just set of
    it; the words of a label set without words go (they would say the text it replaced). An
    entry has one ``words_lang``: label words said in another language than the result line's
    (the referee's, :func:`outcome_into`) are not kept (the label shows as written)."""
    out = dict(entry)
    lang = words.get("words_lang")
    if "label_words" in words and (out.get("summary_words") is None or out.get("words_lang") in (None, lang)):
        out["label_words"] = clone(words["label_words"])
        out["words_lang"] = lang
    else:
        out.pop("label_words", None)
    if not any(said in out for said in ("label_words", "summary_words")):
        for said in WORDS_KEYS:
            out.pop(said, None)
    return out


def outcome_into(entry: dict[str, Any], name: str, request: Any, answer: Any,
                 known: dict[str, Any] | None = None) -> dict[str, Any]:
    """``entry`` (a copy) with the result line the referee makes from op ``name``'s ``answer``
    (:func:`tablee.referee_words.outcome`: ``result.summary`` and ``summary_words``, said in
    the language of the entry's label words, else French); without one (a roll of dice, an op
    without outcome words) the entry has no result line at all. ``known``: the names of the
    MJ's records and the state before the move (:data:`tablee.referee_words.Ctx`): a line
    naming a side names it from them, never from what the phone sent."""
    out = dict(entry)
    result = {k: v for k, v in out.get("result", {}).items() if k != "summary"}
    out.pop("summary_words", None)
    found = outcome(name, request, answer, out.get("words_lang") or "fr", known)
    if found is not None:
        text, said, lang = found
        result["summary"] = text[:_MAX_SUMMARY]
        out["summary_words"] = said
        out["words_lang"] = lang
    elif "label_words" not in out:
        out.pop("words_lang", None)
    out["result"] = result
    return out


def own(member: Member, cid: Any) -> str:
    """``cid`` when it is one of the member's characters, else refused (the id is not echoed
    unless it is a string: the refusal names what the phone sent, nothing of the table)."""
    if not isinstance(cid, str) or cid not in member["characters"]:
        raise refuse("live.refused.character", character=cid if isinstance(cid, str) else None)
    return cid


def _member_name(member: Member) -> str:
    name = member.get("name")
    return (name if isinstance(name, str) and name.strip() else member["id"])[: store_shape.MAX_NAME]


def signature(member: Member, character: Any = None) -> str:
    """Who did it, as one text of at most ``store_shape.MAX_NAME`` characters: the name the member
    joined with, after the name of its character when the move was that character's ("Aube
    (Léa)"; the character's name is cut first). The character's name alone would let a phone
    sign "MJ" or as another player's character by renaming its own."""
    name = _member_name(member)
    if not isinstance(character, str) or not character.strip() or character == name:
        return name
    room = store_shape.MAX_NAME - len(name) - 3
    return f"{character[:room]} ({name})" if room > 0 else name


def stamp(member: Member) -> dict[str, str]:
    """The ``member`` of a log entry written for ``member``: its id and the name it joined with."""
    return {"id": member["id"][: store_shape.MAX_ID], "name": _member_name(member)}


def is_members(entry: Any) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("member"), dict)


def append(log: list[Any], entry: dict[str, Any]) -> None:
    """Add a member's ``entry`` to ``log`` (a list the move owns), trimmed to ``store_shape.MAX_LOG``:
    what goes is the oldest entry while the members' entries are at most half the cap, else the
    oldest member entry. (Taking a member entry whatever the share, as before, made a log full
    of the MJ's entries keep one player entry: each roll pushed out the previous player's, and
    phones rolling at the same moment never saw each other's.)"""
    log.append(entry)
    while len(log) > store_shape.MAX_LOG:
        members = sum(1 for e in log if is_members(e))
        at = 0 if members <= store_shape.MAX_LOG // 2 else next(
            (i for i, e in enumerate(log[:-1]) if is_members(e)), 0)
        del log[at]


def _entry_id(seed: int, now: str) -> str:
    """The id of the log entry of a move seeded with ``seed`` at ``now``: ``live-`` and 16 hex
    digits of a SHA-256 of both. Every device sees the log, and an id that showed the seed
    (it once was ``live-<seed in hex>``) gave away what the reply withholds: with the public
    discard, the seed of a draw from a hidden deck lets a phone shuffle again and know the new
    draw order. Finding a 53-bit seed back from this digest is out of a phone's reach; the id
    stays the same for the same move, so a move applied twice still writes one entry."""
    return "live-" + hashlib.sha256(f"tablee.live.entry:{seed}:{now}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Run:
    """One move as the referee ran it, what its log entry is written from (:func:`log_run`).

    ``name``: the op; ``move``: what it may touch (:class:`tablee.system.Move`); ``member``: the
    link's; ``request``: the op's request as run (the MJ's device's seed, the MJ's records);
    ``answer``: the op's whole answer; ``reply``: the answer as the phone gets it; ``seed`` and
    ``now``: the MJ's device's; ``touched``: the member's characters the move acted with;
    ``who``: the acting character's (or fighter's) name; ``ctx``: the acting character as the
    MJ holds it and the system state before the move; ``words``: the move's own
    (:func:`move_words`)."""

    name: str
    move: Move
    member: Member
    request: dict[str, Any]
    answer: dict[str, Any]
    reply: dict[str, Any]
    seed: int
    now: str
    touched: frozenset[str] = frozenset()
    who: str | None = None
    ctx: dict[str, Any] = field(default_factory=dict)
    words: dict[str, Any] = field(default_factory=dict)


def _recipe(name: str) -> Recipe | None:
    """How the system that owns op ``name`` logs it as its page does (None: the generic way)."""
    system = name.split(".", 1)[0]
    return load_system(system).recipes.get(name) if system in SYSTEM_IDS else None


def log_run(out: dict[str, Any], run: Run) -> str:
    """Write the log entry of a random move (an op that takes a seed) into the MJ's table, from
    the referee's own run: its request (the MJ's device's seed) and its answer. A phone never
    writes a result into the log (:func:`add_entry` refuses one): it could log a roll that
    never happened, or roll until the result suits and log only that one. The entry is signed
    with ``run.who``, as the page signs the same action on one device; without one, the
    member's name; its ``member`` is the link's (:func:`stamp`).

    The entry keeps the seed (for "Vérifier / rejouer") only when its request is whole: a
    move that read a hidden state or a character's full record is logged with the character
    ids and without its seed, the way a share filter would take its deck out.

    An op the pages log with a replayable request and a ``verify`` record (a test, a draw) is
    logged the same way from the op's whole answer, as its system declares
    (:class:`tablee.system.Recipe`), so the MJ's log shows its result line and "Vérifier /
    rejouer" as for the same action made on the MJ's device; a recipe's ``join`` completes an
    entry already logged instead (one test logged as one entry).

    The move's own words give the entry its ``label`` (else a roll's expression, else none),
    with how the phone worded it when it did (:func:`worded`). The result line is the
    referee's, made from the answer (:func:`outcome_into`); a plain roll has none."""
    name, spec, request, member, words = run.name, run.move, run.request, run.member, run.words
    # A character record in the request (an actor's, or one a phone sent along: Unicreon's
    # opposition) is logged as its id: a full record may hold what only the MJ sees.
    records = {k for k, v in request.items() if isinstance(v, dict) and "id" in v and "system" in v}
    whole = spec.system is None and not run.touched and not records
    logged = {k: v for k, v in request.items() if k != "state" and (whole or k != "seed")}
    for field_name in records | {f for f, kind in spec.actors if kind == "record" and isinstance(logged.get(f), dict)}:
        logged[field_name] = {"id": logged[field_name].get("id")}
    for field_name, kind in spec.actors:
        if kind == "id" and len(run.touched) == 1:
            logged[field_name] = next(iter(run.touched))  # whose move it was (a Méticuleux choice checks it)
    result = {k: v for k, v in run.reply.items() if k not in ("seed", "character", "state", "logged")}
    total = next((result[k] for k in _TOTALS
                  if isinstance(result.get(k), int) and not isinstance(result[k], bool)), None)
    if name == "roll":
        result = {"total": run.reply.get("total"), "terms": run.reply.get("terms", [])}
    elif total is not None:
        result = {"total": total, **result}
    recipe = _recipe(name)
    if recipe is not None:
        known = {"seed": run.seed, "character": run.ctx.get("character"), "state": run.ctx.get("state")}
        logged = recipe.request(request, run.answer, known) if recipe.request is not None else logged
        result = {**result, **recipe.result(request, run.answer, known)}
    if len(json.dumps(result)) > store_shape.MAX_ENTRY_SIZE:
        result = {k: v for k, v in result.items()
                  if isinstance(v, (int, str, bool)) or v is None or k in ("verify", "terms")}
    signed = run.who if isinstance(run.who, str) and run.who else _member_name(member)
    entry = {"id": _entry_id(run.seed, run.now), "at": run.now, "kind": spec.kind or name, "system": spec.system,
             "who": signed[: store_shape.MAX_NAME], "member": stamp(member),
             "label": words.get("label", str(request.get("expr", "")) if name == "roll" else "")[:200],
             "request": logged, "result": result}
    joined = recipe.join(out["log"], member, entry, run.answer, words) if recipe and recipe.join else None
    if joined is not None:
        at, merged = joined
        checked = share.share("entry", merged, "mj")
        out["log"] = [*out["log"][:at], checked, *out["log"][at + 1:]]
        return checked["id"]
    entry = outcome_into(worded(entry, words), name, request, run.answer, _known(out, run.ctx))
    if spec.system is None and name.split(".")[0] in SYSTEM_IDS:
        entry["system"] = name.split(".")[0]
    checked = share.share("entry", entry, "mj")
    out["log"] = [e for e in out["log"] if not (isinstance(e, dict) and e.get("id") == checked["id"])]
    append(out["log"], checked)
    return checked["id"]


def _known(document: dict[str, Any], ctx: dict[str, Any] | None) -> dict[str, Any]:
    """What a result line may name (:data:`tablee.referee_words.Ctx`): the MJ's records' names
    and the system state before the move."""
    names = {c["id"]: c.get("name") for c in document.get("characters", [])
             if isinstance(c, dict) and isinstance(c.get("id"), str)}
    return {"names": names, "state": (ctx or {}).get("state")}


def overlay(full: Any, view: Any, edited: Any) -> Any:
    """``full`` (the MJ's record) with what the player changed from ``view`` (what they saw)
    to ``edited``: a value the player left as seen keeps the MJ's (a blanked secret stays),
    a key the view hid stays the MJ's, a new key is added, a key removed from the view goes."""
    if not (isinstance(full, dict) and isinstance(view, dict) and isinstance(edited, dict)):
        return clone(edited)
    out = clone(full)
    for key, value in edited.items():
        if key not in view:
            if key not in full:
                out[key] = clone(value)  # a new field (the store's check judges it)
            continue  # a key the player never saw (hidden): the MJ's stays
        if view[key] == value:
            continue  # unchanged from what the player saw: the MJ's value stays
        out[key] = overlay(full.get(key), view[key], value)
    for key in view:
        if key not in edited:
            out.pop(key, None)
    return out


def _character_index(document: dict[str, Any], cid: str) -> int:
    for i, character in enumerate(document["characters"]):
        if isinstance(character, dict) and character.get("id") == cid:
            return i
    return -1


def save_character(document: dict[str, Any], member: Member, move: dict[str, Any]) -> dict[str, Any]:
    """``live.character.save``: a whole-sheet edit of one of the member's characters; a field the
    player view hides or blanks keeps the MJ's value (:func:`overlay`). A new id is a character
    the player made on their phone (:func:`_new_character`)."""
    edited = move.get("character")
    if not isinstance(edited, dict):
        raise refuse("live.refused.invalid", field="character")
    at = _character_index(document, edited["id"]) if isinstance(edited.get("id"), str) else -1
    if at < 0:
        return _new_character(document, edited)
    own(member, edited.get("id"))
    full = document["characters"][at]
    view = share.share("character", full, "player")
    record = overlay(full, view, edited)
    record["id"], record["system"] = full["id"], full["system"]
    problems = store_records.check_character(record)
    if problems:
        raise refuse("live.refused.invalid", field="character", problems=[p.to_json() for p in problems[:5]])
    document["characters"][at] = record
    return {"character": share.share("character", record, "player")}


def _new_character(document: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """A character a player made on their phone joins the table (and becomes theirs: the MJ's
    device assigns it, ``created``), once the store accepts it like an imported one."""
    problems = store_records.check_character(record)
    if problems:
        raise refuse("live.refused.invalid", field="character", problems=[p.to_json() for p in problems[:5]])
    if len(document["characters"]) >= store_shape.MAX_CHARACTERS:
        raise refuse("live.refused.invalid", field="characters")
    document["characters"].append(clone(record))
    return {"character": share.share("character", record, "player"), "created": record["id"]}


def add_entry(document: dict[str, Any], member: Member, move: dict[str, Any], now: str) -> dict[str, Any]:
    """``live.log.add``: a roll-log line without a result (a note), checked like an imported one,
    dated by the MJ's device and stamped with the member (``member``, :func:`stamp`, whatever
    the phone sent). Its ``who`` is the :func:`signature`: the member's name, after the name of
    one of their characters when the phone named one of theirs ("Aube (Léa)"); a phone signing
    "MJ" or another's name gets its member's name, and one that renamed its own character "MJ"
    signs "MJ (Léa)"."""
    entry = move.get("entry")
    if not isinstance(entry, dict):
        raise refuse("live.refused.invalid", field="entry")
    if entry.get("request") != {} or entry.get("result") != {}:
        # A roll or an op's result: written by the referee from its own run (:func:`log_run`),
        # never taken from a phone. What a player may write is a line without one.
        raise refuse("live.refused.result")
    entry = {k: v for k, v in entry.items() if k != "to"}  # only the MJ sends a line to someone
    entry["at"] = now
    entry["member"] = stamp(member)
    names = {c.get("name") for c in document["characters"]
             if isinstance(c, dict) and c.get("id") in member["characters"]}
    who = entry.get("who")
    entry["who"] = signature(member, who if isinstance(who, str) and who in names else None)
    try:
        checked = share.share("entry", entry, "mj")
    except RulesError as exc:
        raise refuse("live.refused.invalid", field="entry", problems=exc.params.get("problems", [])) from None
    if any(isinstance(e, dict) and e.get("id") == checked["id"] for e in document["log"]):
        raise refuse("live.refused.duplicate", id=checked["id"])
    append(document["log"], checked)
    return {"entry": share.share("entry", checked, "player")}


def label_entry(document: dict[str, Any], member: Member, move: dict[str, Any]) -> dict[str, Any]:
    """``live.log.label``: the label a phone's page gives the entry the referee logged for that
    phone's move (the page words it: "Force (45)"): text only, on an entry the referee wrote
    (id ``live-…``) for this member, matched by member id (``member.id``), never by the name
    it shows; its request and result stay the referee's, its result line too: a ``summary``
    (and its words) the move carries is ignored, as a move's is (:func:`move_words`), so a
    player never picks the outcome words after seeing the dice. The label comes with how the
    page worded it (``label_words``, ``words_lang``), checked as a move's words are; a label
    given without words loses the words of the one it replaces (:func:`worded`)."""
    eid, label = move.get("id"), move.get("label")
    if not isinstance(eid, str) or not eid.startswith("live-") or not isinstance(label, str):
        raise refuse("live.refused.invalid", field="label")
    _, words = move_words(move)
    at = next((i for i, e in enumerate(document["log"]) if isinstance(e, dict) and e.get("id") == eid), -1)
    signer = document["log"][at].get("member") if at >= 0 else None
    if not (isinstance(signer, dict) and signer.get("id") == member["id"]):
        raise refuse("live.refused.label")  # another's entry, the MJ's, or one this referee did not write
    text = "".join(" " if ord(c) < 32 or 127 <= ord(c) < 160 else c for c in label[:200])
    entry = worded({**document["log"][at], "label": text}, words)
    try:
        checked = share.share("entry", entry, "mj")
    except RulesError:
        raise refuse("live.refused.invalid", field="label") from None
    document["log"][at] = checked
    return {"entry": share.share("entry", checked, "player") if "to" not in checked else {"id": eid}}
