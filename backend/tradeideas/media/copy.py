"""`tradeideas media copy-to-s3`: move an installation's media from DATA_DIR/media into the S3 bucket, once.

Run it with the S3_* settings, then set MEDIA_STORE=s3 (a second run while uploads still go to the folder copies
only what is new). Idempotent: an object already in the bucket with the file's bytes is not written again. Every
object is checked, whether it was copied now or before: it is read back from the bucket and its SHA-256 compared
with the file's; an object that differs is written again and checked again. Any file that still differs, or the
bucket not answering, makes the command exit 1 naming it; the folder is never changed.
"""

from dataclasses import dataclass, field

from tradeideas.core.errors import AppError
from tradeideas.media.store import Stat, local_store, s3_store, sha256_hex
from tradeideas.settings import Settings


@dataclass
class CopyReport:
    copied: int = 0
    already_there: int = 0
    bytes_copied: int = 0
    failed: list[str] = field(default_factory=list)

    def lines(self, bucket: str) -> list[str]:
        out = [
            f"Copied {self.copied} media files ({self.bytes_copied} bytes) to the S3 bucket {bucket}; "
            f"{self.already_there} were already there.",
            f"Checked {self.copied + self.already_there} objects: each one's SHA-256 matches its file.",
        ]
        if self.failed:
            out = [f"Copied {self.copied} media files to the S3 bucket {bucket}; {len(self.failed)} did not match:"]
            out += [f"  {name}: the object's SHA-256 differs from the file's" for name in self.failed]
        return out


def _same(found: Stat | None, data: bytes, digest: str) -> bool:
    return found is not None and found.size == len(data) and found.sha256 == digest


async def copy_to_s3(settings: Settings) -> CopyReport:
    """Copy every media file of DATA_DIR/media into the S3 bucket, checking each object's checksum."""
    if not settings.s3_bucket:
        raise AppError("S3_BUCKET is not set: name the bucket (and S3_ENDPOINT_URL and the keys) to copy into")
    source, target = local_store(settings), s3_store(settings)
    report = CopyReport()
    for name in await source.names():
        data = await source.read(name)
        if data is None:  # removed since it was listed (housekeeping)
            continue
        digest = sha256_hex(data)
        if _same(await target.stat(name), data, digest) and sha256_hex(await target.read(name) or b"") == digest:
            report.already_there += 1
            continue
        await target.put(name, data)
        if sha256_hex(await target.read(name) or b"") != digest:
            report.failed.append(name)
            continue
        report.copied += 1
        report.bytes_copied += len(data)
    return report
