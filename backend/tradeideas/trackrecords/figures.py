"""The arithmetic of a track record, without the database.

A `Tally` summarises ideas closed in a row (in closing order): counts, R sums, best and worst, and the shape
of the cumulative R from 0 (highest, lowest, largest peak-to-trough fall). Ideas are added one at a time in
closing order, so the drawdown is exact; tallies of consecutive runs also combine exactly (`then`).
A `Book` keeps one tally for the whole record and one per group (market, idea type, ...) in one pass.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from typing import Any

from tradeideas.ideas.models import IdeaStatus
from tradeideas.trackrecords.statistics import rounded_r


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
        # Written out (not `then`): a book adds every idea of a record to several tallies.
        self.r_count += 1
        self.sum_r += r
        if r > 0:
            self.gain_r += r
        else:
            self.loss_r += r
        if self.best_r is None or r > self.best_r:
            self.best_r = r
        if self.worst_r is None or r < self.worst_r:
            self.worst_r = r
        if self.sum_r > self.peak_r:
            self.peak_r = self.sum_r
        elif self.sum_r < self.low_r:
            self.low_r = self.sum_r
        if self.peak_r - self.sum_r > self.drawdown_r:
            self.drawdown_r = self.peak_r - self.sum_r

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

# What a group is keyed by, from one closed idea's (market, idea type, time frame, closed at).
Grouping = Callable[[str, str, str, datetime], str]
Point = tuple[datetime, float]
GROUPINGS: dict[str, Grouping] = {
    "market": lambda market, _type, _frame, _at: market,
    "idea_type": lambda _market, idea_type, _frame, _at: idea_type,
    "time_frame": lambda _market, _type, time_frame, _at: time_frame,
    "month": lambda _market, _type, _frame, closed_at: f"{closed_at.year:04d}-{closed_at.month:02d}",
}


@dataclass(slots=True)
class Book:
    """A whole record and its groups, from closed ideas added in closing order, with the per-idea curve."""

    groupings: tuple[str, ...] = ()
    whole: Tally = field(default_factory=Tally)
    groups: dict[tuple[str, str], Tally] = field(default_factory=dict)
    # (closed at, cumulative R) after every idea with an R, in closing order.
    curve: list[tuple[datetime, float]] = field(default_factory=list)
    # The last idea added (closing order is closed at, then id): later ones may be appended to stored totals.
    last: tuple[datetime, int] | None = None

    def add(
        self, idea_id: int, market: str, idea_type: str, time_frame: str, status: str, r: float | None, at: datetime
    ) -> None:
        self.last = (at, idea_id)
        self.whole.add(status, r)
        for name in self.groupings:
            key = (name, GROUPINGS[name](market, idea_type, time_frame, at))
            tally = self.groups.get(key)
            if tally is None:
                tally = self.groups[key] = Tally()
            tally.add(status, r)
        if r is not None and status in (IdeaStatus.SUCCESSFUL, IdeaStatus.UNSUCCESSFUL):
            self.curve.append((at, self.whole.sum_r))

    @classmethod
    def of(cls, rows: Iterable[Any], groupings: Iterable[str]) -> "Book":
        """From (id, market, idea type, time frame, status, R, closed at) rows in closing order."""
        book = cls(tuple(groupings))
        book.add_rows(rows)
        return book

    def copy(self) -> "Book":
        """An independent copy, to add later ideas to while the original may still be read."""
        groups = {key: replace(tally) for key, tally in self.groups.items()}
        return Book(self.groupings, replace(self.whole), groups, list(self.curve), self.last)

    def add_rows(self, rows: Iterable[Any]) -> None:
        """(id, market, idea type, time frame, status, R, closed at) rows in closing order, after the others."""
        for row in rows:
            self.add(*row)


WHOLE = "all"
# The groups kept as rows; months are only computed for one educator's page.
STORED_GROUPINGS = ("market", "idea_type", "time_frame")
SPARKLINE_POINTS = 60


def _sparkline_step(ideas: int) -> int:
    """Every `step`-th idea is a sparkline point: the smallest power of two keeping them within the limit."""
    step = 1
    while ideas // step > SPARKLINE_POINTS:
        step *= 2
    return step


def sparkline(curve: Sequence[Point]) -> list[Point]:
    """At most `SPARKLINE_POINTS` (+ 1) points of a per-idea curve: every `step`-th idea's, then the last one's.

    Chosen so a new idea at the end extends it without the whole curve (`extend_sparkline`)."""
    step = _sparkline_step(len(curve))
    line = list(curve[step - 1 :: step])
    if len(curve) % step:
        line.append(curve[-1])
    return line


# A record's equity curve as served: at most this many points unless the whole curve is asked for (issue #38).
CURVE_POINTS = 500


def shaped_curve(curve: Sequence[Point], at_most: int | None = None) -> Sequence[Point]:
    """The curve in at most `at_most` (default `CURVE_POINTS`) points that keep its shape: the first and the last
    point, the peak and the trough of its deepest fall (so the drawdown a chart shows is the record's), and from
    each of the runs of consecutive points between them its lowest and its highest, in closing order. Every swing
    wider than a run survives, unlike with a plain every-n-th sample. A curve that fits is returned whole; the
    same curve always gives the same points."""
    at_most = CURVE_POINTS if at_most is None else at_most
    if len(curve) <= at_most:
        return curve
    values = [r for _, r in curve]
    last = len(values) - 1
    kept = {0, last, *_deepest_fall(values)}
    runs = (at_most - len(kept)) // 2
    inner = last - 1
    for run in range(runs):
        start, stop = 1 + inner * run // runs, 1 + inner * (run + 1) // runs
        if start < stop:
            part = values[start:stop]
            kept.add(start + part.index(min(part)))
            kept.add(start + part.index(max(part)))
    return [curve[i] for i in sorted(kept)]


def _deepest_fall(values: Sequence[float]) -> tuple[int, int]:
    """Where the largest fall from a running peak starts and ends (indices; (0, 0) when it never falls)."""
    peak = best_peak = best_trough = 0
    deepest = 0.0
    for i, value in enumerate(values):
        if value > values[peak]:
            peak = i
        elif values[peak] - value > deepest:
            deepest, best_peak, best_trough = values[peak] - value, peak, i
    return best_peak, best_trough


def extend_sparkline(line: list[Point], ideas: int, point: Point) -> list[Point]:
    """`sparkline(curve + [point])` from `line = sparkline(curve)` and `ideas = len(curve)`."""
    step, new_step = _sparkline_step(ideas), _sparkline_step(ideas + 1)
    sampled = line[: ideas // step]
    if (ideas + 1) % step == 0:
        sampled.append(point)
    if new_step != step:  # keep every other point
        sampled = sampled[1::2]
    if (ideas + 1) % new_step:
        sampled.append(point)
    return sampled


def _pick(choose: Any, a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return float(choose(a, b))


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
        "average_r": rounded_r(tally.sum_r / tally.r_count) if tally.r_count else None,
        "total_r": rounded_r(tally.sum_r),
        "profit_factor": rounded_r(tally.gain_r / -tally.loss_r) if tally.loss_r < 0 else None,
        "max_drawdown_r": rounded_r(tally.drawdown_r),
        "best_r": None if tally.best_r is None else rounded_r(tally.best_r),
        "worst_r": None if tally.worst_r is None else rounded_r(tally.worst_r),
        "deleted_after_publish": withdrawn,
    }


def total_rows(educator_id: int, book: Book) -> list[dict[str, Any]]:
    """The `track_record_totals` rows of one educator's record (also written by migration 0008)."""
    at, idea_id = book.last or (None, None)
    whole = {"sparkline": stored_sparkline(sparkline(book.curve)), "last_closed_at": at, "last_idea_id": idea_id}
    rows = [{"educator_id": educator_id, "grouping": WHOLE, "key": "", **whole, **book.whole.values()}]
    only_whole = {"sparkline": None, "last_closed_at": None, "last_idea_id": None}
    rows += [
        {"educator_id": educator_id, "grouping": grouping, "key": key, **only_whole, **tally.values()}
        for (grouping, key), tally in book.groups.items()
    ]
    return rows


def stored_sparkline(line: Sequence[Point]) -> list[list[Any]]:
    """As kept in `track_record_totals.sparkline` (JSON): [[closed at (ISO), cumulative R (exact)], ...]."""
    return [[at.astimezone(UTC).isoformat(), r] for at, r in line]


def loaded_sparkline(stored: Sequence[Sequence[Any]] | None) -> list[Point]:
    return [(datetime.fromisoformat(at), r) for at, r in stored or []]
