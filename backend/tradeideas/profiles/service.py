"""Profiles: reading and editing one's own profile and photo, the public educator list, password change.

Profiles live on `users`, so names, photos and specialties shown on ideas and chat messages are read
through joins and change everywhere at once. Services never commit; they return the changed user.
"""

from fastapi import UploadFile
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User
from tradeideas.auth.schemas import PublicUser
from tradeideas.core.errors import Invalid
from tradeideas.db import utcnow
from tradeideas.media import service as media_service
from tradeideas.profiles.schemas import (
    BAD_SPECIALTY,
    INTERESTS_TOO_LONG,
    MAX_INTERESTS,
    SPECIALTIES,
    EducatorOut,
    ProfileOut,
    ProfileUpdate,
    TradingProfile,
)
from tradeideas.settings import Settings

WRONG_PASSWORD = "Current password is incorrect"  # noqa: S105 - a message, not a password
PASSWORD_CHANGED = "Password changed. You have been signed out on your other devices."  # noqa: S105


def profile_out(user: User) -> ProfileOut:
    educator = user.role == Role.EDUCATOR
    url = user.avatar_url
    return ProfileOut(
        id=user.id,
        role=user.role,
        email=user.email,
        first_name=user.first_name,
        last_name=user.last_name,
        display_name=user.display_name,
        bio=user.bio,
        specialty=user.specialty,
        trading_interests=None if educator else user.specialty,
        years_experience=user.years_experience,
        trading_style=user.trading_style,
        timezone=user.timezone,
        is_public=user.is_public,
        avatar_url=url,
        profile_image=url,
        slug=user.slug,
        updated_at=user.updated_at,
        trading_profile=TradingProfile(years_experience=user.years_experience, trading_style=user.trading_style)
        if educator
        else None,
    )


def educator_out(user: PublicUser) -> EducatorOut:
    return EducatorOut(
        id=user.id,
        first_name=user.first_name,
        last_name=user.last_name,
        display_name=user.name,
        avatar_url=user.avatar_url,
        profile_image=user.avatar_url,
        specialty=user.specialty,
        bio=user.bio,
        slug=user.slug,
    )


def _specialty(user: User, body: ProfileUpdate) -> tuple[bool, str | None]:
    """(sent, value): educators pick one of the seven options; customers' trading interests are free text."""
    sent = body.model_fields_set
    if user.role == Role.EDUCATOR:
        if "specialty" not in sent:
            return False, None
        value = body.specialty or None
        if value is not None and value not in SPECIALTIES:
            raise Invalid(BAD_SPECIALTY)
        return True, value
    if "trading_interests" in sent:
        value = body.trading_interests
    elif "specialty" in sent:
        value = body.specialty
    else:
        return False, None
    if value and len(value) > MAX_INTERESTS:
        raise Invalid(INTERESTS_TOO_LONG)
    return True, value or None


async def update_profile(db: AsyncSession, user: User, body: ProfileUpdate) -> User:
    sent = body.model_fields_set
    first, last = body.first_name, body.last_name
    if body.display_name is not None and "first_name" not in sent and "last_name" not in sent:
        first, _, last = body.display_name.partition(" ")
    if first is not None:
        user.first_name = first
    if last is not None:
        user.last_name = last
    if body.bio is not None:
        user.bio = body.bio
    sent_specialty, specialty = _specialty(user, body)
    if sent_specialty:
        user.specialty = specialty
    if body.years_experience is not None:
        user.years_experience = body.years_experience
    if "trading_style" in sent:
        user.trading_style = body.trading_style
    if "timezone" in sent:
        user.timezone = body.timezone
    if body.is_public is not None:
        user.is_public = body.is_public
    user.updated_at = utcnow()
    await db.flush()
    await auth_service.user_changed(db, user)
    return user


async def set_avatar(db: AsyncSession, settings: Settings, user: User, upload: UploadFile) -> User:
    media = await media_service.store_image(db, settings, user.id, upload)
    media_service.mark_in_use(media)
    user.avatar_path = media.file_name
    user.updated_at = utcnow()
    await db.flush()
    await auth_service.user_changed(db, user)
    return user


async def remove_avatar(db: AsyncSession, user: User) -> User:
    user.avatar_path = None
    user.updated_at = utcnow()
    await db.flush()
    await auth_service.user_changed(db, user)
    return user


async def list_educators(db: AsyncSession) -> list[EducatorOut]:
    """Educators customers can see, with their public profiles."""
    return [educator_out(user) for user in await auth_service.listed_educators(db)]


async def change_password(
    db: AsyncSession, settings: Settings, user: User, session_id: int, current: str, new: str, client: str
) -> User:
    """Needs the current password (rate-limited like logins); ends every other session, keeps this one."""
    if not await auth_service.confirm_password(db, settings, user, current, client):
        raise Invalid(WRONG_PASSWORD, code="wrong_password")
    await auth_service.set_password(db, user, new)
    await auth_service.revoke_all_sessions(db, user, except_session_id=session_id)
    await db.flush()
    return user
