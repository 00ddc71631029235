"""Unit tests run the rules package on CPython exactly as the worker runs it.

The engine imports a system on its first request (issue 14); the tests read ``OPS`` and
``declared_codes()`` at collection, so every op module is imported here first
(tests/test_lazy_boot.py checks the lazy path in fresh interpreters).
"""

import pytest

from tablee.api import load_all

load_all()


@pytest.fixture
def api():
    """Call the JSON door and fail loudly on an error response."""
    from api_calls import call

    return call


# No time limit on a Hypothesis example: timings belong to `make bench`, never to tests (a busy
# machine made one Chronoste example take 366 ms against the default 200 ms deadline).
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("tablee", deadline=None)
_hypothesis_settings.load_profile("tablee")
