"""Client addresses and their networks: what the throttles count and what attempts keep for
the review of held results."""

from __future__ import annotations

import ipaddress


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


def address_or_none(address: str | None) -> str | None:
    """`address` as an IP address's text, or None when it is not one."""
    try:
        return str(ipaddress.ip_address((address or "").strip()))
    except ValueError:
        return None
