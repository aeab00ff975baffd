"""Sending one message: Web Push (aes128gcm-encrypted with pywebpush, VAPID-signed) or a Bot API post."""

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import aiohttp
from pywebpush import WebPusher

from tradeideas.push.endpoints import EndpointPolicy
from tradeideas.push.vapid import VapidKeys
from tradeideas.settings import Settings

log = logging.getLogger(__name__)


class Outcome(StrEnum):
    SENT = "sent"
    GONE = "gone"  # 404/410: the subscription no longer exists
    RETRY = "retry"  # 429, 5xx, network trouble
    FAILED = "failed"  # anything else: retrying will not help


@dataclass
class Result:
    outcome: Outcome
    status: int | None = None
    error: str | None = None


@dataclass
class WebPushTarget:
    endpoint: str
    p256dh: str
    auth: str


def _classify(status: int, body: str) -> Result:
    if 200 <= status < 300:
        return Result(Outcome.SENT, status)
    error = f"HTTP {status}: {body[:200]}".strip()
    if status in (404, 410):
        return Result(Outcome.GONE, status, error)
    if status == 429 or status >= 500:
        return Result(Outcome.RETRY, status, error)
    return Result(Outcome.FAILED, status, error)


def encrypt(target: WebPushTarget, payload: bytes) -> bytes:
    """RFC 8291 aes128gcm body for one subscription (CPU work: call from a thread)."""
    info = {"endpoint": target.endpoint, "keys": {"p256dh": target.p256dh, "auth": target.auth}}
    body: bytes = WebPusher(info).encode(payload, "aes128gcm")["body"]
    return body


def encrypt_many(items: Sequence[tuple[WebPushTarget, bytes]]) -> list[bytes | Exception]:
    out: list[bytes | Exception] = []
    for target, payload in items:
        try:
            out.append(encrypt(target, payload))
        except Exception as exc:
            out.append(exc)
    return out


class Sender:
    """Holds one HTTP connection pool per process; safe to share between the worker and request handlers."""

    def __init__(self, settings: Settings, keys: VapidKeys) -> None:
        self.settings = settings
        self.keys = keys
        self.endpoints = EndpointPolicy(settings.push_endpoint_hosts)
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=self.settings.push_timeout_seconds),
                connector=aiohttp.TCPConnector(limit=self.settings.push_concurrency, limit_per_host=0),
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def post_webpush(self, target: WebPushTarget, body: bytes, *, ttl: int | None = None) -> Result:
        refusal = self.endpoints.refusal(target.endpoint)  # the list may have changed since it was saved
        if refusal is not None:
            return Result(Outcome.FAILED, None, refusal)
        headers = {
            **self.keys.headers(target.endpoint),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(self.settings.push_ttl_seconds if ttl is None else ttl),
            "Urgency": "high",
        }
        try:
            # Never follow a redirect: it could lead anywhere, including into our own network.
            post = self._http().post(target.endpoint, data=body, headers=headers, allow_redirects=False)
            async with post as response:
                return _classify(response.status, await response.text(errors="replace"))
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            return Result(Outcome.RETRY, None, f"{type(exc).__name__}: {exc}"[:300])

    async def send_webpush(self, target: WebPushTarget, message: dict[str, Any]) -> Result:
        """Encrypt (in a thread) and post one notification."""
        try:
            body = await asyncio.to_thread(encrypt, target, json.dumps(message).encode())
        except Exception as exc:
            return Result(Outcome.FAILED, None, f"encryption failed: {exc}"[:300])
        return await self.post_webpush(target, body)

    async def send_telegram(self, message: dict[str, Any]) -> Result:
        token, chat_id = self.settings.telegram_bot_token, self.settings.telegram_chat_id
        if not token or not chat_id:
            return Result(Outcome.FAILED, None, "messaging channel is not configured")
        url = f"{self.settings.telegram_api_base.rstrip('/')}/bot{token}/sendMessage"
        body = {"chat_id": chat_id, "text": message.get("text", ""), "disable_web_page_preview": True}
        try:
            async with self._http().post(url, json=body) as response:
                result = _classify(response.status, await response.text(errors="replace"))
                # A token in a URL must never reach the logs.
                if result.error:
                    result.error = result.error.replace(token, "***")
                return result
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            return Result(Outcome.RETRY, None, f"{type(exc).__name__}"[:300])
