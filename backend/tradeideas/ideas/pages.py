"""The busiest read, a page of ideas, as JSON bytes: cached per process (see `cache.py`), NEW flags per customer."""

import orjson

from tradeideas.db import Database
from tradeideas.ideas.cache import CachedIdea, CachedPage, IdeaCache, SeenMarks
from tradeideas.ideas.queries import Viewer, page_rows, pictures_by_idea, seen_marks, shown_idea
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
        # A bare connection, not an ORM session: the page is read as plain columns and needs no identity map.
        async with self._database.engine.connect() as conn:
            rows, next_cursor = await page_rows(conn, filters)
            pictures = await pictures_by_idea(conn, [row.id for row in rows])
        ideas = tuple(
            CachedIdea(
                id=row.id,
                market=row.market,
                created_at=row.created_at,
                completed=row.completed,
                educator_id=row.educator_id,
                data=shown_idea(row, pictures.get(row.id, ()), None),
            )
            for row in rows
        )
        page = CachedPage(
            ideas=ideas,
            next_cursor=next_cursor,
            shared_json=orjson.dumps({"items": [idea.data for idea in ideas], "nextCursor": next_cursor}),
        )
        self._cache.put_page(filters, page, generation)
        return page

    async def _read_marks(self, user_id: int) -> SeenMarks:
        generation = self._cache.generation
        async with self._database.engine.connect() as conn:
            marks = await seen_marks(conn, user_id)
        self._cache.put_seen(user_id, marks, generation)
        return marks
