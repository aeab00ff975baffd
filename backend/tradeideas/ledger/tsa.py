"""RFC 3161 time-stamps of the chain's hashes: the request, the authority's reply and the token it holds.

What is time-stamped is a hash of the chain as published (64 lower-case hex characters); the request's imprint is
SHA-256 of that text's ASCII bytes, so anyone can check a token with `openssl ts -verify -data` on a file holding
the hash (decision 0100). The ASN.1 is read and written with asn1crypto; signatures and certificates are checked
with cryptography. Every reply is untrusted: it must be granted, carry a token signed by the certificate inside it
(with the time-stamping purpose), over our imprint, with our nonce, and a believable time.
"""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx
from asn1crypto import algos, cms, core, tsp, x509
from cryptography import x509 as cx509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID

REQUEST_TYPE = "application/timestamp-query"
REPLY_TYPE = "application/timestamp-reply"
# The most bytes read of a reply: a token with a chain of a few certificates is a few kilobytes.
MAX_REPLY_BYTES = 256 * 1024
# How far an authority's time may be from ours when it answers (its clock, or a replayed reply).
MAX_CLOCK_SKEW = timedelta(minutes=5)
HASHES: dict[str, hashes.HashAlgorithm] = {
    "sha224": hashes.SHA224(),
    "sha256": hashes.SHA256(),
    "sha384": hashes.SHA384(),
    "sha512": hashes.SHA512(),
}


class TsaError(Exception):
    """A reply or token that does not prove what it should; the message says what is wrong."""


def imprint(hash_hex: str) -> bytes:
    """The message imprint of a chain hash: SHA-256 of its 64 hex characters (ASCII)."""
    return hashlib.sha256(hash_hex.encode("ascii")).digest()


def request(hash_hex: str, nonce: int | None = None) -> tuple[bytes, int]:
    """A DER TimeStampReq over the hash's imprint, with a random 64-bit nonce and certReq (the signer's certificate
    in the token, so the token can be checked on its own)."""
    nonce = secrets.randbits(64) if nonce is None else nonce
    req = tsp.TimeStampReq(
        {
            "version": "v1",
            "message_imprint": {
                "hash_algorithm": algos.DigestAlgorithm({"algorithm": "sha256"}),
                "hashed_message": imprint(hash_hex),
            },
            "nonce": nonce,
            "cert_req": True,
        }
    )
    return req.dump(), nonce


@dataclass(frozen=True)
class Stamp:
    """A checked token: its DER (a CMS ContentInfo of SignedData over a TSTInfo) and the authority's time."""

    token: bytes
    at: datetime
    serial: int
    nonce: int | None


def check_reply(reply: bytes, hash_hex: str, nonce: int, now: datetime) -> Stamp:
    """The token of a TimeStampResp, having checked the status (granted), the token's signature, the imprint, the
    nonce and the time (within MAX_CLOCK_SKEW of `now`)."""
    # Read as two parts: asn1crypto's TimeStampResp requires the token, which RFC 3161 omits from a refusal.
    try:
        parts = core.Sequence.load(reply, strict=True)
        status_info = tsp.PKIStatusInfo.load(parts[0].dump(), strict=True)
        status = status_info["status"].native
        token = parts[1].dump() if len(parts) > 1 else None
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise TsaError(f"the reply is not a TimeStampResp ({exc})") from exc
    if status not in ("granted", "granted_with_mods"):
        said = "; ".join(status_info["status_string"].native or [])
        raise TsaError(f"the authority refused: {status}" + (f" ({said})" if said else ""))
    if token is None:
        raise TsaError("the reply is granted but holds no token")
    stamp = check_token(token, hash_hex)
    if stamp.nonce != nonce:
        raise TsaError(f"the token's nonce {stamp.nonce} is not the request's ({nonce})")
    if abs(stamp.at - now) > MAX_CLOCK_SKEW:
        raise TsaError(f"the token's time {stamp.at.isoformat()} is not now ({now.isoformat()})")
    return stamp


def _signer(signed: cms.SignedData, info: cms.SignerInfo) -> x509.Certificate:
    sid = info["sid"]
    for choice in signed["certificates"] or []:
        if choice.name != "certificate":
            continue
        cert = choice.chosen
        if sid.name == "issuer_and_serial_number":
            if cert.issuer == sid.chosen["issuer"] and cert.serial_number == sid.chosen["serial_number"].native:
                return cert
        elif cert.key_identifier == sid.chosen.native:
            return cert
    raise TsaError("the token does not hold its signer's certificate")


def _verify_signature(cert: cx509.Certificate, signature: bytes, data: bytes, algorithm: str, digest: str) -> None:
    key = cert.public_key()
    chosen = HASHES.get(digest)
    if chosen is None:
        raise TsaError(f"the token is signed with an unsupported digest {digest}")
    try:
        if isinstance(key, rsa.RSAPublicKey):
            if algorithm == "rsassa_pss":
                key.verify(signature, data, padding.PSS(padding.MGF1(chosen), padding.PSS.AUTO), chosen)
            else:
                key.verify(signature, data, padding.PKCS1v15(), chosen)
        elif isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signature, data, ec.ECDSA(chosen))
        else:
            raise TsaError(f"the signer's key ({type(key).__name__}) is not RSA or EC")
    except InvalidSignature as exc:
        raise TsaError("the token's signature does not verify with the certificate in it") from exc


