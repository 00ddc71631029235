"""Unit tests run the rules package on CPython exactly as the worker runs it."""

import pytest

from tablee.api import handle


@pytest.fixture
def api():
    """Call the JSON door and fail loudly on an error response."""

    def call(request: dict) -> dict:
        response = handle(request)
        assert "error" not in response, response
        return response

    return call
