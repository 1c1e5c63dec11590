"""The benchmarks' harness never drops a database another run is serving from."""

import socket

import pytest

from benchmarks import _servers
from benchmarks._servers import POSTGRES_3, Servers


def test_prepare_refuses_before_dropping_anything_when_a_port_answers(monkeypatch):
    ran = []
    monkeypatch.setattr(_servers, "_run", lambda cmd, **kw: ran.append(cmd))
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        servers = Servers(POSTGRES_3, base_port=port - 1, database="patience_not_touched")
        try:
            with pytest.raises(RuntimeError, match=f"127.0.0.1:{port} in use"):
                servers.prepare()
        finally:
            servers.tmp.cleanup()
    assert ran == []
