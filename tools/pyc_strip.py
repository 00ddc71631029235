"""Bytecode without docstrings, for the worker's archives (run inside the vendored Pyodide by
tools/pyc_compile.mjs, so the bytecode is that interpreter's).

A docstring is the first statement of a module, class or function body when it is a string
constant. Left out, the code object no longer carries it and ``__doc__`` is None: about a
seventh of the bytes of the standard library and of the package's archives, which the engine
downloads on a first visit. Nothing the worker runs reads a docstring (tests/test_pyc_strip.py
checks the package, its wheels and the worker's entry for ``__doc__``, ``inspect.getdoc`` and
``pydoc``), with two exceptions kept as they are:

* Pyodide's own packages (``pyodide``, ``_pyodide``): its C core may read their classes'
  docstrings (``_pyodide._core_docs``), and they are small;
* a class decorated with ``dataclass``: ``dataclasses`` writes a missing docstring from the
  class's ``inspect.signature``, work at import for nothing.

Asserts and ``__debug__`` stay (``python -OO`` would drop them too: it changes what runs).
"""

from __future__ import annotations

import ast
import importlib.util
from importlib._bootstrap_external import _code_to_hash_pyc

#: Top-level packages compiled with their docstrings (see above).
KEEP = ("pyodide", "_pyodide")


def strips(rel: str) -> bool:
    """Whether the file at ``rel`` (a path relative to its archive's root) loses its docstrings."""
    return rel.replace("\\", "/").split("/")[0].removesuffix(".py") not in KEEP


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _is_dataclass(node: ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name == "dataclass":
            return True
    return False


def strip_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` with the docstrings of its module, classes and functions removed (a body left
    empty gets ``pass``, at the docstring's place)."""
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.ClassDef) and _is_dataclass(node):
            continue
        if node.body and _is_docstring(node.body[0]):
            first = node.body[0]
            node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
    return tree


def pyc_bytes(source: bytes, filename: str, strip: bool = True) -> bytes:
    """An unchecked hash-based .pyc of ``source`` (its code named ``filename``), without its
    docstrings when ``strip``: the header holds the hash of ``source`` as it is."""
    tree = ast.parse(source, filename)
    if strip:
        tree = strip_docstrings(tree)
    code = compile(tree, filename, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))
