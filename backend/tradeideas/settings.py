"""Runtime configuration, read once from the environment (see README "Configuration")."""

import re
from collections.abc import Iterable
from functools import lru_cache
from ipaddress import ip_address, ip_network
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]

# FORWARDED_ALLOW_IPS, read as uvicorn reads it (core.proxies.TrustedProxies answers whether a peer is one of them).
DEFAULT_TRUSTED_PROXIES = "127.0.0.1,::1"


def trusted_entries(value: str | Iterable[str]) -> list[str]:
    """The entries of a FORWARDED_ALLOW_IPS value, checked: each is `*`, an IP address or a CIDR network."""
    entries = [entry.strip() for entry in (value.split(",") if isinstance(value, str) else value)]
    entries = [entry for entry in entries if entry]
    for entry in entries:
        if entry == "*":
            continue
        try:
            ip_network(entry, strict=False) if "/" in entry else ip_address(entry)
        except ValueError:
            raise ValueError(
                f"FORWARDED_ALLOW_IPS: {entry!r} is not an IP address, a CIDR network (10.0.0.0/8) or *"
            ) from None
    return entries


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    # Peers whose X-Forwarded-For, X-Forwarded-Proto and X-Request-ID the app believes (the proxy in front of
    # it): comma-separated IP addresses, CIDR networks or `*`; uvicorn's variable, handled in the app.
    forwarded_allow_ips: str = DEFAULT_TRUSTED_PROXIES
    workers: int = 1
    # Background worker processes `tradeideas serve` starts beside the server (price checks, push delivery,
    # housekeeping); 0 when they run elsewhere (`tradeideas worker`, on this machine or another).
    background_workers: int = Field(default=1, ge=0)
    # How much a background worker lowers its CPU priority (`nice`), so that requests win a busy machine's cores.
    background_nice: int = Field(default=0, ge=0, le=19)
    # How long a new server process may take to start answering its supervisor (slow machines, cold disks);
    # uvicorn's own default of 5 s restarted slow workers forever.
    worker_start_timeout_seconds: int = 60
    # On SIGTERM a serving process reports not-ready, lets requests in flight finish for up to this long, then ends
    # its event streams (their clients resume on another node) and exits (decision 0160).
    drain_seconds: float = Field(default=10.0, ge=0)
    # How many nodes run `tradeideas serve` against this database: a node refuses to start when all of them together
    # could open more connections than PostgreSQL accepts (decision 0161).
    cluster_nodes: int = Field(default=1, ge=1)
    data_dir: Path = Path("./data")
    database_url: str | None = None
    # PostgreSQL connections each server process keeps open, and the most it uses: a request waits for a free one
    # rather than opening another (decision 0046). Two cores are busy with about eight.
    database_pool_size: int = Field(default=10, ge=1)
    demo_password: str = "TradeIdeas2026!"  # noqa: S105 - documented demo-only default
    # Six months of completed ideas per demo educator on the first seed (tests that do not need them turn it off).
    demo_history: bool = True
    app_name: str = "Trade Ideas"
    # The address people open the app at (e.g. https://ideas.example.com). Invitation and reset links start
    # with it; unset, they start with the address the admin's request came to, which behind a proxy may be
    # an internal one.
    public_url: str | None = None
    channel_url: str = "https://t.me/tradeideas_signals"
    # Who a disabled member (or anyone stuck) should contact: an e-mail address or an http(s) address.
    support_contact: str = "support@example.com"
    static_dir: Path = REPO_ROOT / "frontend" / "dist"
    # Sessions: 30 days, slid forward at most once a day (spec §9).
    session_days: int = 30
    session_refresh_hours: int = 24
    # Brute-force limits (per account / per client address) over a 15-minute window.
    login_window_minutes: int = 15
    login_max_failures_per_account: int = 5
    login_max_failures_per_client: int = 30
    # Photos may be up to 10 MB; the multipart envelope needs a little more.
    max_body_bytes: int = Field(default=11 * 1024 * 1024)
    max_json_body_bytes: int = Field(default=256 * 1024)
    # Image uploads decoded at once per process (each up to ~100 MB while it is re-encoded).
    image_decode_concurrency: int = 2
    log_level: str = "info"
    # `json`: one JSON object per line (time, level, logger, message, request id, access fields); `text`: plain lines.
    log_format: Literal["text", "json"] = "text"
    # A line per request (method, path, status, duration, request id); always on when LOG_LEVEL is debug.
    access_log: bool = False
    # `GET /metrics` answers loopback callers, and others only with `Authorization: Bearer <METRICS_TOKEN>`.
    metrics_token: str | None = None
    # Realtime (Server-Sent Events): heartbeat comment interval, per-connection queue (a client that falls
    # this many events behind is dropped and replays on reconnect), most events replayed on reconnect
    # (beyond it the client gets `resync`), SQLite poll for other programs' commits, event retention.
    sse_heartbeat_seconds: float = 25.0
    sse_queue_size: int = 1000
    sse_replay_limit: int = 1000
    realtime_poll_seconds: float = 2.0
    events_keep_days: float = 7.0
    events_prune_interval_seconds: float = 3600.0
    # Housekeeping (expired sessions, used links, old events, media unused for 24 h) in the background:
    # seconds between runs, one process at a time; 0 turns it off (`tradeideas housekeeping` still works).
    housekeeping_interval_seconds: float = 3600.0
    # In-memory caches of sessions, idea pages and customers' seen marks (0 turns them off). Entries are
    # dropped by events the moment the data changes; the age limit only bounds memory.
    cache_entries: int = 10_000
    cache_max_age_seconds: float = 600.0
    # Uploaded media: `local` (DATA_DIR/media) or `s3` (an S3-compatible bucket, path-style; decision 0140). Every
    # node of several must use the same store.
    media_store: Literal["local", "s3"] = "local"
    s3_endpoint_url: str | None = None
    s3_bucket: str | None = None
    s3_region: str = "us-east-1"
    s3_access_key_id: str | None = None
    s3_secret_access_key: str | None = None
    # Web Push: VAPID keys (base64url raw private key or PEM; generated into DATA_DIR when unset).
    vapid_public_key: str | None = None
    vapid_private_key: str | None = None
    vapid_subject: str = "mailto:admin@example.com"
    push_max_attempts: int = 5
    push_retry_base_seconds: float = 10.0
    push_concurrency: int = 64
    push_batch_size: int = 500
    push_poll_seconds: float = 2.0
    push_timeout_seconds: float = 10.0
    push_ttl_seconds: int = 86400
    # Hosts (or `.suffix`es) push endpoints may point at: Chrome, Edge, Firefox and Safari's push services.
    # `http` is allowed only for 127.0.0.1 / localhost listed explicitly (tests). See push/endpoints.py.
    push_endpoint_hosts: str = (
        "fcm.googleapis.com,android.googleapis.com,.notify.windows.com,updates.push.services.mozilla.com,"
        ".push.apple.com"
    )
    # Messaging channel: a Telegram-style Bot API post per new idea when both token and chat id are set.
    telegram_bot_token: str | None = None
    telegram_chat_id: str | None = None
    telegram_api_base: str = "https://api.telegram.org"
    # Paid access (issue #40): without a secret key billing is off and admins grant access by hand.
    stripe_secret_key: str | None = None
    stripe_webhook_secret: str | None = None
    stripe_api_url: str = "https://api.stripe.com"
    billing_grace_days: int = Field(default=14, ge=0, le=60)
    # Price checks (decision 0050): every idea settled from market prices by the leading process. `off` asks no feed.
    price_feed: Literal["live", "off"] = "live"
    binance_api_url: str = "https://api.binance.com"
    oanda_api_url: str = "https://api-fxpractice.oanda.com"
    oanda_token: str | None = None
    # Forex, metals and indices: OANDA when a token is set, else Dukascopy's public tick files (no account); `off`.
    forex_feed: Literal["oanda", "dukascopy", "off"] | None = None
    dukascopy_url: str = "https://datafeed.dukascopy.com/datafeed"
    price_poll_seconds: float = Field(default=5.0, gt=0)
    # Every feed answer is untrusted: read up to this many bytes (the connection is closed past it), and a feed's
    # Retry-After or a symbol's backoff is never longer than this.
    price_max_response_bytes: int = Field(default=5_000_000, gt=0)
    price_max_backoff_seconds: float = Field(default=300.0, gt=0)
    # RFC 3161 time-stamp authorities (decision 0100): each finished UTC day's fingerprint and the running head every
    # hour are time-stamped by each of them. Comma-separated URLs; empty turns time-stamping off.
    tsa_urls: str = "https://freetsa.org/tsr,http://timestamp.digicert.com"
    tsa_timeout_seconds: float = Field(default=20.0, gt=0)

    @model_validator(mode="after")
    def _s3_store_has_a_bucket(self) -> "Settings":
        if self.media_store == "s3" and not self.s3_bucket:
            raise ValueError("MEDIA_STORE=s3 needs S3_BUCKET (and usually S3_ENDPOINT_URL and the S3 keys)")
        return self

    @property
    def tsa_url_list(self) -> list[str]:
        return [u.strip() for u in self.tsa_urls.split(",") if u.strip()]

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _forwarded_allow_ips_are_addresses(cls, value: str) -> str:
        return ",".join(trusted_entries(value))

    @field_validator("public_url")
    @classmethod
    def _public_url_is_a_web_address(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("PUBLIC_URL must be an http(s) address such as https://ideas.example.com")
        return value.rstrip("/")

    @field_validator("support_contact")
    @classmethod
    def _support_contact_is_an_address(cls, value: str) -> str:
        value = value.strip().removeprefix("mailto:")
        parts = urlsplit(value)
        if parts.scheme in ("http", "https") and parts.netloc:
            return value
        if re.fullmatch(r"[^@\s/]+@[^@\s/]+\.[^@\s/]+", value):
            return value
        raise ValueError(
            "SUPPORT_CONTACT must be an e-mail address or an http(s) address such as https://help.example.com"
        )

    @property
    def forex_feed_in_use(self) -> Literal["oanda", "dukascopy", "off"]:
        """FOREX_FEED, or by default OANDA when a token is set and Dukascopy otherwise."""
        if self.forex_feed is not None:
            return self.forex_feed
        return "oanda" if self.oanda_token else "dukascopy"

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            url = self.database_url
            # Accept the plain forms people paste and pick the async drivers we ship.
            if url.startswith("postgres://"):
                url = "postgresql+asyncpg://" + url.removeprefix("postgres://")
            elif url.startswith("postgresql://"):
                url = "postgresql+asyncpg://" + url.removeprefix("postgresql://")
            elif url.startswith("sqlite:///"):
                url = "sqlite+aiosqlite:///" + url.removeprefix("sqlite:///")
            return url
        return f"sqlite+aiosqlite:///{self.data_dir.resolve() / 'tradeideas.db'}"

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")

    @property
    def access_log_enabled(self) -> bool:
        return self.access_log or self.log_level.lower() == "debug"

    @property
    def media_dir(self) -> Path:
        return self.data_dir.resolve() / "media"


@lru_cache
def get_settings() -> Settings:
    return Settings()
