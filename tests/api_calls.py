"""What the systems' tests share: calls to the JSON door (an answer, or the error it gives) and
the sample characters tests of several places build on."""

from __future__ import annotations

from tablee.api import handle

__all__ = ["answering", "call", "err", "error", "versality_character"]


def answering(door):
    """``door`` (``handle``, or a door that also merges like the app's store) made to fail the
    test on an error response."""

    def checked(request: dict) -> dict:
        resp = door(request)
        assert "error" not in resp, resp
        return resp

    return checked


#: The answer to a request; fails the test on an error response.
call = answering(handle)


def error(request: dict) -> dict:
    """The error ``request`` gives; fails the test on a success."""
    resp = handle(request)
    assert "error" in resp, resp
    return resp["error"]


def err(request: dict) -> str:
    """The code of the error ``request`` gives; fails the test on a success."""
    return error(request)["code"]


def versality_character(**over) -> dict:
    """A Versality character whose creation is in order: base deck + oui-et + oui (5 points) and
    two non-mais (6 = ⌈12/2⌉), traquer 3 and combattre 2; ``over`` replaces fields."""
    from tablee.systems.versality import character as C
    from tablee.systems.versality import rules as R

    c = C.new_character("ana", "Ana")
    c.update(
        powers=[{"text": "Télékinésie", "approved": True}],
        forces=["agile", "rusée"],
        faiblesses=["colérique"],
        traits_approved=True,
        characteristics={"physique": 1, "mental": 2, "personnalite": 0},
        skills={**dict.fromkeys(R.SKILLS, 0), "traquer": 3, "combattre": 2},
    )
    c["deck"] += [{"kind": "oui-et", "origin": "creation"}, {"kind": "oui", "origin": "creation"}]
    c["deck"] += [{"kind": "non-mais", "origin": "creation"}] * 2
    c.update(over)
    return c
