import socket

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def free_port():
    """Call it for a port on 127.0.0.1 that was free a moment ago (for servers a test starts)."""
    return _free_port
