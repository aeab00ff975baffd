"""Demo track records: the day rows of the seeded history (written after the sample ideas)."""

from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.schemas import DemoAccounts
from tradeideas.settings import Settings
from tradeideas.trackrecords.service import rebuild


async def seed_track_records(db: AsyncSession, _settings: Settings, _demo: DemoAccounts) -> None:
    await rebuild(db)
