"""Statistics that admit their uncertainty, over a record's decided ideas (successful or unsuccessful, with R; ideas
that were not triggered are left out) in closing order: expectancy, profit factor, drawdown, streaks, holding time,
a 95 % interval for the average R (Student's t) and a note when the sample is too small to judge.

The t quantile is computed exactly (the regularized incomplete beta function, inverted by bisection) with the
standard library, rather than read from a table: any number of ideas gets its own value.
"""

import functools
import math
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from typing import Any

ENOUGH_TO_JUDGE = 30
# The statuses of a decided idea (the ideas domain's `COMPLETED_STATUSES`, as the values its table holds).
WIN, LOSS = "successful", "unsuccessful"


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes 6.4)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
            last = d * c
        if abs(last - 1.0) < 1e-15:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


# Pure in (p, df), and each answer's interval asks for one: remembered, it costs a lookup instead of ~40 evaluations
# of the incomplete beta function (45 % of building the educators list at 100,000 ideas, bench/RESULTS.md).
@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p (0.5 < p < 1), by bisection to well below the figures' two decimals."""
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2.0


def rounded_r(value: float) -> float:
    """An R figure as shown: two decimals, never "-0.0"."""
    return round(value + 0.0, 2) + 0.0


@dataclass(slots=True)
class Statistics:
    decided: int = 0
    mean: float = 0.0
    m2: float = 0.0  # sum of squared deviations from the mean (Welford), for the sample variance
    gain: float = 0.0
    loss: float = 0.0
    cumulative: float = 0.0
    peak: float = 0.0
    drawdown: float = 0.0
    win_streak: int = 0
    loss_streak: int = 0
    longest_win: int = 0
    longest_loss: int = 0
    holding_seconds: float = 0.0

    def add(self, status: str, r: float | None, opened_at: datetime, closed_at: datetime) -> None:
        """One more closed idea, after the others (closing order); only decided ideas with an R count."""
        if r is None or status not in (WIN, LOSS):
            return
        self.decided += 1
        delta = r - self.mean
        self.mean += delta / self.decided
        self.m2 += delta * (r - self.mean)
        if r > 0:
            self.gain += r
        else:
            self.loss += r
        self.cumulative += r
        self.peak = max(self.peak, self.cumulative)
        self.drawdown = max(self.drawdown, self.peak - self.cumulative)
        if status == WIN:
            self.win_streak, self.loss_streak = self.win_streak + 1, 0
            self.longest_win = max(self.longest_win, self.win_streak)
        else:
            self.win_streak, self.loss_streak = 0, self.loss_streak + 1
            self.longest_loss = max(self.longest_loss, self.loss_streak)
        self.holding_seconds += max((closed_at - opened_at).total_seconds(), 0.0)

    def stored(self) -> dict[str, Any]:
        """The running state as kept in `track_record_totals.statistics` (JSON)."""
        return asdict(self)

    @classmethod
    def loaded(cls, stored: dict[str, Any]) -> "Statistics":
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in stored.items() if k in names})

    def interval95(self) -> list[float] | None:
        """[low, high]: mean ± t(0.975, n - 1) · s / √n; null under 2 decided ideas."""
        n = self.decided
        if n < 2:
            return None
        half = t_quantile(0.975, n - 1) * math.sqrt(self.m2 / (n - 1)) / math.sqrt(n)
        return [rounded_r(self.mean - half), rounded_r(self.mean + half)]

    def values(self) -> dict[str, Any]:
        """The figures as `schemas.RecordStatistics` names them."""
        n = self.decided
        return {
            "decided": n,
            "expectancy_r": rounded_r(self.mean) if n else None,
            "profit_factor": rounded_r(self.gain / -self.loss) if self.loss < 0 else None,
            "max_drawdown_r": rounded_r(self.drawdown),
            "longest_win_streak": self.longest_win,
            "longest_loss_streak": self.longest_loss,
            "average_holding_hours": round(self.holding_seconds / n / 3600.0, 1) if n else None,
            "average_r_interval95": self.interval95(),
            "sample_size_note": sample_size_note(n),
        }


def sample_size_note(decided: int) -> str | None:
    if decided >= ENOUGH_TO_JUDGE:
        return None
    return f"{decided} decided idea{'' if decided == 1 else 's'}: too few to judge"


@dataclass(slots=True)
class SetupTally:
    """One setup's decided ideas in a record (issue #42): wins and losses for the win rate, and the spread of their R
    for the expectancy and its 95 % interval."""

    wins: int = 0
    losses: int = 0
    spread: Statistics = field(default_factory=Statistics)

    def add(self, status: str, r: float | None, opened_at: datetime, closed_at: datetime) -> None:
        if status == WIN:
            self.wins += 1
        elif status == LOSS:
            self.losses += 1
        else:
            return
        self.spread.add(status, r, opened_at, closed_at)

    def values(self) -> dict[str, Any]:
        """The figures as `schemas.SetupFigures` names them."""
        decided = self.wins + self.losses
        n = self.spread.decided
        return {
            "decided": n,
            "win_rate": round(self.wins / decided, 4) if decided else None,
            "expectancy_r": rounded_r(self.spread.mean) if n else None,
            "expectancy_interval95": self.spread.interval95(),
            "sample_size_note": sample_size_note(n),
        }
