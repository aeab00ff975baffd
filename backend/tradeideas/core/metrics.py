"""Prometheus metrics of this service and how `GET /metrics` renders them (decision record 0036).

With one server process the metrics live in its memory. With several (`WORKERS` > 1) every process writes
its values to memory-mapped files in `PROMETHEUS_MULTIPROC_DIR` and a scrape, answered by any process,
adds them up: `tradeideas serve` points that variable at `DATA_DIR/metrics` (unless it is set) and empties
the folder before the workers start. The variable must be set before `prometheus_client` is imported,
which is why the server's processes inherit it rather than read it from settings.
"""

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# The classic text format every Prometheus version reads (our names need none of the newer format's escaping).
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
# `*_created` series (one more per counter and histogram child) exist only in single-process mode: leave them out,
# so a scrape shows the same families whatever the number of workers.
disable_created_metrics()  # type: ignore[no-untyped-call]
UNMATCHED_ROUTE = "unmatched"  # requests no route answered: their raw paths would be unbounded labels
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# Cached idea pages answer in about a millisecond; uploads and uncached pages take longer.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

HTTP_REQUESTS = Counter(
    "tradeideas_http_requests",
    "HTTP requests answered, by method, route template and status",
    ["method", "route", "status"],
)
HTTP_LATENCY = Histogram(
    "tradeideas_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, by method and route template "
    "(event streams are left out: they last as long as the client stays)",
    ["method", "route"],
    buckets=LATENCY_BUCKETS,
)
# livesum: the open streams of the processes that are running now (a stopped worker's streams are gone).
OPEN_EVENT_STREAMS = Gauge(
    "tradeideas_event_streams_open", "Server-Sent Event streams open now", multiprocess_mode="livesum"
)
EVENTS_PUBLISHED = Counter("tradeideas_events_published", "Domain events committed to the outbox, by type", ["type"])
EVENT_SEND_LAG = Histogram(
    "tradeideas_event_send_lag_seconds",
    "Time from an event's publication to its fan-out to this process's open streams",
    buckets=LAG_BUCKETS,
)
PUSH_DELIVERIES = Counter(
    "tradeideas_push_deliveries",
    "Push delivery attempts by channel and result (sent, gone, retry, failed)",
    ["channel", "result"],
)
# livesum: 1 in the process that leads the once-only background work now (the sum is 1 while a leader lives).
LEADER = Gauge(
    "tradeideas_leader", "1 in the server process that runs the once-only background work", multiprocess_mode="livesum"
)
HOUSEKEEPING_RUNS = Counter("tradeideas_housekeeping_runs", "Housekeeping runs completed by the server processes")
PRICE_FEED_REQUESTS = Counter(
    "tradeideas_price_feed_requests",
    "Requests to the price feeds by feed and result (ok, rate_limited, banned, restricted, timeout, unreachable, "
    "malformed, too_large, not_published, error, invalid_symbol)",
    ["feed", "result"],
)
PRICE_FEED_REJECTED = Counter(
    "price_feed_rejected",
    "Candles or ticks from a feed's answer dropped before they were stored or replayed, by feed and reason (time, "
    "alignment, order, price, range, spread)",
    ["feed", "reason"],
)
# livemax: only the leading process polls; the others keep 0.
PRICE_FEED_LAG = Gauge(
    "tradeideas_price_feed_lag_seconds",
    "Age of the newest price the poller holds for the ideas it watches, by feed (0 when nothing is watched)",
    ["feed"],
    multiprocess_mode="livemax",
)
# Named as issue #40 asks (`billing_drift_total`): grants the daily re-read found differing from Stripe and corrected.
BILLING_DRIFT = Counter(
    "billing_drift", "Subscription grants the billing sync found different from Stripe and corrected"
)
LOGIN_FAILURES = Counter("tradeideas_login_failures", "Password checks that failed (wrong e-mail or password)")
LOGIN_LOCKOUTS = Counter(
    "tradeideas_login_lockouts", "Password attempts refused because an account or client exceeded its limit"
)


class RequestMetrics:
    """The request counter and histogram children per (method, route, status), made once: looking a child up
    by its labels takes a lock and validates them, which costs more than counting."""

    def __init__(self) -> None:
        self._children: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}

    def observe(self, method: str, route: str, status: int, seconds: float | None) -> None:
        key = (method, route, status)
        children = self._children.get(key)
        if children is None:
            label = method if method in METHODS else "other"
            children = (HTTP_REQUESTS.labels(label, route, str(status)), HTTP_LATENCY.labels(label, route))
            self._children[key] = children
        children[0].inc()
        if seconds is not None:
            children[1].observe(seconds)


# ---- one process or several ------------------------------------------------------------------------------
def multiprocess_dir() -> Path | None:
    """The shared folder when this process writes its metrics there (several workers), else None."""
    path = os.environ.get(MULTIPROC_ENV)
    return Path(path) if path else None


def use_multiprocess_dir(path: Path) -> None:
    """Called by `tradeideas serve` before it starts the workers: they inherit the variable. Values left by an
    earlier run are removed, or their counters would be added to this run's."""
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()
    os.environ[MULTIPROC_ENV] = str(path)


LIVE_FILE = re.compile(r"gauge_live\w+?_(\d+)\.db")


def forget_dead_processes(path: Path) -> None:
    """Drop the live gauges of processes that ended without saying so (a crashed worker): their open streams
    are no longer open."""
    for name in os.listdir(path):
        found = LIVE_FILE.fullmatch(name)
        if found and not _alive(int(found.group(1))):
            multiprocess.mark_process_dead(int(found.group(1)), str(path))  # type: ignore[no-untyped-call]


def process_stopping() -> None:
    """This worker is stopping: its live gauges (open streams) leave the sums."""
    path = multiprocess_dir()
    if path is not None:
        multiprocess.mark_process_dead(os.getpid(), str(path))  # type: ignore[no-untyped-call]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# ---- scraping --------------------------------------------------------------------------------------------
class _Scrape:
    """This scrape's metrics: the processes' own, plus values read from the database just now."""

    def __init__(self, source: CollectorRegistry, extra: Iterable[Metric]) -> None:
        self.source = source
        self.extra = list(extra)

    def collect(self) -> Iterable[Metric]:
        yield from self.source.collect()
        yield from self.extra


def push_queue_family(backlog: Mapping[str, int]) -> Metric:
    family = GaugeMetricFamily(
        "tradeideas_push_queue_depth", "Push deliveries waiting, by state (due, scheduled, held)", labels=["state"]
    )
    for state, count in backlog.items():
        family.add_metric([state], count)
    return family


def render(extra: Iterable[Metric] = ()) -> bytes:
    """The Prometheus text exposition of every process's metrics plus `extra`."""
    path = multiprocess_dir()
    if path is None:
        source = REGISTRY  # this process's metrics, with Python's process and garbage-collector figures
    else:
        forget_dead_processes(path)
        source = CollectorRegistry()
        multiprocess.MultiProcessCollector(source, str(path))  # type: ignore[no-untyped-call]
    registry = CollectorRegistry()
    registry.register(_Scrape(source, extra))
    return generate_latest(registry)
