"""VAPID keys: from settings, or generated once into the database (so every worker and every node agrees).

An installation from before issue #41 kept a generated key in DATA_DIR/vapid_private_key.pem: the first start
moves it into the database, and the file is read no more (browsers subscribed with that key keep receiving).
"""

import asyncio
import base64
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from tradeideas.core.models import ServerKey
from tradeideas.db import Database, utcnow
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

KEY_FILE = "vapid_private_key.pem"  # where installations before the database kept it
VAPID_KEY_NAME = "vapid_private_key"
TOKEN_LIFETIME = 12 * 3600  # RFC 8292 allows at most 24 h
TOKEN_REFRESH_MARGIN = 3600


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def _parse_private_key(value: str) -> ec.EllipticCurvePrivateKey:
    value = value.strip()
    if value.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(value.encode(), password=None)
    else:
        raw = b64url_decode(value.replace("\n", ""))
        if len(raw) == 32:
            key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
        else:
            key = serialization.load_der_private_key(raw, password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError("VAPID_PRIVATE_KEY must be a P-256 EC private key")
    return key


def _pem(key: ec.EllipticCurvePrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def _key_from_disk(path: Path) -> str | None:
    """An older installation's generated key (DATA_DIR/vapid_private_key.pem), checked, as PEM."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None
    return _pem(_parse_private_key(text))


async def _stored_key(db: Database, settings: Settings) -> ec.EllipticCurvePrivateKey:
    """The key in the database; on the very first start moved there from DATA_DIR (an existing installation's
    file) or generated. Several nodes starting at once each offer theirs; the first insert wins and everyone
    reads the winner, so every node serves the same key."""
    async with db.sessionmaker() as session:
        row = await session.get(ServerKey, VAPID_KEY_NAME)
        if row is not None:
            return _parse_private_key(row.value)
    from_disk = await asyncio.to_thread(_key_from_disk, settings.data_dir.resolve() / KEY_FILE)
    offered = from_disk or _pem(ec.generate_private_key(ec.SECP256R1()))
    async with db.sessionmaker() as session, session.begin():
        insert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else pg_insert
        await session.execute(
            insert(ServerKey).values(name=VAPID_KEY_NAME, value=offered, created_at=utcnow()).on_conflict_do_nothing()
        )
    async with db.sessionmaker() as session:
        value = (await session.execute(select(ServerKey.value).where(ServerKey.name == VAPID_KEY_NAME))).scalar_one()
    if value == offered:
        log.info("Web Push key %s the database", f"moved from {KEY_FILE} into" if from_disk else "generated into")
    return _parse_private_key(value)


@dataclass
class VapidKeys:
    private_key: ec.EllipticCurvePrivateKey
    subject: str
    _tokens: dict[str, tuple[float, dict[str, str]]] = field(default_factory=dict)

    @property
    def public_key(self) -> str:
        """The application server key browsers pass to pushManager.subscribe (base64url, uncompressed point)."""
        raw = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(raw)

    def headers(self, endpoint: str) -> dict[str, str]:
        """The Authorization header for a push service, signed once per origin and reused for hours."""
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        now = time.time()
        cached = self._tokens.get(audience)
        if cached is not None and cached[0] - now > TOKEN_REFRESH_MARGIN:
            return cached[1]
        expires = int(now) + TOKEN_LIFETIME
        vapid = Vapid02(private_key=self.private_key)
        signed = vapid.sign({"sub": self.subject, "aud": audience, "exp": expires})
        headers = {"Authorization": signed["Authorization"]}
        self._tokens[audience] = (expires, headers)
        return headers


async def load_vapid_keys(settings: Settings, db: Database) -> VapidKeys:
    """VAPID_PRIVATE_KEY when set; otherwise the key kept in the database (made once, shared by every node)."""
    if settings.vapid_private_key:
        key = _parse_private_key(settings.vapid_private_key)
    else:
        key = await _stored_key(db, settings)
    keys = VapidKeys(private_key=key, subject=settings.vapid_subject)
    if settings.vapid_public_key and settings.vapid_public_key.strip().rstrip("=") != keys.public_key:
        log.warning("VAPID_PUBLIC_KEY does not match VAPID_PRIVATE_KEY; using the key derived from the private key")
    return keys
