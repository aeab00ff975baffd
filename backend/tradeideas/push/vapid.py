"""VAPID keys: from settings, or generated once into DATA_DIR (atomically, so several workers agree)."""

import base64
import logging
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from tradeideas.settings import Settings

log = logging.getLogger(__name__)

KEY_FILE = "vapid_private_key.pem"
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


def _load_or_create_file(path: Path) -> ec.EllipticCurvePrivateKey:
    """Create the key file once: write a temp file, then hard-link it into place (fails if another won)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(8)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, pem)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
            log.info("generated VAPID keys in %s", path)
        except FileExistsError:
            pass  # another worker created it first: use theirs
        finally:
            tmp.unlink(missing_ok=True)
    return _parse_private_key(path.read_text())


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


def load_vapid_keys(settings: Settings) -> VapidKeys:
    if settings.vapid_private_key:
        key = _parse_private_key(settings.vapid_private_key)
    else:
        key = _load_or_create_file(settings.data_dir.resolve() / KEY_FILE)
    keys = VapidKeys(private_key=key, subject=settings.vapid_subject)
    if settings.vapid_public_key and settings.vapid_public_key.strip().rstrip("=") != keys.public_key:
        log.warning("VAPID_PUBLIC_KEY does not match VAPID_PRIVATE_KEY; using the key derived from the private key")
    return keys
