"""Tablée rules engine: pure Python, no I/O, no clock, no DOM.

The browser reaches it only through :func:`tablee.api.handle` (JSON in, JSON out).
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
