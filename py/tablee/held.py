"""The MJ's table kept in the worker between two requests of the live table.

At a live table the MJ's device asks the worker for the referee (``live.move``) and the
projection (``store.share``) at every move, and both need the whole table: sent each time, a
50-character, 1,000-entry table (about 400 kB of JSON text) is written by the page, copied into
the worker and parsed there, twice per move. Instead the worker keeps the last table it was
given or made, under a revision id (``rev``), and the page names that revision (``held``)
instead of sending the table when it knows its own table is that one.

The worker never acts on another table than the page's: a revision is a random id made anew
each time a table is held (a table sent whole, the table a move made), the worker keeps one
table at a time, and a request naming any other revision than the one it holds is answered
``{"stale": true}`` (the page then sends its table whole). The page ties a revision to the
object it sent or made from the worker's answer (static/js/live/session.js), never to a table
it changed since.

A held table is the request's own parse of JSON text (or what a move made from it, sharing
every record it did not replace): nothing outside the worker holds a reference to it, and no
record of it is ever changed in place (a move replaces what it changes), so a record's JSON
text may be kept by identity (``tablee.share``).
"""

from __future__ import annotations

import secrets
from typing import Any

__all__ = ["forget", "hold", "table"]

_HELD: dict[str, Any] = {"rev": None, "doc": None}


def hold(document: dict[str, Any]) -> str:
    """Keep ``document`` (read from JSON text, never to be changed in place) as the held table,
    under a new revision id, which is returned."""
    rev = secrets.token_hex(8)
    _HELD.update(rev=rev, doc=document)
    return rev


def table(rev: Any) -> dict[str, Any] | None:
    """The table held under revision ``rev``, or ``None`` when the worker holds another one
    (or none)."""
    if isinstance(rev, str) and rev and rev == _HELD["rev"]:
        return _HELD["doc"]
    return None


def forget() -> None:
    """Hold nothing (tests; a table that could not be opened)."""
    _HELD.update(rev=None, doc=None)
