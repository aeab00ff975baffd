"""Which push endpoints the server may POST to: `https` on an allow-listed push service, nothing else.

Without this, anyone logged in could register `http://10.0.0.5/...` and make the server send requests into
its own network (server-side request forgery). The list (`PUSH_ENDPOINT_HOSTS`) holds host names and
`.suffix`es; plain `http` is accepted only for `127.0.0.1` / `localhost`, and only when listed explicitly
(tests and local fakes). Checked when a subscription is saved and again before every delivery.
"""

from urllib.parse import urlsplit

LOOPBACK_HOSTS = ("127.0.0.1", "localhost")


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
            parts.port  # noqa: B018 - raises ValueError on a malformed port
        except ValueError:
            return "Push endpoint is not a valid URL"
        if parts.username is not None or parts.password is not None:
            return "Push endpoint must not contain credentials"
        if parts.scheme == "https" and host and self._host_listed(host):
            return None
        if parts.scheme == "http" and host in LOOPBACK_HOSTS and host in self.exact:
            return None
        if parts.scheme != "https":
            return "Push endpoint must be an https URL of a browser push service"
        return f"Push endpoint host {host or '(none)'} is not an allowed push service"
