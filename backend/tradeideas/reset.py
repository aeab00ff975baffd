"""The spec's full data reset: clears every table of content and every account (CLI only)."""

import asyncio

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.models import AppMeta, ServerKey
from tradeideas.media.store import LocalStore, media_store
from tradeideas.models import Base
from tradeideas.settings import Settings


async def reset_all_data(db: AsyncSession, settings: Settings) -> None:
    # Children before parents, so foreign keys hold at every step.
    for table in reversed(Base.metadata.sorted_tables):
        if table.name != ServerKey.__tablename__:  # the push key outlives the data (browsers subscribed with it)
            await db.execute(delete(table))
    await db.execute(delete(AppMeta))
    store = media_store(settings)
    if isinstance(store, LocalStore):
        await asyncio.to_thread(store.clear)
    else:
        for name in await store.names():
            await store.delete(name)
