"""Unit tests run the rules package on CPython exactly as the worker runs it.

The engine imports a system on its first request (issue 14); the tests read ``OPS`` and
``declared_codes()`` at collection, so every op module is imported here first
(tests/test_lazy_boot.py checks the lazy path in fresh interpreters).
"""

import pytest
from hypothesis import settings

from tablee.api import load_all

load_all()

# No time limit on a Hypothesis example: timings belong to `make bench`, never to tests (a busy
# machine made one Chronoste example take 366 ms against the default 200 ms deadline).
settings.register_profile("tablee", deadline=None)
settings.load_profile("tablee")


@pytest.fixture
def api():
    """Call the JSON door and fail loudly on an error response."""
    from api_calls import call

    return call
