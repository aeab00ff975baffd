"""The metrics of the event stream: streams open now, and how long events take from publication to the streams."""

import asyncio
from collections.abc import Callable

import httpx

from tests.conftest import CUSTOMER
from tests.realtime.conftest import LiveServer, SSEClient, login_token
from tests.realtime.test_events import emit
from tests.scrape import Samples, scrape, value

OPEN = "tradeideas_event_streams_open"
LAG_COUNT = "tradeideas_event_send_lag_seconds_count"


async def _until(client: httpx.AsyncClient, check: Callable[[Samples], bool]) -> Samples:
    for _ in range(100):  # a hang guard, not a speed target
        samples = await scrape(client)
        if check(samples):
            return samples
        await asyncio.sleep(0.05)
    raise AssertionError("the metric never reached the expected value")


async def test_open_streams_and_publish_to_send_lag(live: LiveServer) -> None:
    token = await login_token(live.url, CUSTOMER, "customer")
    async with httpx.AsyncClient(base_url=live.url) as client:
        before = await scrape(client)
        async with SSEClient(live.url, token) as stream, SSEClient(live.url, token):
            during = await scrape(client)
            assert value(during, OPEN) - value(before, OPEN) == 2
            await emit(live.app, "metrics.probe", {"n": 1})
            assert (await stream.next()).type == "metrics.probe"
            after_event = await scrape(client)
        assert value(after_event, LAG_COUNT) > value(before, LAG_COUNT)
        assert value(after_event, "tradeideas_event_send_lag_seconds_bucket", le="+Inf") > 0
        # The route is counted, but an endless stream's duration would only blur the latency histogram.
        assert (
            value(after_event, "tradeideas_http_request_duration_seconds_count", method="GET", route="/api/events") == 0
        )
        # Closed by the clients: the server notices and the gauge comes back down.
        await _until(client, lambda samples: value(samples, OPEN) == value(before, OPEN))
