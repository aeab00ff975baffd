"""Command line: migrate, seed, serve, manage users, reset data.

Usage: uv run tradeideas <command> [options]   (see `tradeideas --help`)
"""

import argparse
import asyncio
import getpass
import math
import sys
import threading
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas import backup, cluster, housekeeping, reset, seed
from tradeideas import worker as background_worker
from tradeideas.admin import service as admin_service
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role
from tradeideas.billing import sync as billing_sync
from tradeideas.billing.gateway import PaymentsOff, payments_of
from tradeideas.core import logs, metrics
from tradeideas.core.errors import AppError
from tradeideas.db import Database
from tradeideas.ledger import verify as ledger_verify
from tradeideas.ledger.tsa import TsaError, load_trusted
from tradeideas.media import copy as media_copy
from tradeideas.runtime import Runtime
from tradeideas.settings import Settings, get_settings

T = TypeVar("T")
BACKEND_DIR = Path(__file__).resolve().parents[1]


def alembic_config(settings: Settings) -> Config:
    cfg = Config(str(BACKEND_DIR / "alembic.ini"))
    cfg.set_main_option("script_location", str(BACKEND_DIR / "migrations"))
    cfg.attributes["settings"] = settings
    return cfg


def migrate(settings: Settings) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(settings), "head")


def _database(settings: Settings) -> Database:
    """The database as a server process holds it: its sessions carry the same event bus and subscribers, so what a
    command writes is audited, ledgered and announced exactly as the same change made through the API."""
    return Runtime(settings, prune_events=False).db


