"""The busiest read, a page of ideas, as JSON bytes: cached per process (see `cache.py`), NEW flags per customer."""

import orjson

from tradeideas.db import Database
from tradeideas.ideas.cache import CachedIdea, CachedPage, IdeaCache, SeenMarks
from tradeideas.ideas.queries import PUBLIC_VIEWER, Viewer, page_rows, present, seen_marks
from tradeideas.ideas.schemas import IdeaListQuery


class IdeaPages:
    """Pages of ideas, newest first, as the JSON of `IdeaPage`: from memory when nothing changed.

    The page (the same for everyone) and each customer's seen marks are cached separately, so a customer
    gets their own NEW flags on a page shared with everyone else. A component built once in `create_app`:
    the list route needs one dependency, and a database session is opened only when something must be read.
    """

    def __init__(self, database: Database, cache: IdeaCache) -> None:
        self._database = database
        self._cache = cache

    async def json(self, viewer: Viewer, filters: IdeaListQuery) -> bytes:
        cache = self._cache
        page = cache.page(filters)
        if page is None:
            page = await self._read_page(filters)
        if not viewer.is_customer or not page.ideas:
            return page.shared_json
        marks = cache.seen(viewer.user_id)
        if marks is None:
            marks = await self._read_marks(viewer.user_id)
        else:
            answer = cache.answer(filters, viewer.user_id, page, marks)
            if answer is not None:
                return answer
        items = [
            {
                **idea.data,
                "isNew": marks.is_new(idea.id, idea.market, idea.created_at, idea.completed, idea.educator_id),
            }
            for idea in page.ideas
        ]
        body = orjson.dumps({"items": items, "nextCursor": page.next_cursor})
        cache.put_answer(filters, viewer.user_id, page, marks, body)
        return body

    async def _read_page(self, filters: IdeaListQuery) -> CachedPage:
        generation = self._cache.generation
        async with self._database.sessionmaker() as db:
            rows, next_cursor = await page_rows(db, filters)
            shown = [out.model_dump(mode="json", by_alias=True) for out in await present(db, rows, PUBLIC_VIEWER)]
        page = CachedPage(
            ideas=tuple(
                CachedIdea(
                    id=idea.id,
                    market=idea.market,
                    created_at=idea.created_at,
                    completed=idea.completed,
                    educator_id=idea.educator_id,
                    data=data,
                )
                for (idea, _), data in zip(rows, shown, strict=True)
            ),
            next_cursor=next_cursor,
            shared_json=orjson.dumps({"items": shown, "nextCursor": next_cursor}),
        )
        self._cache.put_page(filters, page, generation)
        return page

    async def _read_marks(self, user_id: int) -> SeenMarks:
        generation = self._cache.generation
        async with self._database.sessionmaker() as db:
            marks = await seen_marks(db, user_id)
        self._cache.put_seen(user_id, marks, generation)
        return marks
