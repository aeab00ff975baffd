"""The spec's full data reset: clears every table of content and every account (CLI only)."""

import shutil

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.models import AppMeta
from tradeideas.models import Base
from tradeideas.settings import Settings


async def reset_all_data(db: AsyncSession, settings: Settings) -> None:
    # Children before parents, so foreign keys hold at every step.
    for table in reversed(Base.metadata.sorted_tables):
        await db.execute(delete(table))
    await db.execute(delete(AppMeta))
    if settings.media_dir.exists():
        shutil.rmtree(settings.media_dir)