def check_token(token: bytes, hash_hex: str, trusted: list[cx509.Certificate] | None = None) -> Stamp:
    """Check a token (DER ContentInfo) on its own: a SignedData over a TSTInfo, the signed attributes' digest is the
    TSTInfo's, the signature verifies with the signer's certificate in the token, which is for time-stamping, and
    the imprint is SHA-256 of `hash_hex`. With `trusted` (authorities' CA certificates), the signer's certificate
    must also chain to one of them through the token's certificates, valid at the token's time."""
    try:
        info = cms.ContentInfo.load(token, strict=True)
        if info["content_type"].native != "signed_data":
            raise TsaError("the token is not CMS SignedData")
        signed = info["content"]
        encap = signed["encap_content_info"]
        if encap["content_type"].native != "tst_info":
            raise TsaError("the token does not sign a TSTInfo")
        tst_der = encap["content"].contents
        tst = tsp.TSTInfo.load(tst_der, strict=True)
        signers = list(signed["signer_infos"])
        if len(signers) != 1:
            raise TsaError(f"the token has {len(signers)} signers, not one")
        signer = signers[0]
        cert = _signer(signed, signer)
        attrs = signer["signed_attrs"]
        digest = signer["digest_algorithm"]["algorithm"].native
        hashed_message = tst["message_imprint"]["hashed_message"].native
        imprint_algorithm = tst["message_imprint"]["hash_algorithm"]["algorithm"].native
        gen_time = tst["gen_time"].native
        nonce = tst["nonce"].native
        serial = tst["serial_number"].native
        signature = signer["signature"].native
        algorithm = signer["signature_algorithm"]["algorithm"].native
    except (ValueError, TypeError, KeyError) as exc:
        raise TsaError(f"the token cannot be read ({exc})") from exc
    if imprint_algorithm != "sha256" or hashed_message != imprint(hash_hex):
        raise TsaError(f"the token's imprint is not SHA-256 of {hash_hex}")
    if digest not in HASHES:
        raise TsaError(f"the token is signed with an unsupported digest {digest}")
    if not isinstance(attrs, cms.CMSAttributes) or not len(attrs):
        raise TsaError("the token has no signed attributes")
    values = {a["type"].native: a["values"][0].native for a in attrs}
    if values.get("content_type") != "tst_info":
        raise TsaError("the token's signed content type is not TSTInfo")
    tst_hash = hashes.Hash(HASHES[digest])
    tst_hash.update(tst_der)
    if values.get("message_digest") != tst_hash.finalize():
        raise TsaError("the token's signed digest is not the digest of its TSTInfo")
    signer_cert = cx509.load_der_x509_certificate(cert.dump())
    # RFC 5652 5.4: the signature is over the DER of the attributes as a SET OF, not with their [0] tag.
    _verify_signature(signer_cert, signature, attrs.untag().dump(force=True), algorithm, digest)
    try:
        purposes = signer_cert.extensions.get_extension_for_class(cx509.ExtendedKeyUsage).value
    except cx509.ExtensionNotFound as exc:
        raise TsaError("the signer's certificate is not for time-stamping (no extended key usage)") from exc
    if ExtendedKeyUsageOID.TIME_STAMPING not in purposes:
        raise TsaError("the signer's certificate is not for time-stamping")
    at = gen_time.astimezone(UTC)
    if trusted is not None:
        chain = [
            cx509.load_der_x509_certificate(c.chosen.dump())
            for c in signed["certificates"] or []
            if c.name == "certificate"
        ]
        check_chain(signer_cert, chain, trusted, at)
    return Stamp(token=token, at=at, serial=int(serial), nonce=None if nonce is None else int(nonce))


def check_chain(
    cert: cx509.Certificate, others: list[cx509.Certificate], trusted: list[cx509.Certificate], at: datetime
) -> None:
    """`cert` is issued by a trusted certificate, directly or through `others`, each valid at `at`."""
    current = cert
    for _ in range(len(others) + 1):
        if not current.not_valid_before_utc <= at <= current.not_valid_after_utc:
            raise TsaError(f"the certificate {current.subject.rfc4514_string()} was not valid at {at.isoformat()}")
        for anchor in trusted:
            if anchor.subject == current.issuer and _issued_by(current, anchor):
                return
        issuers = [c for c in others if c != current and c.subject == current.issuer and _issued_by(current, c)]
        if not issuers:
            break
        current = issuers[0]
    raise TsaError("the signer's certificate does not chain to a trusted authority (--tsa-ca)")


def _issued_by(cert: cx509.Certificate, issuer: cx509.Certificate) -> bool:
    try:
        cert.verify_directly_issued_by(issuer)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True


def load_trusted(pem: bytes) -> list[cx509.Certificate]:
    """The certificates of a PEM file (an authority's CA chain)."""
    certs = cx509.load_pem_x509_certificates(pem)
    if not certs:
        raise TsaError("no certificate in the CA file")
    return certs


def authority_name(url: str) -> str:
    """How an authority is named to members: its host (`freetsa.org`)."""
    return httpx.URL(url).host or url


async def stamp(client: httpx.AsyncClient, url: str, hash_hex: str, now: datetime) -> Stamp:
    """Ask the authority at `url` to time-stamp `hash_hex`; its reply is read up to MAX_REPLY_BYTES and checked."""
    body, nonce = request(hash_hex)
    async with client.stream("POST", url, content=body, headers={"Content-Type": REQUEST_TYPE}) as answer:
        if answer.status_code != 200:
            raise TsaError(f"the authority answered HTTP {answer.status_code}")
        kind = answer.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != REPLY_TYPE:
            raise TsaError(f"the authority answered {kind or 'no content type'}, not {REPLY_TYPE}")
        reply = bytearray()
        async for chunk in answer.aiter_bytes():
            reply += chunk
            if len(reply) > MAX_REPLY_BYTES:
                raise TsaError(f"the reply is longer than {MAX_REPLY_BYTES} bytes")
    return check_reply(bytes(reply), hash_hex, nonce, now)
