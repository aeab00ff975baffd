"""A local RFC 3161 time-stamp authority for the tests: OpenSSL's `openssl ts -reply` behind a small HTTP handler,
with a CA and a time-stamping certificate of its own made by the `openssl` command in a temporary folder.

`mode` decides the next answers: `ok`, `down` (HTTP 503), `refused` (a granted-less reply), `wrong_nonce` and
`wrong_imprint` (a real token, made for a request with another nonce or imprint), `bad_signature` (a real token
with one byte of its signature changed), `garbage` (bytes that are no reply) and `huge` (more than any reply).
"""

import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from asn1crypto import cms, core, tsp
from cryptography import x509

from tradeideas.ledger.tsa import load_trusted

CONFIG = """
[ tsa ]
default_tsa = local

[ local ]
dir = {dir}
serial = $dir/serial
crypto_device = builtin
signer_cert = $dir/tsa.crt
certs = $dir/ca.crt
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
"""

TSA_EXTENSIONS = """
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
extendedKeyUsage = critical, timeStamping
"""


def _openssl(*args: str, cwd: Path, stdin: bytes | None = None) -> bytes:
    done = subprocess.run(["openssl", *args], cwd=cwd, input=stdin, capture_output=True, check=False, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"openssl {' '.join(args)}: {done.stderr.decode(errors='replace')}")
    return done.stdout


def make_authority(folder: Path, name: str = "Local Test") -> Path:
    """A CA (`ca.crt`) and a time-stamping certificate it issued (`tsa.crt`, `tsa.key`), and the config of
    `openssl ts -reply`. Returns the config's path."""
    folder.mkdir(parents=True, exist_ok=True)
    _openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "30",
        "-subj", f"/CN={name} Root CA", cwd=folder,
    )  # fmt: skip
    _openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "tsa.key", "-out", "tsa.csr", "-subj", f"/CN={name} TSA",
        cwd=folder,
    )  # fmt: skip
    (folder / "tsa.ext").write_text(TSA_EXTENSIONS)
    _openssl(
        "x509", "-req", "-in", "tsa.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "tsa.crt",
        "-days", "30", "-extfile", "tsa.ext", cwd=folder,
    )  # fmt: skip
    (folder / "serial").write_text("01\n")
    config = folder / "tsa.cnf"
    config.write_text(CONFIG.format(dir=folder))
    return config


def reply_for(config: Path, query: bytes) -> bytes:
    """`openssl ts -reply` for a DER TimeStampReq."""
    folder = config.parent
    (folder / "query.tsq").write_bytes(query)
    _openssl("ts", "-reply", "-config", str(config), "-queryfile", "query.tsq", "-out", "reply.tsr", cwd=folder)
    return (folder / "reply.tsr").read_bytes()


def _with_bad_signature(reply: bytes) -> bytes:
    resp = tsp.TimeStampResp.load(reply)
    token: cms.ContentInfo = resp["time_stamp_token"]
    signature = token["content"]["signer_infos"][0]["signature"].native
    changed = bytes([signature[0] ^ 0x01]) + signature[1:]
    assert reply.count(signature) == 1
    return reply.replace(signature, changed)


@dataclass
class LocalTsa:
    config: Path
    url: str = ""
    mode: str = "ok"
    requests: list[bytes] = field(default_factory=list)

    @property
    def ca(self) -> Path:
        return self.config.parent / "ca.crt"

    def trusted(self) -> list[x509.Certificate]:
        """Its CA certificate, as `--tsa-ca` reads it."""
        return load_trusted(self.ca.read_bytes())

    def answer(self, query: bytes) -> tuple[int, str, bytes]:
        self.requests.append(query)
        if self.mode == "down":
            return 503, "text/plain", b"down for maintenance"
        if self.mode == "garbage":
            return 200, "application/timestamp-reply", b"\x30\x03\x02\x01"
        if self.mode == "huge":
            return 200, "application/timestamp-reply", b"\x30" * 300_000
        if self.mode == "refused":
            status = tsp.PKIStatusInfo(
                {"status": "rejection", "status_string": ["bad request"], "fail_info": {"bad_request"}}
            )
            return 200, "application/timestamp-reply", core.Sequence(contents=status.dump()).dump()
        req = tsp.TimeStampReq.load(query)
        if self.mode == "wrong_nonce":
            req["nonce"] = req["nonce"].native + 1
        if self.mode == "wrong_imprint":
            req["message_imprint"]["hashed_message"] = b"\x00" * 32
        reply = reply_for(self.config, req.dump(force=True))
        if self.mode == "bad_signature":
            reply = _with_bad_signature(reply)
        return 200, "application/timestamp-reply", reply


@contextmanager
def local_tsa(folder: Path, name: str = "Local Test") -> Iterator[LocalTsa]:
    """A running local authority at `tsa.url` (127.0.0.1, a free port) until the block ends."""
    tsa = LocalTsa(make_authority(folder, name))
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            query = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:  # one openssl at a time: they share the serial file
                status, kind, body = tsa.answer(query)
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    tsa.url = f"http://127.0.0.1:{server.server_address[1]}/tsr"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield tsa
    finally:
        server.shutdown()
        server.server_close()
