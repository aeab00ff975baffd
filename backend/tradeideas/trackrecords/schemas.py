"""Response bodies and filters of the track-record routes (JSON in camelCase)."""

from datetime import datetime

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


class TrackRecordSummary(RecordFigures):
    educator: EducatorProfile
    verified: VerifiedFigures = Field(description="The same ideas as the price checks settled them (decision 0050)")
    agreement_rate: float | None = Field(
        description="Share of ideas with both verdicts (the educator's and the price check's) that agree"
    )
    equity_curve: list[CurvePoint] = Field(
        description="Cumulative R after each completed idea with an R, in closing order; in the educators list "
        "a sparkline of those points: every n-th idea's (n a power of two keeping them to 60) and the last one"
    )


class TrackRecord(TrackRecordSummary):
    by_market: list[RecordGroup]
    by_idea_type: list[RecordGroup]
    by_time_frame: list[RecordGroup]
    by_month: list[RecordGroup]
