"""Who is on the other end of a connection: the client's address as this deployment trusts it,
and its network. The one home of that rule, for HTTP requests (throttles, login lockouts, the
addresses attempts keep for the review of held results) and WebSocket scopes (socket budgets).

With `NUM_PROXIES` = 0 (nothing in front of the app), the address is the connection's own
(`REMOTE_ADDR`, the ASGI scope's `client`) and `X-Forwarded-For` is ignored: anybody can write
it. With N trusted proxies in front, each appends the address it was reached from, so the
client's is the N-th from the right; whatever the client wrote itself is further left and never
read. A header with fewer entries than proxies gives its leftmost (a proxy that was skipped).

The network is the address widened to its IPv4 /24 or IPv6 /64: a household, an office or a
host whose addresses are all alike. An IPv6 address is also widened to its /56
(`network56_of`): what a provider commonly gives one customer, whose router hands out /64s
from it, so that one home may hold many /64s.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from rest_framework.settings import api_settings


def trusted_address(remote: str | None, forwarded_for: str | None) -> str:
    """The client's address from the connection's address and its X-Forwarded-For header,
    by `NUM_PROXIES` ("" when neither says anything)."""
    proxies = api_settings.NUM_PROXIES or 0
    if proxies > 0 and forwarded_for:
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return (remote or "").strip()


def request_address(request: Any) -> str:
    """The client address of an HTTP request (Django's or DRF's)."""
    meta = getattr(request, "META", {})
    return trusted_address(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"))


def scope_address(scope: dict[str, Any]) -> str:
    """The client address of an ASGI scope (a WebSocket's)."""
    client = scope.get("client") or (None, None)
    forwarded = _header(scope.get("headers", ()), b"x-forwarded-for")
    return trusted_address(client[0], forwarded)


def _header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    """A header's values joined as HTTP joins repeated ones ("a, b"), or None."""
    found = [value.decode("latin-1") for key, value in headers if key.lower() == name]
    return ", ".join(found) if found else None


def network_of(address: str) -> str:
    """The /24 (IPv4) or /64 (IPv6) network of an address; the text itself if it is none.

    >>> network_of("203.0.113.77"), network_of("2001:db8::1"), network_of("::ffff:10.1.2.3")
    ('203.0.113.0/24', '2001:db8::/64', '10.1.2.0/24')
    """
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address.strip()
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def network56_of(address: str) -> str:
    """The /56 of an IPv6 address; "" for an IPv4 one (an IPv4-mapped IPv6 address is one) or
    for text that is no address.

    >>> network56_of("2001:db8:0:12ab::1"), network56_of("203.0.113.77"), network56_of("x")
    ('2001:db8:0:1200::/56', '', '')
    """
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return ""
    if not isinstance(ip, ipaddress.IPv6Address) or ip.ipv4_mapped is not None:
        return ""
    return str(ipaddress.ip_network(f"{ip}/56", strict=False))


def address_or_none(address: str | None) -> str | None:
    """`address` as an IP address's text, or None when it is not one."""
    try:
        return str(ipaddress.ip_address((address or "").strip()))
    except ValueError:
        return None
