"""The busiest read, a page of ideas, as JSON bytes: cached per process (see `cache.py`), NEW flags per customer."""

from collections.abc import Callable, Iterable
from datetime import datetime

from pydantic import TypeAdapter

from tradeideas.core.access import FULL_ACCESS, EducatorAccess
from tradeideas.db import Database, DriverReader
from tradeideas.ideas.cache import CachedIdea, CachedPage, EncodedIdea, IdeaCache, SeenMarks
from tradeideas.ideas.models import IdeaStatus
from tradeideas.ideas.queries import (
    INVALIDATED_SHOWN,
    NO_PICTURES,
    UNSEEN_COUNT_CAP,
    Viewer,
    never_new,
    read_page,
    read_seen_marks,
    shown_idea,
    unseen_counts,
)
from tradeideas.ideas.schemas import IdeaListQuery, IdeaOut, IdeaPage, UnseenCounts

# A market's open ideas, newest first: the page a customer's market screen asks for, and what unseen counts
# are counted from (it holds at least as many ideas as a count can reach).
OPEN_IDEAS = {
    market: IdeaListQuery(market=market, status="active", limit=UNSEEN_COUNT_CAP) for market in ("forex", "crypto")
}


# Every byte of a page comes from the list route's declared response model, `IdeaPage`, and its `IdeaOut`s.
IDEA_JSON = TypeAdapter(IdeaOut)
PAGE_JSON = TypeAdapter(IdeaPage)


def encode_idea(idea: IdeaOut) -> EncodedIdea:
    """The idea's JSON as `IdeaOut` encodes it, once for each NEW flag a viewer can have: a page is sent to many
    customers, each with their own flags, and is joined from these without encoding anything again."""
    return EncodedIdea(
        shared=IDEA_JSON.dump_json(idea, by_alias=True),
        new=IDEA_JSON.dump_json(idea.model_copy(update={"is_new": True}), by_alias=True),
        seen=IDEA_JSON.dump_json(idea.model_copy(update={"is_new": False}), by_alias=True),
    )


def dump_page(items: Iterable[bytes], next_cursor: str | None, locked_educators: int = 0) -> bytes:
    """`IdeaPage`'s JSON around items already encoded by `IdeaOut`: the envelope is the model's own encoding of
    a page with no items (`{"items":[],"nextCursor":...}`), with the items put between its brackets."""
    empty = IdeaPage(items=[], next_cursor=next_cursor, locked_educators=locked_educators)
    envelope = PAGE_JSON.dump_json(empty, by_alias=True)
    head, tail = envelope.split(b"[]", 1)  # the first "[]" is the items' array: nothing in the envelope precedes it
    return b"".join((head, b"[", b",".join(items), b"]", tail))


def hidden(idea: CachedIdea, access: EducatorAccess) -> bool:
    """An open idea of an educator the reader's plans do not open (completed and invalidated ideas are public)."""
    return not idea.completed and not access.opens(idea.educator_id)


def restricts(page: CachedPage, access: EducatorAccess) -> bool:
    """Whether `access` hides any idea on the page (then the page is sent without them)."""
    return not access.everything and any(hidden(idea, access) for idea in page.ideas)


def count_unseen(page: CachedPage, marks: SeenMarks, market: str, access: EducatorAccess = FULL_ACCESS) -> int | None:
    """The customer's unseen open ideas in `market` (capped as in SQL) from the newest open ideas, or None when
    unseen ideas may lie beyond the page: it is full and reaches back past the customer's watermark."""
    count = 0
    for idea in page.ideas:
        if hidden(idea, access):
            continue
        if marks.is_new(idea.id, idea.market, idea.created_at, idea.completed, idea.educator_id):
            count += 1
            if count == UNSEEN_COUNT_CAP:
                return count
    if page.next_cursor is None or not marks.follows(market):
        return count
    until = marks.seen_until(market)
    # Ideas beyond the page are no newer than its last: all seen if that one is at or before the watermark.
    if until is not None and page.ideas and page.ideas[-1].created_at <= until:
        return count
    return None


