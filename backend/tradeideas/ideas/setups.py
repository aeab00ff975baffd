"""Educators' setups: the named kinds of trade their ideas are ("Breakout retest"), kept on their profile.

An idea names one of its educator's setups (required once they have any) and the name is shown with it; which
setup an idea is belongs to its identity and is recorded in the ledger (decision 0170). Services never commit.
"""

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.errors import AppError, Invalid, NotFound
from tradeideas.db import utcnow
from tradeideas.ideas.events import SetupsChanged
from tradeideas.ideas.models import IdeaSetup, TradeIdea
from tradeideas.ideas.schemas import SetupCreate, SetupOut, SetupUpdate
from tradeideas.realtime.service import publish

MAX_SETUPS = 20
SETUP_NOT_FOUND = "Setup not found"
SETUP_REQUIRED = "Please choose one of your setups"
NOT_YOUR_SETUP = "setupId must be one of your setups"
TOO_MANY_SETUPS = f"You can keep at most {MAX_SETUPS} setups."
SETUP_IN_USE = "This setup is named by published ideas and stays part of their record: it cannot be deleted."


def _name_taken(name: str) -> str:
    return f"You already have a setup named {name}."


def field_error(field: str, message: str, code: str = "validation_error") -> Invalid:
    """A 422 naming the field, as the request validation's answers do (`errors: [{field, message}]`)."""
    return Invalid(message, code=code, extra={"errors": [{"field": field, "message": message}]})


async def _idea_counts(db: AsyncSession, educator_id: int) -> dict[int, int]:
    rows = await db.execute(
        select(TradeIdea.setup_id, func.count())
        .where(TradeIdea.educator_id == educator_id, TradeIdea.setup_id.is_not(None))
        .group_by(TradeIdea.setup_id)
    )
    return {setup_id: count for setup_id, count in rows.all() if setup_id is not None}


def _out(setup: IdeaSetup, ideas: int) -> SetupOut:
    return SetupOut(
        id=setup.id, educator_id=setup.educator_id, name=setup.name, description=setup.description, ideas=ideas
    )


async def _rows(db: AsyncSession, educator_id: int) -> list[IdeaSetup]:
    query = select(IdeaSetup).where(IdeaSetup.educator_id == educator_id).order_by(IdeaSetup.id)
    return list((await db.execute(query)).scalars())


async def list_setups(db: AsyncSession, educator_id: int) -> list[SetupOut]:
    """The educator's setups in the order they were added, each with how many of their ideas name it."""
    counts = await _idea_counts(db, educator_id)
    return [_out(setup, counts.get(setup.id, 0)) for setup in await _rows(db, educator_id)]


async def setups_of_ideas(db: AsyncSession, idea_ids: set[int]) -> dict[int, tuple[int, str]]:
    """The setup (id, name) each idea names, by idea id; ideas without a setup are missing."""
    if not idea_ids:
        return {}
    rows = await db.execute(
        select(TradeIdea.id, IdeaSetup.id, IdeaSetup.name)
        .join(IdeaSetup, IdeaSetup.id == TradeIdea.setup_id)
        .where(TradeIdea.id.in_(idea_ids))
    )
    return {idea_id: (setup_id, name) for idea_id, setup_id, name in rows}


async def has_setups(db: AsyncSession, educator_id: int) -> bool:
    query = select(IdeaSetup.id).where(IdeaSetup.educator_id == educator_id).limit(1)
    return (await db.execute(query)).scalar_one_or_none() is not None


async def get_setup(db: AsyncSession, setup_id: int) -> IdeaSetup:
    setup = await db.get(IdeaSetup, setup_id)
    if setup is None:
        raise NotFound(SETUP_NOT_FOUND, code="setup_not_found")
    return setup


async def check_idea_setup(db: AsyncSession, educator_id: int, setup_id: int | None) -> None:
    """An idea's setup: one of its educator's, and required once the educator has any (422 naming `setupId`)."""
    if setup_id is None:
        if await has_setups(db, educator_id):
            raise field_error("setupId", SETUP_REQUIRED, "setup_required")
        return
    setup = await db.get(IdeaSetup, setup_id)
    if setup is None or setup.educator_id != educator_id:
        raise field_error("setupId", NOT_YOUR_SETUP)


async def _check_name(db: AsyncSession, educator_id: int, name: str, setup_id: int | None = None) -> None:
    query = select(IdeaSetup.id).where(IdeaSetup.educator_id == educator_id, func.lower(IdeaSetup.name) == name.lower())
    if setup_id is not None:
        query = query.where(IdeaSetup.id != setup_id)
    if (await db.execute(query.limit(1))).scalar_one_or_none() is not None:
        raise field_error("name", _name_taken(name), "setup_name_taken")


async def create_setup(db: AsyncSession, educator_id: int, body: SetupCreate, now: datetime | None = None) -> SetupOut:
    """Add a setup at the end of the educator's list (at most `MAX_SETUPS`; names unique ignoring case)."""
    if len(await _rows(db, educator_id)) >= MAX_SETUPS:
        raise AppError(TOO_MANY_SETUPS, code="too_many_setups", status_code=409)
    await _check_name(db, educator_id, body.name)
    now = now or utcnow()
    setup = IdeaSetup(
        educator_id=educator_id, name=body.name, description=body.description, created_at=now, updated_at=now
    )
    db.add(setup)
    await db.flush()
    await publish(db, SetupsChanged(educator_id=educator_id))
    return _out(setup, 0)


async def update_setup(db: AsyncSession, setup: IdeaSetup, body: SetupUpdate, now: datetime | None = None) -> SetupOut:
    """Rename or describe a setup. Ideas name it by id, so its ideas show the new name (decision 0170)."""
    if body.name is not None and body.name != setup.name:
        await _check_name(db, setup.educator_id, body.name, setup.id)
        setup.name = body.name
    if "description" in body.model_fields_set:
        setup.description = body.description
    setup.updated_at = now or utcnow()
    await db.flush()
    await publish(db, SetupsChanged(educator_id=setup.educator_id))
    counts = await _idea_counts(db, setup.educator_id)
    return _out(setup, counts.get(setup.id, 0))


async def delete_setup(db: AsyncSession, setup: IdeaSetup) -> None:
    """Remove a setup no idea names; one that ideas name is part of their record (409)."""
    named = select(TradeIdea.id).where(TradeIdea.setup_id == setup.id).limit(1)
    if (await db.execute(named)).scalar_one_or_none() is not None:
        raise AppError(SETUP_IN_USE, code="setup_in_use", status_code=409)
    educator_id = setup.educator_id
    await db.delete(setup)
    await db.flush()
    await publish(db, SetupsChanged(educator_id=educator_id))
