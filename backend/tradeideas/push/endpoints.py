"""Which push endpoints the server may POST to: `https` on an allow-listed push service, nothing else.

Without this, anyone logged in could register `http://10.0.0.5/...` and make the server send requests into
its own network (server-side request forgery). The list (`PUSH_ENDPOINT_HOSTS`) holds host names and
`.suffix`es, and an endpoint must use the https port (443, or none written): a listed host on another port
is another service on that machine. Only `127.0.0.1` / `localhost`, when listed explicitly (tests and local
fakes), may be reached over plain `http` and on any port. Checked when a subscription is saved and again before
every delivery.
"""

from urllib.parse import urlsplit

LOOPBACK_HOSTS = ("127.0.0.1", "localhost")
HTTPS_PORT = 443


class EndpointPolicy:
    def __init__(self, hosts: str) -> None:
        entries = [entry.strip().lower() for entry in hosts.split(",") if entry.strip()]
        self.exact = {entry for entry in entries if not entry.startswith(".")}
        self.suffixes = tuple(entry for entry in entries if entry.startswith("."))

    def _host_listed(self, host: str) -> bool:
        return host in self.exact or any(host.endswith(suffix) for suffix in self.suffixes)

    def refusal(self, endpoint: str) -> str | None:
        """None when the server may send to `endpoint`, else why not (shown to the caller as is)."""
        try:
            parts = urlsplit(endpoint.strip())
            host = (parts.hostname or "").lower()
            port = parts.port  # raises ValueError on a malformed port
        except ValueError:
            return "Push endpoint is not a valid URL"
        if parts.username is not None or parts.password is not None:
            return "Push endpoint must not contain credentials"
        if parts.scheme in ("http", "https") and host in LOOPBACK_HOSTS and host in self.exact:
            return None  # a test's or a local fake's push service, on whatever port it was given
        if parts.scheme != "https":
            return "Push endpoint must be an https URL of a browser push service"
        if not (host and self._host_listed(host)):
            return f"Push endpoint host {host or '(none)'} is not an allowed push service"
        if port not in (None, HTTPS_PORT):
            return f"Push endpoint must use the https port ({HTTPS_PORT})"
        return None