def _in_transaction(settings: Settings, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    async def run() -> T:
        db = _database(settings)
        try:
            async with db.sessionmaker() as session, session.begin():
                return await work(session)
        finally:
            await db.dispose()

    return asyncio.run(run())


def _read_password(given: str | None, from_stdin: bool = False) -> str:
    if given:
        return given
    if from_stdin:  # scripts: `printf '%s\n' "$PASSWORD" | tradeideas add-user ... --password-stdin`
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass("New password: ")
    if first != getpass.getpass("Repeat password: "):
        raise SystemExit("Passwords do not match")
    return first


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="tradeideas", description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("migrate", help="apply database migrations")
    sub.add_parser("seed", help="create demo accounts, rooms and (once) sample ideas")
    serve = sub.add_parser("serve", help="migrate, seed and serve the app and API")
    serve.add_argument("--no-seed", action="store_true", help="do not create demo data")
    worker = sub.add_parser(
        "worker", help="run the background work (price checks, push delivery, housekeeping) until stopped"
    )
    # Set by `tradeideas serve` for the workers it supervises: stop when that process is gone.
    worker.add_argument("--supervised-by", type=int, default=None, help=argparse.SUPPRESS)
    add = sub.add_parser("add-user", help="create an account")
    add.add_argument("--email", required=True)
    add.add_argument("--role", choices=[r.value for r in Role], default=Role.CUSTOMER.value)
    add.add_argument("--first-name", default="")
    add.add_argument("--last-name", default="")
    add.add_argument("--password", help="omit to be prompted (visible in the process list: prefer the prompt)")
    add.add_argument("--password-stdin", action="store_true", help="read the password from the first line of stdin")
    setpw = sub.add_parser("set-password", help="set a user's password and end their sessions")
    setpw.add_argument("--email", required=True)
    setpw.add_argument("--password", help="omit to be prompted")
    setpw.add_argument("--password-stdin", action="store_true", help="read the password from the first line of stdin")
    disable = sub.add_parser("disable-user", help="disable an account and end all its sessions")
    disable.add_argument("--email", required=True)
    sub.add_parser(
        "housekeeping",
        help="delete expired sessions, old login failures, used links, old events and media unused for 24 hours",
    )
    billing_cmd = sub.add_parser("billing", help="paid access")
    billing_sub = billing_cmd.add_subparsers(dest="billing_cmd", required=True)
    billing_sub.add_parser(
        "sync", help="re-read every subscription that is not final from Stripe now and correct the grants that differ"
    )
    backup_cmd = sub.add_parser("backup", help="copy the database and the media folder to a new directory")
    backup_cmd.add_argument("path", type=Path, help="a directory that does not exist yet (or is empty)")
    restore_cmd = sub.add_parser(
        "restore", help="put a backup back (SQLite: with the server stopped; PostgreSQL: prints the psql command)"
    )
    restore_cmd.add_argument("path", type=Path, help="a directory written by `tradeideas backup`")
    restore_cmd.add_argument(
        "--force", action="store_true", help="replace a database that holds data (PostgreSQL: run psql)"
    )
    verify_cmd = sub.add_parser(
        "verify-ledger",
        help="recompute the ledger's hash chain and compare it with the ideas: exit 1 naming the first problem",
    )
    verify_cmd.add_argument(
        "--tsa-ca",
        type=Path,
        metavar="FILE",
        help="PEM file of the time-stamp authorities' CA certificates: each token's signer must chain to one",
    )
    media_cmd = sub.add_parser("media", help="manage the media store")
    media_sub = media_cmd.add_subparsers(dest="media_cmd", required=True)
    media_sub.add_parser(
        "copy-to-s3",
        help="copy DATA_DIR/media into the S3 bucket of the S3_* settings, once; checks each object's SHA-256",
    )
    reset_cmd = sub.add_parser("reset-data", help="delete all ideas, chat, media and users (asks first)")
    reset_cmd.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    args = parser.parse_args(argv)
    settings = get_settings()

    try:
        if args.cmd == "migrate":
            migrate(settings)
        elif args.cmd == "seed":
            first = _in_transaction(settings, lambda s: seed.seed_demo(s, settings))
            print("Demo data created." if first else "Demo accounts checked; sample data already present.")
        elif args.cmd == "serve":
            _serve(settings, with_seed=not args.no_seed)
        elif args.cmd == "worker":
            logs.configure_logging(settings)
            asyncio.run(background_worker.run(settings, args.supervised_by))
        elif args.cmd == "add-user":
            password = _read_password(args.password, args.password_stdin)

            async def add_user(s: AsyncSession) -> int:
                user = await auth_service.add_user(
                    s,
                    email=args.email,
                    password=password,
                    role=Role(args.role),
                    first_name=args.first_name,
                    last_name=args.last_name,
                )
                return user.id

            print(f"Created user {_in_transaction(settings, add_user)} ({args.email}, {args.role}).")
        elif args.cmd == "set-password":
            password = _read_password(args.password, args.password_stdin)

            async def set_pw(s: AsyncSession) -> None:
                user = await auth_service.get_user_by_email(s, args.email)
                await auth_service.set_password(s, user, password)
                await auth_service.revoke_all_sessions(s, user)

            _in_transaction(settings, set_pw)
            print(f"Password set for {args.email}; their sessions were ended.")
        elif args.cmd == "disable-user":

            async def disable_user(s: AsyncSession) -> None:
                user = await auth_service.get_user_by_email(s, args.email)
                await auth_service.disable_user(s, user)
                await admin_service.revoke_links(s, user)  # as the admin area's Disable does

            _in_transaction(settings, disable_user)
            print(f"Disabled {args.email}, ended all their sessions and revoked their unused links.")
        elif args.cmd == "housekeeping":
            _housekeeping(settings)
        elif args.cmd == "billing":
            _billing_sync(settings)
        elif args.cmd == "backup":
            print("\n".join(asyncio.run(backup.backup(settings, args.path)).lines))
        elif args.cmd == "restore":
            print("\n".join(backup.restore(settings, args.path, force=args.force).lines))
        elif args.cmd == "verify-ledger":
            _verify_ledger(settings, args.tsa_ca)
        elif args.cmd == "media":
            _copy_to_s3(settings)
        elif args.cmd == "reset-data":
            if not args.yes:
                answer = input("This deletes ALL trade ideas, chat, media and users. Type RESET to confirm: ")
                if answer.strip() != "RESET":
                    print("Aborted; nothing was deleted.")
                    return
            _in_transaction(settings, lambda s: reset.reset_all_data(s, settings))
            print("All data deleted. Run `tradeideas seed` to recreate the demo accounts.")
    except AppError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        raise SystemExit(1) from exc
    except TsaError as exc:
        print(f"error: --tsa-ca: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc
    except backup.BackupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(1) from exc


def _verify_ledger(settings: Settings, tsa_ca: Path | None = None) -> None:
    """Exit 0 with the head when the chain and the tables agree; otherwise exit 1 with the first problem first."""
    trusted = None if tsa_ca is None else load_trusted(tsa_ca.read_bytes())

    async def check(s: AsyncSession) -> ledger_verify.Report:
        if s.get_bind().dialect.name == "postgresql":  # one consistent snapshot of the chain and the ideas
            await s.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
        return await ledger_verify.verify(s, trusted)

    report = _in_transaction(settings, check)
    if report.intact:
        print(
            f"Ledger intact: {report.entries} entries, head seq {report.head_seq} {report.head_hash}; "
            f"{report.ideas} ideas match it."
        )
        return
    for problem in report.problems[:20]:
        print(problem, file=sys.stderr)
    if len(report.problems) > 20:
        print(f"... and {len(report.problems) - 20} more", file=sys.stderr)
    raise SystemExit(1)


def _copy_to_s3(settings: Settings) -> None:
    """Exit 0 when every file is in the bucket with its checksum; 1 naming the files that are not."""
    report = asyncio.run(media_copy.copy_to_s3(settings))
    print("\n".join(report.lines(settings.s3_bucket or "")), file=sys.stderr if report.failed else sys.stdout)
    if report.failed:
        raise SystemExit(1)


def _housekeeping(settings: Settings) -> None:
    async def run() -> housekeeping.Report | None:
        db = _database(settings)
        try:
            return await housekeeping.run_exclusive(db, settings, stamp=True)
        finally:
            await db.dispose()

    report = asyncio.run(run())
    if report is None:
        print("Housekeeping is running in another process right now; nothing was done.")
        return
    print("\n".join(report.lines()))


def _billing_sync(settings: Settings) -> None:
    """Exit 0 with what the sync corrected; 1 when billing is off or Stripe did not answer (nothing changed)."""
    gateway = payments_of(settings)
    if gateway is None:
        raise PaymentsOff()

    async def run() -> billing_sync.SyncReport:
        db = _database(settings)
        try:
            return await billing_sync.sync(db, gateway)
        finally:
            await db.dispose()

    print("\n".join(asyncio.run(run()).lines()))


def ready_banner(settings: Settings, url: str, *, with_seed: bool) -> str:
    lines = [f"{settings.app_name} is ready: {url}"]
    if with_seed:
        default = Settings.model_fields["demo_password"].default
        lines += [
            f"Demo logins (password: the DEMO_PASSWORD setting, default {default}):",
            f"  customer   {seed.DEMO_CUSTOMER_EMAIL:<32} {url}/login",
            f"  admin      {seed.DEMO_ADMIN_EMAIL:<32} {url}/admin/login",
            *(f"  educator   {edu['email']:<32} {url}/zinrai-educators-1" for edu in seed.load_educators()),
        ]
    return "\n".join(lines)


def _announce_when_ready(settings: Settings, *, with_seed: bool) -> None:
    """Prints the address and the demo logins once the server answers its health check."""
    wildcard = ("0.0.0.0", "::")  # noqa: S104 - compared with, not bound: such servers answer on loopback
    host = "127.0.0.1" if settings.host in wildcard else settings.host
    url = f"http://{host}:{settings.port}"

    def wait() -> None:
        for _ in range(600):
            try:
                with urllib.request.urlopen(f"{url}/api/health", timeout=1) as answer:  # noqa: S310 - our http URL
                    if answer.status == 200:
                        print(ready_banner(settings, url, with_seed=with_seed), flush=True)
                        return
            except OSError:
                pass
            time.sleep(0.1)

    threading.Thread(target=wait, name="ready-banner", daemon=True).start()


def _serve(settings: Settings, *, with_seed: bool) -> None:
    if not settings.is_sqlite:  # before anything changes: a node that does not fit refuses (decision 0161)
        budget = asyncio.run(cluster.connection_budget(settings))
        if not budget.fits:
            print(cluster.refusal(settings, budget), file=sys.stderr)
            sys.exit(1)
    migrate(settings)
    if with_seed:
        _in_transaction(settings, lambda s: seed.seed_demo(s, settings))
    if settings.workers > 1 and settings.is_sqlite:
        print("WORKERS>1 needs PostgreSQL (DATABASE_URL); starting one worker on SQLite.", file=sys.stderr)
    workers = settings.workers if not settings.is_sqlite else 1
    if workers > 1:
        # Each worker counts in its own files there and a scrape adds them up (decision record 0036). This
        # process only supervises: the files it may have opened itself are removed with the stale ones.
        metrics.use_multiprocess_dir(metrics.multiprocess_dir() or settings.data_dir.resolve() / "metrics")
    print(
        f"Starting on http://{settings.host}:{settings.port} ({workers} worker(s), "
        f"{settings.background_workers} background worker(s))...",
        flush=True,
    )
    _announce_when_ready(settings, with_seed=with_seed)
    # Price checks, push delivery and housekeeping run in processes of their own, never on a serving event loop.
    supervisor = background_worker.Supervisor(settings.background_workers)
    supervisor.start()
    try:
        _serve_requests(settings, workers)
    finally:
        supervisor.stop()


def _serve_requests(settings: Settings, workers: int) -> None:
    import uvicorn

    from tradeideas import serving

    serving.serve(
        uvicorn.Config(
            "tradeideas.app:create_app",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=workers,
            timeout_worker_healthcheck=settings.worker_start_timeout_seconds,
            # Requests in flight when SIGTERM came get DRAIN_SECONDS; the event streams, ended by then, a second more
            # to send their last bytes (decision 0160). Anything still running after it is cancelled.
            timeout_graceful_shutdown=math.ceil(settings.drain_seconds) + 1,
            # X-Forwarded-For/-Proto from FORWARDED_ALLOW_IPS are read inside the app (`create_app`), after `AppEdge`
            # has seen the real peer; here they would replace it before the app is called.
            proxy_headers=False,
            log_level=settings.log_level,
            log_config=logs.logging_config(settings),  # LOG_FORMAT for uvicorn's own lines too, in every worker
            # The app writes the access lines (with request id and duration) when ACCESS_LOG or debug asks for them.
            access_log=False,
        )
    )


if __name__ == "__main__":
    main()