class IdeaPages:
    """Pages of ideas, newest first, as the JSON of `IdeaPage`: from memory when nothing changed.

    The page (the same for everyone) and each customer's seen marks are cached separately, so a customer
    gets their own NEW flags on a page shared with everyone else. A component built once in `create_app`:
    the list route needs one dependency, and a database session is opened only when something must be read.
    """

    def __init__(self, database: Database, cache: IdeaCache, now: Callable[[], datetime]) -> None:
        self._database = database
        self._cache = cache
        self._now = now  # the app's clock: when invalidated ideas leave the active list

    def _page(self, filters: IdeaListQuery) -> CachedPage | None:
        """The cached page, unless an invalidated idea on it has left the active list since it was read."""
        page = self._cache.page(filters)
        if page is not None and page.expires_at is not None and self._now() >= page.expires_at:
            return None
        return page

    async def json(self, viewer: Viewer, filters: IdeaListQuery, access: EducatorAccess = FULL_ACCESS) -> bytes:
        """The page for `viewer`; with `access` short of everything, without the open ideas it does not open."""
        cache = self._cache
        if not cache.usable():
            return await self._read_answer(viewer, filters, access)
        page = self._page(filters)
        marks = cache.seen(viewer.user_id) if viewer.is_customer else None
        if page is None or (marks is None and viewer.is_customer and page.ideas):
            page, marks = await self._read(filters, viewer, page, marks)
        if marks is None or not page.ideas:  # no NEW flags to add (not a customer, or nothing listed)
            return self._joined(page, None, access) if restricts(page, access) else page.shared_json
        answer = cache.answer(filters, viewer.user_id, page, marks, access)
        if answer is not None:
            return answer
        body = self._joined(page, marks, access)
        cache.put_answer(filters, viewer.user_id, page, marks, access, body)
        return body

    @staticmethod
    def _joined(page: CachedPage, marks: SeenMarks | None, access: EducatorAccess) -> bytes:
        """The page with these NEW flags (none without `marks`) and without the open ideas `access` does not open,
        joined from the cached encodings."""
        shown: list[bytes] = []
        locked: set[int] = set()
        for idea in page.ideas:
            if hidden(idea, access):
                locked.add(idea.educator_id)
            elif marks is None:
                shown.append(idea.json.shared)
            else:
                is_new = marks.is_new(idea.id, idea.market, idea.created_at, idea.completed, idea.educator_id)
                shown.append(idea.json.new if is_new else idea.json.seen)
        return dump_page(shown, page.next_cursor, len(locked))

    async def unseen_counts(self, user_id: int, access: EducatorAccess = FULL_ACCESS) -> UnseenCounts:
        """The customer's unseen open ideas per market: from the pages of newest open ideas and the customer's
        seen marks, cached for the market screens and kept exact by events, so a count is no database round
        trip; counted in the database when those pages cannot settle it (or caching is off)."""
        counted = await self._count_from_pages(user_id, access) if self._cache.usable() else None
        if counted is not None:
            return counted
        async with self._database.sessionmaker() as session:
            return await unseen_counts(session, user_id, None if access.everything else access.educators)

    async def _count_from_pages(self, user_id: int, access: EducatorAccess = FULL_ACCESS) -> UnseenCounts | None:
        viewer = Viewer(user_id=user_id, is_customer=True)
        counts: dict[str, int] = {}
        for market, filters in OPEN_IDEAS.items():
            page = self._page(filters)
            marks = self._cache.seen(user_id)
            if page is None or (marks is None and page.ideas):
                page, marks = await self._read(filters, viewer, page, marks)
            if not page.ideas:
                counts[market] = 0
                continue
            assert marks is not None, "read with any page that lists ideas"
            count = count_unseen(page, marks, market, access)
            if count is None:
                return None
            counts[market] = count
        return UnseenCounts(forex=counts["forex"], crypto=counts["crypto"], total=counts["forex"] + counts["crypto"])

    async def _read_answer(self, viewer: Viewer, filters: IdeaListQuery, access: EducatorAccess) -> bytes:
        """Caches off: the page and (customers) the seen marks through one connection, each item built once with
        its NEW flag."""
        async with self._database.reader() as reader:
            page = await read_page(reader, filters, self._now())
            marks = await read_seen_marks(reader, viewer.user_id) if viewer.is_customer and page.rows else None
        pictures = page.pictures
        rows = [row for row in page.rows if never_new(row) or access.opens(row["educator_id"])]
        locked = {
            row["educator_id"] for row in page.rows if not never_new(row) and not access.opens(row["educator_id"])
        }
        items = [
            shown_idea(
                row,
                pictures.get(row["id"], NO_PICTURES),
                None
                if marks is None
                else marks.is_new(row["id"], row["market"], row["created_at"], never_new(row), row["educator_id"]),
                page.verifications.get(row["id"]),
            )
            for row in rows
        ]
        return PAGE_JSON.dump_json(
            IdeaPage(items=items, next_cursor=page.next_cursor, locked_educators=len(locked)),
            by_alias=True,
        )

    async def _read(
        self, filters: IdeaListQuery, viewer: Viewer, page: CachedPage | None, marks: SeenMarks | None
    ) -> tuple[CachedPage, SeenMarks | None]:
        """What the caches lacked, the page and (customers) the seen marks, through one connection.

        Read on the driver's connection, not through an ORM session: plain columns, no identity map, statements
        compiled once (see `db.DriverQuery`).
        """
        generation = self._cache.generation
        async with self._database.reader() as reader:
            if page is None:
                page = await self._read_page(reader, filters, self._now())
                self._cache.put_page(filters, page, generation)
            if marks is None and viewer.is_customer and page.ideas:
                marks = await read_seen_marks(reader, viewer.user_id)
                self._cache.put_seen(viewer.user_id, marks, generation)
        return page, marks

    @staticmethod
    async def _read_page(reader: DriverReader, filters: IdeaListQuery, now: datetime) -> CachedPage:
        read = await read_page(reader, filters, now)
        ideas = tuple(
            CachedIdea(
                id=row["id"],
                market=row["market"],
                created_at=row["created_at"],
                # Invalidated ideas are never NEW either (the field only feeds the NEW flags and unseen counts).
                completed=never_new(row),
                educator_id=row["educator_id"],
                json=encode_idea(
                    IdeaOut.model_validate(
                        shown_idea(
                            row,
                            read.pictures.get(row["id"], NO_PICTURES),
                            None,
                            read.verifications.get(row["id"]),
                        )
                    )
                ),
            )
            for row in read.rows
        )
        leaving = [
            row["closed_at"] + INVALIDATED_SHOWN
            for row in read.rows
            if filters.status == "active" and row["status"] == IdeaStatus.INVALIDATED and row["closed_at"] is not None
        ]
        return CachedPage(
            ideas=ideas,
            next_cursor=read.next_cursor,
            shared_json=dump_page((idea.json.shared for idea in ideas), read.next_cursor),
            expires_at=min(leaving, default=None),
        )
