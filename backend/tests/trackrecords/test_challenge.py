""" "Would I pass a funded-account challenge?" (issue #42): the simulator against exact answers on records small
enough to enumerate, its interval shrinking with more runs, the same seed giving the same answer, and the route's
refusals (bad inputs named, fewer than 30 decided price-checked ideas)."""

import math
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from functools import cache

import httpx
import numpy as np
import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from tests.conftest import DEMO_PASSWORD
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User
from tradeideas.ideas.models import TradeIdea
from tradeideas.prices.models import IdeaVerification
from tradeideas.trackrecords.challenge import Rules, Sample, sample_of, simulate, wilson_interval

ONE_A_DAY = np.array([1])


def sample(results: list[float], pace: list[int] | None = None) -> Sample:
    return Sample(np.array(results, dtype=np.float64), ONE_A_DAY if pace is None else np.array(pace))


def test_a_record_that_can_only_pass_passes_every_run_on_the_day_it_must() -> None:
    # +1 R a day at 1 % risk: 10 % on day 10, every time.
    outcome = simulate(sample([1.0, 1.0]), Rules(risk_percent=1), runs=2_000, seed=7)
    assert (outcome.passed, outcome.daily_breaches, outcome.max_breaches) == (2_000, 0, 0)
    assert outcome.median_days_to_pass == 10
    # Half the record's days bring two ideas, half none: it passes on its fifth busy day, which comes by day 9 in
    # exactly half the runs (P(Binomial(9, 1/2) >= 5) = 1/2), so the median is between 9 and 10.
    outcome = simulate(sample([1.0], [2, 0]), Rules(risk_percent=1), runs=2_000, seed=7)
    assert outcome.passed == 2_000
    assert outcome.median_days_to_pass is not None and 9 <= outcome.median_days_to_pass <= 10


def test_a_record_that_can_only_fail_fails_on_the_rule_it_breaks() -> None:
    # -1 R at 2 %: 5 days of -2 % reach the 10 % maximum loss; no day loses 5 %.
    outcome = simulate(sample([-1.0]), Rules(risk_percent=2), runs=1_000, seed=1)
    assert (outcome.passed, outcome.daily_breaches, outcome.max_breaches) == (0, 0, 1_000)
    assert outcome.median_days_to_pass is None
    # At 5 % the first idea loses the day's 5 % limit.
    outcome = simulate(sample([-1.0]), Rules(risk_percent=5), runs=1_000, seed=1)
    assert (outcome.passed, outcome.daily_breaches, outcome.max_breaches) == (0, 1_000, 0)
    # Three ideas a day at 2 %: the third takes the day to -6 %, past the daily limit, before the maximum loss.
    outcome = simulate(sample([-1.0], [3]), Rules(risk_percent=2), runs=1_000, seed=1)
    assert outcome.daily_breaches == 1_000


@cache
def exact_walk(steps: int, position: int, up: float, target: int, floor: int) -> tuple[float, float]:
    """(P(pass), P(maximum loss)) of a walk of ±1 from `position` absorbed at `target` and `floor`, `steps` left."""
    if position >= target:
        return 1.0, 0.0
    if position <= floor:
        return 0.0, 1.0
    if steps == 0:
        return 0.0, 0.0
    win = exact_walk(steps - 1, position + 1, up, target, floor)
    loss = exact_walk(steps - 1, position - 1, up, target, floor)
    return up * win[0] + (1 - up) * loss[0], up * win[1] + (1 - up) * loss[1]


@pytest.mark.parametrize("up", [0.5, 0.6])
def test_a_two_outcome_record_matches_the_exact_odds(up: float) -> None:
    # +1 R or -1 R (60 % wins: 3 of 5), one idea a day at 2 % risk: a walk of ±2 % from 0 to +6 % or -6 %.
    wins = round(up * 5)
    results = [1.0] * wins + [-1.0] * (5 - wins)
    rules = Rules(risk_percent=2, profit_target=6, daily_loss=5, max_loss=6, days=12)
    runs = 40_000
    outcome = simulate(sample(results), rules, runs=runs, seed=2026)
    exact_pass, exact_max = exact_walk(12, 0, wins / 5, 3, -3)
    for simulated, exact in ((outcome.passed / runs, exact_pass), (outcome.max_breaches / runs, exact_max)):
        # Four standard errors: a correct simulator lands inside for any seed but the rarest.
        assert abs(simulated - exact) < 4 * math.sqrt(exact * (1 - exact) / runs), (simulated, exact)
    assert outcome.daily_breaches == 0  # one idea a day never loses more than 2 %


def test_the_interval_narrows_with_more_runs_and_a_seed_repeats_its_answer() -> None:
    record = sample([2.0, -1.0, -1.0, 1.5, -1.0, 3.0], [1, 0, 2, 1])
    rules = Rules(risk_percent=1)
    few, many = simulate(record, rules, runs=1_000, seed=3), simulate(record, rules, runs=10_000, seed=3)
    low, high = wilson_interval(few.passed, few.runs)
    low_many, high_many = wilson_interval(many.passed, many.runs)
    assert high_many - low_many < (high - low) / 2
    assert low <= many.passed / many.runs <= high
    assert simulate(record, rules, runs=10_000, seed=3) == many
    assert simulate(record, rules, runs=10_000, seed=4) != many


