"""Unit tests run the rules package on CPython exactly as the worker runs it.

The engine imports a system on its first request; the tests read ``OPS`` and
``declared_codes()`` at collection, so every op module is imported here first
(tests/test_lazy_boot.py checks the lazy path in fresh interpreters).
"""

import pytest
from hypothesis import settings

from tablee.api import load_all

load_all()


def _remembered_schema_strategies() -> None:
    """Build each (sub)schema's Hypothesis strategy once per test process.

    hypothesis-jsonschema (pinned in requirements-test.txt) builds an object's property
    strategies while it draws: every example of every op re-resolved and re-canonicalised the
    same big state schemas (a Théorem hand, a SYSTMJ card), which was nearly all of the schema
    fuzzes' time (eight Théorem and SYSTMJ ops, two examples each: 73 s -> 5 s). A strategy is
    an immutable description of what to draw, so the one built for a schema serves every later
    draw of an equal schema: the examples drawn are the same. Keyed by the schema's canonical
    JSON and the alphabet's settings; ``custom_formats`` (unused here) are not remembered.
    ``tests/test_api_core.py`` checks it is in place (a library upgrade that renames the private
    function must be noticed, not make the suite slow without a word). Installed by a session
    fixture, not at import: importing the library reads Hypothesis's character tables, which
    Hypothesis asks plugins and conftests not to do while pytest starts."""
    import hypothesis_jsonschema._from_schema as _jsonschema_strategies
    from hypothesis_jsonschema._encode import encode_canonical_json

    build = getattr(_jsonschema_strategies, "__from_schema")
    made: dict[tuple[str, bool, object], object] = {}

    def remembered(schema, *, alphabet, custom_formats):
        if custom_formats is not None:
            return build(schema, alphabet=alphabet, custom_formats=custom_formats)
        key = (encode_canonical_json(schema), alphabet.allow_x00, alphabet.codec)
        if key not in made:
            made[key] = build(schema, alphabet=alphabet, custom_formats=custom_formats)
        return made[key]

    remembered.tablee_remembers = True
    setattr(_jsonschema_strategies, "__from_schema", remembered)


@pytest.fixture(scope="session", autouse=True)
def remembered_schema_strategies():
    _remembered_schema_strategies()

# No time limit on a Hypothesis example: timings belong to `make bench`, never to tests (a busy
# machine made one Chronoste example take 366 ms against the default 200 ms deadline).
settings.register_profile("tablee", deadline=None)
settings.load_profile("tablee")


@pytest.fixture
def api():
    """Call the JSON door and fail loudly on an error response."""
    from api_calls import call

    return call


@pytest.fixture
def every_move_is_its_changes(monkeypatch):
    """Every move of a referee test module that asks for it (``pytest.mark.usefixtures``), however
    it is made: the table it was made on is not changed in place, and its changes
    (``referee.changes``: what the MJ's device receives instead of the whole table) make the
    referee's new table again."""
    import copy
    import json

    from tablee import referee

    made = referee.apply_move

    def checked(document, member, move_, *, seed, now):
        before = copy.deepcopy(document)
        out, answer = made(document, member, move_, seed=seed, now=now)
        assert document == before
        found = referee.changes(document, out) if isinstance(out, dict) else None
        if found is not None:
            assert referee.apply_changes(before, found) == out
            assert json.loads(json.dumps(found)) == found  # what crosses to the page is JSON
        return out, answer

    monkeypatch.setattr(referee, "apply_move", checked)


@pytest.fixture(scope="module")
def node():
    """The live session harness (tests/live/session_harness.mjs): one Node process per test module.
    A module that drives another harness defines its own ``node``."""
    from live_world import HARNESS, harness

    with harness(HARNESS) as running:
        yield running


@pytest.fixture
def world(node):
    """An MJ's table (live_world.mj_table) and two phones joined, each holding its character."""
    from live_world import mj_table, phone_table, two_phone_world

    with two_phone_world(node, "w", mj_table(), phone_table) as name:
        yield name
