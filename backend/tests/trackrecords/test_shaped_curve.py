"""A record's equity curve keeps its shape in at most 500 points; the whole curve on request (issue #38)."""

import random
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.trackrecords.test_track_records_api import buy, complete, record
from tradeideas.trackrecords import figures
from tradeideas.trackrecords.figures import CURVE_POINTS, Point, shaped_curve


def walk(points: int, seed: int = 1) -> list[Point]:
    rng = random.Random(seed)
    start, total, curve = datetime(2025, 1, 1, tzinfo=UTC), 0.0, []
    for i in range(points):
        total += rng.choice((-1.0, 2.0, 3.0, -1.0, -1.0))
        curve.append((start + timedelta(minutes=i), total))
    return curve


@pytest.mark.parametrize("points", [0, 1, 2, 499, 500, 501, 1_000, 14_287, 100_000])
def test_the_shape_keeps_the_ends_the_extremes_and_the_order(points: int) -> None:
    curve = walk(points)
    shaped = shaped_curve(curve)
    if points <= CURVE_POINTS:
        assert list(shaped) == curve
        return
    assert len(shaped) <= CURVE_POINTS
    assert shaped[0] == curve[0] and shaped[-1] == curve[-1]
    moments = [at for at, _ in shaped]
    assert moments == sorted(moments) and len(set(moments)) == len(moments)
    assert set(shaped) <= set(curve)
    values = [r for _, r in curve]
    assert max(r for _, r in shaped) == max(values) and min(r for _, r in shaped) == min(values)
    # The deepest fall from a peak (what the chart shows as the drawdown) survives.
    assert drawdown([r for _, r in shaped]) == drawdown(values)
    assert shaped_curve(curve) == shaped  # the same curve, the same points


def drawdown(values: list[float]) -> float:
    peak, deepest = float("-inf"), 0.0
    for v in values:
        peak = max(peak, v)
        deepest = max(deepest, peak - v)
    return deepest


async def test_a_record_sends_the_shaped_curve_and_the_whole_one_on_request(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(figures, "CURVE_POINTS", 4)
    for outcome in ("successful", "unsuccessful", "unsuccessful", "successful", "unsuccessful", "successful"):
        await complete(educator_a, await buy(educator_a, tf), status=outcome)  # +2, -1, -1, +2, -1, +2
    whole = [p["cumulativeR"] for p in (await record(customer, timeFrame=tf, curve="full"))["equityCurve"]]
    assert whole == [2.0, 1.0, 0.0, 2.0, 1.0, 3.0]
    shaped = (await record(customer, timeFrame=tf))["equityCurve"]
    assert [p["cumulativeR"] for p in shaped] == [2.0, 0.0, 3.0]  # first, the deepest fall's trough, last
    assert (await record(customer, timeFrame=tf, curve="shaped"))["equityCurve"] == shaped
    r = await customer.get("/api/educators/1/track-record", params={"curve": "everything"})
    assert r.status_code == 422