def test_the_pace_is_the_records_own_days_quiet_ones_included() -> None:
    drawn = sample_of([(1.0, date(2026, 3, 2)), (-1.0, date(2026, 3, 2)), (2.0, date(2026, 3, 5))])
    assert drawn.results.tolist() == [1.0, -1.0, 2.0]
    assert drawn.pace.tolist() == [2, 0, 0, 1]


# ---------------------------------------------------------------- the route

RESULTS = [2.0, -1.0, -1.0, 3.0, -1.0, 2.0, -1.0, -1.0, 1.5, -1.0] * 4  # 40 decided ideas


@pytest.fixture
async def checked_educator(app: FastAPI) -> AsyncIterator[int]:
    """A listed educator of the test's own with 40 decided price-checked ideas and 5 not triggered, all crypto."""
    async with app.state.db.sessionmaker() as s, s.begin():
        user = await auth_service.add_user(
            s, email="challenge.taker@example.com", password=DEMO_PASSWORD, role=Role.EDUCATOR, first_name="Chal",
            last_name="Lenge",
        )  # fmt: skip
        start = datetime(2026, 5, 1, 12, tzinfo=UTC)
        outcomes = [(r, "exit1" if r > 0 else "invalidation") for r in RESULTS] + [(0.0, "not_triggered")] * 5
        for n, (r, outcome) in enumerate(outcomes):
            at = start + timedelta(days=n // 2)
            idea = TradeIdea(
                educator_id=user.id, market_type="Crypto", market="crypto", order_type="BUY", idea_type="Exchange",
                pair="BTCUSDT", time_frame="4H", entry1="100", invalidation_level="90", exit1="120",
                status="successful" if r > 0 else "unsuccessful", completed=True, outcome=outcome, closed_at=at,
                r_multiple=r, created_at=at - timedelta(hours=5), updated_at=at,
            )  # fmt: skip
            s.add(idea)
            await s.flush()
            verdict = IdeaVerification(
                idea_id=idea.id, educator_id=user.id, feed="binance", symbol="BTCUSDT", state="settled",
                done=True, outcome=outcome, r_multiple=r, settled_at=at, receipts=[], progress={}, levels={},
                published_at=at - timedelta(hours=5), levels_fixed=True,
            )  # fmt: skip
            s.add(verdict)
        user_id = user.id
    yield user_id
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(TradeIdea).where(TradeIdea.educator_id == user_id))
        await s.execute(delete(User).where(User.id == user_id))


async def test_a_member_runs_the_challenge_on_an_educators_price_checked_record(
    checked_educator: int, customer: httpx.AsyncClient
) -> None:
    url = f"/api/educators/{checked_educator}/challenge"
    r = await customer.get(url, params={"riskPercent": 0.5, "seed": 11})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["runs"] == 10_000 and body["ideas"] == 40 and body["seed"] == 11  # not triggered: left out
    low, high = body["pass"]["interval95"]
    assert low <= body["pass"]["probability"] <= high
    assert 0 <= body["dailyLossBreach"] <= 1 and 0 <= body["maxLossBreach"] <= 1
    assert (await customer.get(url, params={"riskPercent": 0.5, "seed": 11})).json() == body
    # The same record at 2 % risk: the same simulator, so the answer is what `simulate` gives on the record's sample.
    risky = (await customer.get(url, params={"riskPercent": 2, "seed": 11})).json()
    days = [date(2026, 5, 1) + timedelta(days=n // 2) for n in range(40)]
    expected = simulate(sample_of(list(zip(RESULTS, days, strict=True))), Rules(risk_percent=2), 10_000, 11)
    assert risky["pass"]["probability"] == round(expected.passed / 10_000, 4)
    assert risky["maxLossBreach"] == round(expected.max_breaches / 10_000, 4)
    # Without a seed the answer names the one it drew, which repeats it.
    drawn = (await customer.get(url, params={"riskPercent": 1})).json()
    again = (await customer.get(url, params={"riskPercent": 1, "seed": drawn["seed"]})).json()
    assert again == drawn


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"riskPercent": 0}, "riskPercent"),
        ({"riskPercent": 5.5}, "riskPercent"),
        ({"riskPercent": 1, "profitTarget": 0.5}, "profitTarget"),
        ({"riskPercent": 1, "days": 366}, "days"),
        ({}, "riskPercent"),
    ],
)
async def test_bad_inputs_are_refused_naming_the_field(
    customer: httpx.AsyncClient, params: dict[str, float], field: str
) -> None:
    r = await customer.get("/api/educators/1/challenge", params=params)
    assert r.status_code == 422, r.text
    assert r.json()["message"].startswith(f"{field}:")


async def test_a_record_under_30_decided_price_checked_ideas_is_refused_with_the_reason(
    checked_educator: int, customer: httpx.AsyncClient
) -> None:
    # The educator's forex ideas: none.
    r = await customer.get(f"/api/educators/{checked_educator}/challenge", params={"riskPercent": 1, "market": "forex"})
    assert r.status_code == 409
    assert r.json()["code"] == "too_few_ideas"
    message = "A challenge needs at least 30 decided price-checked ideas; this selection has 0."
    assert r.json()["message"].startswith(message)
    r = await customer.get("/api/educators/999999/challenge", params={"riskPercent": 1})
    assert r.status_code == 404


async def test_only_signed_in_members_run_it(checked_educator: int, anon: httpx.AsyncClient) -> None:
    r = await anon.get(f"/api/educators/{checked_educator}/challenge", params={"riskPercent": 1})
    assert r.status_code == 401
