"""The arithmetic of a track record, without the database.

A `Tally` summarises ideas closed in a row (in closing order): counts, R sums, best and worst, and the shape
of the cumulative R from 0 (highest, lowest, largest peak-to-trough fall). Tallies of consecutive runs
combine exactly (`then`), so a record is the combination of its stored day rows in closing order.
"""

from dataclasses import dataclass, fields
from typing import Any

from tradeideas.ideas.models import IdeaStatus


@dataclass(slots=True)
class Tally:
    wins: int = 0
    losses: int = 0
    not_triggered: int = 0
    r_count: int = 0
    sum_r: float = 0.0
    gain_r: float = 0.0
    loss_r: float = 0.0
    best_r: float | None = None
    worst_r: float | None = None
    peak_r: float = 0.0
    low_r: float = 0.0
    drawdown_r: float = 0.0

    def add(self, status: str, r: float | None) -> None:
        """One more closed idea, after the others."""
        if status == IdeaStatus.SUCCESSFUL:
            self.wins += 1
        elif status == IdeaStatus.UNSUCCESSFUL:
            self.losses += 1
        else:
            self.not_triggered += 1
            return  # no trade, no R
        if r is None:
            return
        self.then(Tally(r_count=1, sum_r=r, gain_r=max(r, 0.0), loss_r=min(r, 0.0), best_r=r, worst_r=r,
                        peak_r=max(r, 0.0), low_r=min(r, 0.0), drawdown_r=max(-r, 0.0)))  # fmt: skip

    def then(self, later: "Tally") -> "Tally":
        """Append a later run in place (and return self)."""
        self.drawdown_r = max(self.drawdown_r, later.drawdown_r, self.peak_r - (self.sum_r + later.low_r))
        self.peak_r = max(self.peak_r, self.sum_r + later.peak_r)
        self.low_r = min(self.low_r, self.sum_r + later.low_r)
        self.sum_r += later.sum_r
        self.gain_r += later.gain_r
        self.loss_r += later.loss_r
        self.r_count += later.r_count
        self.wins += later.wins
        self.losses += later.losses
        self.not_triggered += later.not_triggered
        self.best_r = _pick(max, self.best_r, later.best_r)
        self.worst_r = _pick(min, self.worst_r, later.worst_r)
        return self

    def values(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def of(cls, row: Any) -> "Tally":
        return cls(**{f.name: getattr(row, f.name) for f in fields(cls)})


TALLY_FIELDS = tuple(f.name for f in fields(Tally))


def _pick(choose: Any, a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return float(choose(a, b))


def _r(value: float) -> float:
    return round(value + 0.0, 2) + 0.0  # + 0.0: never "-0.0"


def figures(tally: Tally, active: int, withdrawn: int) -> dict[str, Any]:
    """The public figures of a record (see `schemas.RecordFigures`)."""
    completed = tally.wins + tally.losses + tally.not_triggered
    decided = tally.wins + tally.losses
    return {
        "ideas": active + completed,
        "active": active,
        "completed": completed,
        "wins": tally.wins,
        "losses": tally.losses,
        "not_triggered": tally.not_triggered,
        "win_rate": round(tally.wins / decided, 4) if decided else None,
        "average_r": _r(tally.sum_r / tally.r_count) if tally.r_count else None,
        "total_r": _r(tally.sum_r),
        "profit_factor": _r(tally.gain_r / -tally.loss_r) if tally.loss_r < 0 else None,
        "max_drawdown_r": _r(tally.drawdown_r),
        "best_r": None if tally.best_r is None else _r(tally.best_r),
        "worst_r": None if tally.worst_r is None else _r(tally.worst_r),
        "deleted_after_publish": withdrawn,
    }
