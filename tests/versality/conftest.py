"""Versality tests: ``api`` plays a player op as the app does (op, then the store's merge)."""

import pytest
from versality_store import play

from api_calls import answering


@pytest.fixture
def api():
    """Call the JSON door like the app's store and fail loudly on an error response."""
    return answering(play)
