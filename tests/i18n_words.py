"""The i18n tests' readers of the catalogues: every text of a language (english, raw_ids), a text
said with its parameters (worded), and a key rendered as the page renders it (rendered)."""

from __future__ import annotations

import json
import re
import subprocess
from functools import cache

from node_harness import NODE, ROOT

#: What an id looks like when it reaches a person.
RAW_ID = re.compile(
    r"\{\w+\}"  # an unfilled placeholder
    r"|\b[a-z]+(?:\.[a-z0-9_]+){2,}\b"  # a message key (error.theorem.char.invalid)
    r"|\b[a-z]+-\d+\b"  # an id with a number (arcane-03)
    r"|\b[a-z]+_[a-z_]+\b"  # snake_case
    r"|\b(?:theorem|pointzero|systmj|unicreon|versality)\b"  # a system's code name in lower case
)
#: English words that have no business in a French sentence.
ENGLISH = re.compile(
    r"\b(the|and|of|must|be|is|are|with|without|integer|string|should|not|from|this|that|will|your|"
    r"please|error|failed|true|false|null|undefined|none|items|item|properties|property|bigger|smaller|"
    r"equal|than|longer|shorter|valid|object|array|number|boolean|data|seed|backup|link|share|player|"
    r"players|draw|roll)\b",
    re.IGNORECASE,
)
#: Words the checks allow because the interface names them so on purpose ("deck" is
#: Versality's own word, rule text 001).
ALLOWED_RAW = {"lit-html", "oui-mais", "non-mais", "oui-et", "non-et", "stun.example.org", "turn.example.org"}


@cache
def rendered() -> dict[str, dict[str, list[str]]]:
    out = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(ROOT / "tests/js/i18n_render.mjs")],
        cwd=ROOT, capture_output=True, text=True, encoding="utf-8", check=True,
    )
    return json.loads(out.stdout)


def raw_ids(text: str) -> list[str]:
    return [m.group(0) for m in RAW_ID.finditer(text) if m.group(0) not in ALLOWED_RAW]


def english(text: str) -> list[str]:
    return [m.group(0) for m in ENGLISH.finditer(text)]


def worded(errors: list[dict]) -> dict[str, list[str]]:
    out = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(ROOT / "tests/js/i18n_render.mjs"), "errors"],
        cwd=ROOT, input=json.dumps(errors), capture_output=True, text=True, encoding="utf-8", check=True,
    )
    return json.loads(out.stdout)
