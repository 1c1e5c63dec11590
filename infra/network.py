"""Small facts of the network, for every layer: which addresses are this machine's alone."""

from __future__ import annotations

import ipaddress


def is_loopback_address(host: str) -> bool:
    """Whether an address the server listens on, or a connection reached, is this machine's
    alone: a loopback IP (127.0.0.0/8, ::1) or `localhost`. `0.0.0.0` and `::` are every
    address, so not loopback."""
    host = host.strip().strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
