"""Which peers are trusted proxies: `FORWARDED_ALLOW_IPS`, read as uvicorn reads it (comma-separated IP addresses,
CIDR networks, or `*` for every peer).

The app, not the server, handles the forwarding headers: `AppEdge` asks whether the peer that sent a request is
one of these before it reuses its `X-Request-ID`, and uvicorn's `ProxyHeadersMiddleware`, inside the edge, takes
the client address and scheme from `X-Forwarded-For` / `X-Forwarded-Proto` of the same peers.
"""

from collections.abc import Iterable
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

# The value's default and its check live with the settings that read it (settings import nothing of the app);
# `as`: re-exported for the app factory, which imports the default from here.
from tradeideas.settings import DEFAULT_TRUSTED_PROXIES as DEFAULT_TRUSTED_PROXIES
from tradeideas.settings import trusted_entries


class TrustedProxies:
    """`host in trusted`: whether a peer's address (the ASGI scope's client host) is a trusted proxy."""

    def __init__(self, value: str | Iterable[str] = DEFAULT_TRUSTED_PROXIES) -> None:
        entries = trusted_entries(value)
        self.everyone = "*" in entries
        self.addresses: frozenset[IPv4Address | IPv6Address] = frozenset(
            ip_address(entry) for entry in entries if entry != "*" and "/" not in entry
        )
        self.networks: tuple[IPv4Network | IPv6Network, ...] = tuple(
            ip_network(entry, strict=False) for entry in entries if "/" in entry
        )

    def __contains__(self, host: object) -> bool:
        if self.everyone:
            return True
        if not isinstance(host, str):
            return False  # no peer address (a Unix socket): nothing to trust
        try:
            address = ip_address(host)
        except ValueError:
            return False
        return address in self.addresses or any(address in network for network in self.networks)
