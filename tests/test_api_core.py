"""The JSON door as a whole: describe, every op's schema fuzzed, every error code translated.

One generation of requests per op serves two properties: the answer is a declared answer,
and the same request with whole numbers written as floats gets the same answer (generating
from the big state schemas is the slow part, so it is done once).

The op list is read from the registry at collection time, so ops added later are
covered without touching this file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from tablee import api, registry
from tablee.errors import declared_codes
from whole_numbers import floats_for_ints

REPO = Path(__file__).resolve().parent.parent
I18N = REPO / "static" / "i18n"
OP_NAMES = sorted(registry.OPS)
#: Codes a request generated FROM the op's schema must never produce.
FORBIDDEN = {"request.internal", "request.invalid", "request.unknown_op", "request.not_object"}
#: Examples per system op. hypothesis-jsonschema needs up to ~3 s per example for the big
#: state schemas (cards, Versality) and there are ~70 ops, so 2 keeps the file near a minute;
#: set TABLEE_FUZZ_EXAMPLES=40 for a soak run (~20 min). The kernel's own ops are cheap: 30 each.
FUZZ_EXAMPLES = int(os.environ.get("TABLEE_FUZZ_EXAMPLES", "2"))
KERNEL_EXAMPLES = max(30, FUZZ_EXAMPLES)
KERNEL_OPS = {"describe", "roll", "odds", "store.new", "store.load", "store.check_character"}


def _messages(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((I18N / lang).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(data, dict), path
        merged.update(data)
    return merged


def test_describe_lists_systems_and_ops():
    r = api.handle({"op": "describe"})
    assert [s["id"] for s in r["systems"]] == list(registry.SYSTEM_IDS)
    assert len(r["systems"]) == 5
    names = [o["op"] for o in r["ops"]]
    assert names == sorted(registry.OPS)
    for o in r["ops"]:
        assert o["schema"]["properties"]["op"] == {"const": o["op"]}
        assert o["schema"]["additionalProperties"] is False
        assert o["system"] in (None, *registry.SYSTEM_IDS)
    assert {"roll", "odds", "store.new", "store.load", "store.check_character"} <= set(names)


@pytest.mark.parametrize("name", OP_NAMES)
def test_schema_is_valid_draft_2020_12(name):
    Draft202012Validator.check_schema(registry.OPS[name].schema)


def test_schema_strategies_are_built_once_per_process():
    """tests/conftest.py remembers hypothesis-jsonschema's strategy per schema (the fuzzes below
    took minutes without it): a library upgrade that drops the private function fails here."""
    import hypothesis_jsonschema._from_schema as built

    assert getattr(getattr(built, "__from_schema"), "tablee_remembers", False)
    schema = registry.OPS["theorem.remove"].schema
    assert from_schema(schema) is from_schema(json.loads(json.dumps(schema)))


@pytest.mark.slow
@pytest.mark.parametrize("name", OP_NAMES)
def test_fuzz_op_from_its_schema(name):
    codes = declared_codes()

    @settings(
        max_examples=KERNEL_EXAMPLES if name in KERNEL_OPS else FUZZ_EXAMPLES,
        deadline=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
        database=None,
    )
    @given(from_schema(registry.OPS[name].schema), st.randoms(use_true_random=False))
    def check(request, rnd):
        response = api.handle(request)
        assert isinstance(response, dict)
        json.dumps(response)  # JSON-ready
        if "error" in response:
            err = response["error"]
            assert set(err) == {"code", "message_key", "params"}
            assert err["code"] in codes, err
            assert err["code"] not in FORBIDDEN, (request, err)
            assert err["message_key"] == f"error.{err['code']}"
            assert isinstance(err["params"], dict)
        # The same request with its integers written as floats (``3.0``, as the page or an
        # imported file may send them) gets exactly the same answer (tests/test_whole_numbers.py).
        floaty = floats_for_ints(request, lambda: rnd.random() < 0.7)
        got = api.handle(floaty)
        assert got.get("error", {}).get("code") != "request.internal", (floaty, got)
        assert got == response, floaty

    check()


def test_every_declared_code_has_french_and_english_messages():
    codes = declared_codes()
    assert {"request.internal", "dice.syntax", "store.invalid"} <= codes
    for lang in ("fr", "en"):
        messages = _messages(lang)
        missing = sorted(c for c in codes if not str(messages.get(f"error.{c}", "")).strip())
        assert not missing, (lang, missing)


def test_kernel_namespace_is_the_same_in_both_languages():
    fr = json.loads((I18N / "fr" / "kernel.json").read_text(encoding="utf-8"))
    en = json.loads((I18N / "en" / "kernel.json").read_text(encoding="utf-8"))
    assert set(fr) == set(en)
    for key in fr:  # same placeholders on both sides
        assert sorted(_placeholders(fr[key])) == sorted(_placeholders(en[key])), key


def _placeholders(text: str) -> list[str]:
    import re

    return re.findall(r"\{(\w+)\}", text)


def test_handle_json_round_trip():
    req = {"op": "roll", "expr": "2d6+1", "seed": 99}
    text = api.handle_json(json.dumps(req))
    assert json.loads(text) == api.handle(req)
    assert json.loads(api.handle_json("not json"))["error"]["code"] == "request.not_json"
    assert json.loads(api.handle_json("[1, 2]"))["error"]["code"] == "request.not_object"
    assert json.loads(api.handle_json('{"op": "nope"}'))["error"] == {
        "code": "request.unknown_op", "message_key": "error.request.unknown_op", "params": {"op": "nope"},
    }
    bad = json.loads(api.handle_json('{"op": "roll", "expr": "d6"}'))["error"]
    assert bad["code"] == "request.invalid" and bad["params"]["op"] == "roll"
    fr = api.handle_json(json.dumps({"op": "store.new", "name": "Été", "language": "fr"}))
    assert "Été" in fr  # ensure_ascii=False: accents cross as text


def test_handle_json_refuses_deep_nesting_and_bad_json_as_errors():
    """A hostile file nested thousands deep must come back as an error, never an exception
    (in Pyodide the page refuses it first: static/js/engine.js, MAX_REQUEST_DEPTH)."""
    deep = json.loads(api.handle_json("[" * 5000 + "]" * 5000))
    assert deep["error"]["code"] == "request.too_deep"
    assert deep["error"]["params"] == {"max": api.MAX_REQUEST_DEPTH}
    assert json.loads(api.handle_json("{"))["error"]["code"] == "request.not_json"
