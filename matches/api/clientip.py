"""The address of the client, which a client cannot choose.

`X-Forwarded-For` is written by whoever sends the request, so it is believed only when the
connection comes from a proxy listed in `TRUSTED_PROXIES` (addresses or networks, from the
environment; deploy/README.md). Then the header is read from the right (each trusted proxy
appends the address it was connected from) and the first address that is not a trusted proxy
is the client. Without trusted proxies the peer's address is the client, whatever the headers
say. Every per-address limit uses this: DRF's throttles, the login lockout (django-axes) and
the caps on open streams.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in spec if item.strip())


def trusted_networks() -> tuple[Network, ...]:
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(addr: Any, networks: tuple[Network, ...]) -> bool:
    return addr is not None and any(addr in net for net in networks)


def client_ip(meta: Mapping[str, Any]) -> str:
    """The client's address from a request's META (or an ASGI scope turned into one)."""
    remote = str(meta.get("REMOTE_ADDR") or "")
    networks = trusted_networks()
    if not networks or not _trusted(_address(remote), networks):
        return remote
    hops = [h for h in str(meta.get("HTTP_X_FORWARDED_FOR") or "").split(",") if h.strip()]
    client = remote
    for hop in reversed(hops):
        addr = _address(hop)
        if addr is None:
            break  # garbage in the chain: the last trusted hop's address stands
        client = str(addr)
        if not _trusted(addr, networks):
            break
    return client


def request_ip(request: Any) -> str:
    """`client_ip` of a Django or DRF request (django-axes' AXES_CLIENT_IP_CALLABLE)."""
    return client_ip(getattr(request, "META", {}))


def scope_ip(scope: Mapping[str, Any]) -> str:
    """`client_ip` of an ASGI scope (WebSockets)."""
    client = scope.get("client") or ("", 0)
    meta: dict[str, Any] = {"REMOTE_ADDR": client[0]}
    for name, value in scope.get("headers") or ():
        if name == b"x-forwarded-for":
            meta["HTTP_X_FORWARDED_FOR"] = value.decode("latin-1")
    return client_ip(meta)
