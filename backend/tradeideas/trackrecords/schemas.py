"""Response bodies and filters of the track-record routes (JSON in camelCase)."""

from datetime import datetime
from typing import Literal

from pydantic import Field

from tradeideas.core.schemas import CamelModel
from tradeideas.prices.schemas import VerifiedFigures


class RecordFigures(CamelModel):
    ideas: int = Field(description="Open and completed ideas")
    active: int = Field(description="Open ideas (active or pending)")
    completed: int = Field(description="Ideas with an outcome: wins, losses and not triggered")
    wins: int
    losses: int
    not_triggered: int
    win_rate: float | None = Field(description="wins / (wins + losses) as a fraction; null when there are none")
    average_r: float | None
    total_r: float
    profit_factor: float | None = Field(description="Sum of positive R / |sum of negative R|; null without losses")
    max_drawdown_r: float = Field(description="Largest peak-to-trough fall of cumulative R")
    best_r: float | None
    worst_r: float | None
    deleted_after_publish: int = Field(description="Open ideas deleted more than 15 minutes after publishing")


class RecordGroup(RecordFigures):
    key: str = Field(description="The market, idea type, time frame or month (YYYY-MM) of this group")


class CurvePoint(CamelModel):
    at: datetime = Field(description="When the idea closed")
    cumulative_r: float


class EducatorProfile(CamelModel):
    id: int
    slug: str | None
    name: str
    avatar_url: str | None
    specialty: str | None
    bio: str
    years_experience: int
    trading_style: str | None


class RecordStatistics(CamelModel):
    """Over the decided ideas (successful or unsuccessful, with R) that match the page's filters, in closing order."""

    decided: int = Field(description="Decided ideas counted (not-triggered ideas are left out)")
    expectancy_r: float | None = Field(description="Average R per decided idea")
    profit_factor: float | None = Field(description="Sum of positive R / |sum of negative R|; null without losses")
    max_drawdown_r: float = Field(description="Largest peak-to-trough fall of cumulative R")
    longest_win_streak: int
    longest_loss_streak: int
    average_holding_hours: float | None = Field(description="Publishing to closing, on average (1 decimal)")
    average_r_interval95: list[float] | None = Field(
        min_length=2,
        max_length=2,
        description="[low, high]: a 95 % interval for the average R (Student's t); null under 2 decided ideas",
    )
    sample_size_note: str | None = Field(
        description='Under 30 decided ideas, e.g. "11 decided ideas: too few to judge"; null from 30'
    )


class SetupFigures(CamelModel):
    """One setup's decided ideas (successful or unsuccessful; with R for the expectancy) in the record's selection."""

    decided: int = Field(description="Decided ideas with an R (not-triggered ideas are left out)")
    win_rate: float | None = Field(description="wins / (wins + losses) as a fraction; null when there are none")
    expectancy_r: float | None = Field(description="Average R per decided idea; null when there are none")
    expectancy_interval95: list[float] | None = Field(
        min_length=2,
        max_length=2,
        description="[low, high]: a 95 % interval for the expectancy (Student's t); null under 2 decided ideas",
    )
    sample_size_note: str | None = Field(
        description='Under 30 decided ideas, e.g. "11 decided ideas: too few to judge"; null from 30'
    )


class SetupRecord(SetupFigures):
    """One of the educator's setups: its figures from the educator's calls, and the same from the price checks."""

    setup_id: int = Field(description="Filter the record by it with `setup=<id>`")
    name: str
    description: str | None
    price_checked: SetupFigures = Field(description="The same ideas as the price checks settled them")


class TrackRecordSummary(RecordFigures):
    educator: EducatorProfile
    verified: VerifiedFigures = Field(description="The same ideas as the price checks settled them (decision 0050)")
    agreement_rate: float | None = Field(
        description="Share of ideas with both verdicts (the educator's and the price check's) that agree"
    )
    followers_count: int = Field(
        description="Distinct members with a journal entry on the educator's ideas (that match the filters)"
    )
    followers_average_r: float | None = Field(
        description="The median R of those members' closed journal entries, as the journal computes it (a median, "
        "so a few accounts cannot skew it; decision 0101); null under 5 followers or while none closed"
    )
    statistics: RecordStatistics
    equity_curve: list[CurvePoint] = Field(
        description="Cumulative R after each completed idea with an R, in closing order. One record: every point "
        "with `curve=full`, otherwise at most 500 that keep the curve's shape (the first and the last, and the lowest "
        "and the highest of each run of points between them). In the educators list a sparkline of those points: "
        "every n-th idea's (n a power of two keeping them to 60) and the last one"
    )


# How much of a record's equity curve is sent (`GET /api/educators/{id}/track-record?curve=`).
CurveDetail = Literal["shaped", "full"]
# Whose verdicts a record's figures, curve and groups count (`?source=`, decision 0102).
RecordSource = Literal["educator", "verified"]


class NotCheckedReason(CamelModel):
    reason: str = Field(description="Why these ideas have no price-checked verdict, in the member's words")
    ideas: int


class Coverage(CamelModel):
    """Which completed ideas of the selection each view counts: all of them as the educator called them, and those
    the price checks settled (the others could not be checked, or not yet)."""

    completed: int = Field(description="Completed ideas in the selection (the educator's calls)")
    price_checked: int = Field(description="Of those, the ones the price checks settled")
    not_checked: int = Field(description="completed - priceChecked")
    reasons: list[NotCheckedReason] = Field(description="Why the others were not price-checked, most ideas first")
    educator_r_on_checked: float = Field(description="The educator's total R over the price-checked ideas")
    checked_r_on_checked: float = Field(description="The price checks' total R over the same ideas")
    r_difference: float = Field(description="checkedROnChecked - educatorROnChecked: what the disagreement implies")


class TrackRecord(TrackRecordSummary):
    source: RecordSource = Field(
        description="`educator`: figures, curve and groups from the educator's calls; `verified`: from the price "
        "checks' verdicts of the same selection (settled ideas only, in settling order)"
    )
    coverage: Coverage
    by_market: list[RecordGroup]
    by_idea_type: list[RecordGroup]
    by_time_frame: list[RecordGroup]
    by_month: list[RecordGroup]
    by_setup: list[SetupRecord] = Field(
        description="Every setup the educator keeps, in the order they were added, with the selection's ideas of each "
        "(ideas that name no setup are in no group)"
    )


class ChallengePass(CamelModel):
    probability: float = Field(description="Share of the runs that reached the profit target in time")
    interval95: list[float] = Field(
        min_length=2, max_length=2, description="95 % Wilson interval of that share: [low, high]"
    )


class ChallengeOut(CamelModel):
    """ "Would I pass a funded-account challenge?": Monte Carlo runs resampling the educator's price-checked results
    at their own pace (decision 0180). Past results do not predict future ones."""

    runs: int = Field(description="Simulated challenges")
    passing: ChallengePass = Field(alias="pass", description="Runs that reached the profit target within the days")
    median_days_to_pass: float | None = Field(description="Median calendar days to pass, over the runs that passed")
    daily_loss_breach: float = Field(description="Share of the runs that failed on the daily loss limit")
    max_loss_breach: float = Field(description="Share of the runs that failed on the maximum loss")
    ideas: int = Field(description="Decided price-checked ideas the runs resample")
    seed: int = Field(description="The random seed: the same inputs and seed give the same answer")
