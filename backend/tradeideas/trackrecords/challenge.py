""" "Would I pass a funded-account challenge?": a Monte Carlo over an educator's price-checked results (issue #42).

Each run follows the educator's ideas for the challenge's days: every day draws how many ideas settle from the
record's own days (the days between its first and last settled idea, quiet days included), and each idea's R from
its price-checked results, both with replacement. Every idea risks the same share of the starting balance, so a
result of R moves the balance by R times the risk. A run passes when the balance reaches the profit target, fails when a
day's losses reach the daily limit or the balance falls to the maximum loss, and otherwise runs out of days.
Within a day the rules are checked after each idea, in the order drawn (decision 0180).
"""

import asyncio
import math
import secrets
from dataclasses import dataclass
from datetime import date

import numpy as np
from numpy.typing import NDArray
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth import service as auth_service
from tradeideas.core.errors import AppError, NotFound
from tradeideas.trackrecords.schemas import ChallengeOut, ChallengePass
from tradeideas.trackrecords.service import EDUCATOR_NOT_FOUND, RecordFilter, verdicts

RUNS = 10_000
LEAST_IDEAS = 30
TOO_FEW_IDEAS = (
    "A challenge needs at least {least} decided price-checked ideas; this selection has {ideas}. "
    "Past results do not predict future ones, and fewer say even less."
)

PASSED, DAILY_BREACH, MAX_BREACH, RUNNING = 1, 2, 3, 0


@dataclass(frozen=True)
class Rules:
    """A challenge's rules, in percent of the starting balance (the common prop-firm preset by default)."""

    risk_percent: float
    profit_target: float = 10.0
    daily_loss: float = 5.0
    max_loss: float = 10.0
    days: int = 30


@dataclass(frozen=True)
class Sample:
    """What the runs resample: the decided ideas' price-checked R, and ideas settled per day of the record."""

    results: NDArray[np.float64]
    pace: NDArray[np.int64]


@dataclass(frozen=True)
class Outcome:
    runs: int
    passed: int
    daily_breaches: int
    max_breaches: int
    median_days_to_pass: float | None


def sample_of(settled: list[tuple[float, date]]) -> Sample:
    """(R, settling day) of each decided idea: the results, and the count per day from the first to the last day."""
    results = np.array([r for r, _ in settled], dtype=np.float64)
    days = sorted(day for _, day in settled)
    pace = np.zeros((days[-1] - days[0]).days + 1, dtype=np.int64)
    for day in days:
        pace[(day - days[0]).days] += 1
    return Sample(results, pace)


def simulate(sample: Sample, rules: Rules, runs: int, seed: int) -> Outcome:
    """`runs` challenges on the sample, reproducible from `seed` (numpy's PCG64)."""
    rng = np.random.default_rng(seed)
    balance = np.zeros(runs)  # percent gained (negative: lost) since the start
    state = np.full(runs, RUNNING, dtype=np.int8)
    days_to_pass = np.zeros(runs, dtype=np.int64)
    for day in range(1, rules.days + 1):
        running = np.flatnonzero(state == RUNNING)
        if running.size == 0:
            break
        counts = rng.choice(sample.pace, size=running.size)
        most = int(counts.max())
        if most == 0:
            continue
        moves = rng.choice(sample.results, size=(running.size, most)) * rules.risk_percent
        moves[np.arange(most)[None, :] >= counts[:, None]] = 0.0  # runs that drew fewer ideas today
        today = np.cumsum(moves, axis=1)
        path = balance[running, None] + today
        # Compared with a small tolerance: 10 ideas of +1 R at 1 % reach a 10 % target exactly.
        hit_target = path >= rules.profit_target - 1e-9
        hit_max = path <= -rules.max_loss + 1e-9
        hit_daily = today <= -rules.daily_loss + 1e-9
        event = hit_target | hit_max | hit_daily
        decided = event.any(axis=1)
        first = np.argmax(event, axis=1)
        rows = np.arange(running.size)
        outcome = np.where(
            hit_target[rows, first], PASSED, np.where(hit_max[rows, first], MAX_BREACH, DAILY_BREACH)
        ).astype(np.int8)
        state[running[decided]] = outcome[decided]
        days_to_pass[running[decided & (outcome == PASSED)]] = day
        balance[running] = path[:, -1]
    passed = state == PASSED
    return Outcome(
        runs=runs,
        passed=int(passed.sum()),
        daily_breaches=int((state == DAILY_BREACH).sum()),
        max_breaches=int((state == MAX_BREACH).sum()),
        median_days_to_pass=float(np.median(days_to_pass[passed])) if passed.any() else None,
    )


def wilson_interval(successes: int, trials: int) -> list[float]:
    """The 95 % Wilson score interval of a proportion (sound at 0 and 1, unlike the normal approximation)."""
    z = 1.959963984540054
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


async def settled_results(
    db: AsyncSession, educator_id: int, market: str | None, setup_id: int | None
) -> list[tuple[float, date]]:
    """(price-checked R, settling day) of the educator's decided ideas: the record's verdicts (an ambiguous candle
    is the stop) other than not triggered."""
    rows = await db.execute(verdicts(educator_id, RecordFilter(market=market, setup=setup_id)))
    return [
        (float(r), settled_at.date())
        for _id, _market, _type, _frame, status, r, settled_at, _published in rows.all()
        if status != "not_triggered" and r is not None and settled_at is not None
    ]


async def challenge(
    db: AsyncSession,
    educator_id: int,
    rules: Rules,
    *,
    market: str | None = None,
    setup_id: int | None = None,
    seed: int | None = None,
) -> ChallengeOut:
    """The challenge's odds for the educator's selection; refused (409: the record, not the request, is short) under
    `LEAST_IDEAS` decided price-checked ideas."""
    if not await auth_service.listed_educators(db, educator_id):
        raise NotFound(EDUCATOR_NOT_FOUND)
    settled = await settled_results(db, educator_id, market, setup_id)
    if len(settled) < LEAST_IDEAS:
        raise AppError(
            TOO_FEW_IDEAS.format(least=LEAST_IDEAS, ideas=len(settled)), code="too_few_ideas", status_code=409
        )
    seed = secrets.randbelow(2**32) if seed is None else seed
    # Tens of milliseconds of numpy: off the event loop, which serves the other requests meanwhile.
    outcome = await asyncio.to_thread(simulate, sample_of(settled), rules, RUNS, seed)
    return ChallengeOut(
        runs=outcome.runs,
        passing=ChallengePass(
            probability=round(outcome.passed / outcome.runs, 4),
            interval95=wilson_interval(outcome.passed, outcome.runs),
        ),
        median_days_to_pass=outcome.median_days_to_pass,
        daily_loss_breach=round(outcome.daily_breaches / outcome.runs, 4),
        max_loss_breach=round(outcome.max_breaches / outcome.runs, 4),
        ideas=len(settled),
        seed=seed,
    )
